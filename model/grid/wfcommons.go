package grid

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/gen/wfcommons"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
)

// workflowSource is a stream of WfCommons workflow instances as DAG jobs
// (the generator wfcommons/instances): the files or folders of the entry's
// `workflows` key, drawn into jobs by the parameters of `set`.
//
//   - generator: wfcommons/instances
//     workflows: [../shared/workflows]   # files or folders of *.json
//     instances: 5
//     set: {jobs: 50, ticks-per-second: 1000, delays: files}
type workflowSource struct {
	params wfcommons.Params
	src    *wfcommons.Source
	canon  string
	kinds  []string // the task kinds the mapping gives
	cores  int      // the widest task
	own    []Order  // the model's Go orders
}

// workflowKeys are the keys of a WfCommons entry beyond model.CommonKeys.
var workflowKeys = []string{"workflows"}

// WorkloadKeys are a WfCommons entry's keys (model.WorkloadKeyed).
func (Model) WorkloadKeys() []string { return workflowKeys }

func newWorkflowSource(w *model.WorkloadSpec, env model.Env) (*workflowSource, error) {
	if err := w.CheckOptions(workflowKeys...); err != nil {
		return nil, err
	}
	var paths []string
	if ok, err := w.Option("workflows", &paths); err != nil || !ok {
		if err == nil {
			// A single path is a list of one.
			var one string
			if ok, err = w.Option("workflows", &one); ok && err == nil && one != "" {
				paths = []string{one}
			} else {
				err = fmt.Errorf("workflows: missing; want WfFormat files or folders of them (relative to the manifest), e.g. workflows: [../shared/workflows]")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	for i, p := range paths {
		paths[i] = env.Path(p)
	}
	src, err := wfcommons.LoadSource(paths...)
	if err != nil {
		return nil, fmt.Errorf("workflows: %w", err)
	}
	params := wfcommons.Defaults()
	if err := w.ApplySet(params.Set); err != nil {
		return nil, err
	}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	s := &workflowSource{params: params, src: src, canon: wfcommons.Preset + " " + params.Canonical() + " " + src.Canonical()}
	// Every instance is converted once here, so a file the mapping cannot
	// take is refused before anything runs, and the platform check knows
	// the kinds and widths of the tasks.
	for _, in := range src.Instances {
		j, err := wfcommons.Job(in, params, "")
		if err != nil {
			return nil, err
		}
		for _, t := range j.Tasks {
			if k := t.KindOrDefault(); !slices.Contains(s.kinds, k) {
				s.kinds = append(s.kinds, k)
			}
			s.cores = max(s.cores, t.Cores)
		}
	}
	slices.Sort(s.kinds)
	return s, nil
}

func (s *workflowSource) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d instances of %d workflows)", label, instances, len(s.src.Instances))
}

func (s *workflowSource) Report() string { return "" }

func (s *workflowSource) Allows(string) error { return nil }

// CheckPlatform refuses a platform without a cluster of a task kind the
// mapping gives, or none wide enough for the widest task.
func (s *workflowSource) CheckPlatform(name string, p *platform.Platform) error {
	widest := map[string]int{}
	for _, c := range p.Clusters {
		widest[c.Kind] = max(widest[c.Kind], c.Cores)
	}
	for _, kind := range s.kinds {
		switch {
		case widest[kind] == 0:
			return fmt.Errorf("platform %s has no cluster of kind %s, which the workflows' tasks map to (kinds %s); give a platform with such clusters, or set kinds: one", name, kind, strings.Join(s.kinds, ", "))
		case widest[kind] < s.cores:
			return fmt.Errorf("platform %s: the widest %s cluster has %d cores but a workflow task takes %d", name, kind, widest[kind], s.cores)
		}
	}
	return nil
}

func (s *workflowSource) Groups(ax model.Axes) [][]model.Cell {
	return model.Instances(ax, Version, s.canon, gridgen.InstanceSeed)
}

// Prepare draws the cell's stream of workflows and compiles it for every
// platform; arrivals come from the load ratio as for generated workloads.
func (s *workflowSource) Prepare(ctx context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	w, err := wfcommons.Generate(s.params, s.src, c.RootSeed, c.Instance)
	if err != nil {
		return nil, fmt.Errorf("drawing %s instance %d: %w", c.Workload, c.Instance, err)
	}
	net := env.Settings.(Network).Network
	p := &prepared{compiled: map[string]*gridengine.Instance{}, platforms: env.Platforms, entries: env.Policies, own: s.own}
	for _, name := range slices.Sorted(maps.Keys(env.Platforms)) {
		if p.compiled[name], err = gridengine.Compile(w, env.Platforms[name], net); err != nil {
			return nil, fmt.Errorf("%s instance %d on %s: %w", c.Workload, c.Instance, name, err)
		}
	}
	return p, nil
}
