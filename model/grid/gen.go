package grid

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/gen/wfcommons"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/dag"
)

// Generate writes one instance of a Table 2 preset as DAG workload JSON,
// with open-loop arrivals when asked.
//
// The preset wfcommons/instances takes the setting workflows=PATH[,PATH...]
// (WfFormat files or folders of them) beside its parameters.
func (Model) Generate(ctx context.Context, preset string, settings []string, seed uint64, instance int, arrivals model.Arrivals, out io.Writer) (string, error) {
	var w *dag.Workload
	var err error
	if preset == wfcommons.Preset {
		w, err = generateWorkflows(settings, seed, instance)
	} else {
		w, err = generatePreset(preset, settings, seed, instance)
	}
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if arrivals.Load > 0 {
		if err := gridgen.SetArrivals(w, arrivals.Cores, arrivals.Load); err != nil {
			return "", err
		}
	}
	bw := bufio.NewWriter(out)
	if err := w.Encode(bw); err != nil {
		return "", err
	}
	return summarize(w), bw.Flush()
}

// summarize describes a generated workload in one line. Its critical path
// is the longest path by execution time only (no network delays), which
// relies on gen listing predecessors before their successors.
func summarize(w *dag.Workload) string {
	var tasks, edges int
	var exec, volume int64
	cpMin, cpMax := int64(-1), int64(0)
	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		finish := make(map[string]int64, len(j.Tasks))
		var cp int64
		for ti := range j.Tasks {
			t := &j.Tasks[ti]
			var start int64
			for _, p := range t.After {
				start = max(start, finish[p])
			}
			finish[t.ID] = start + t.ExecTicks
			cp = max(cp, start+t.ExecTicks)
			exec += t.ExecTicks
			edges += len(t.After)
		}
		tasks += len(j.Tasks)
		volume += j.Volume()
		if cpMin < 0 || cp < cpMin {
			cpMin = cp
		}
		cpMax = max(cpMax, cp)
	}
	return fmt.Sprintf("%d jobs, %d tasks, %d edges, exec %d ticks, volume %d core-ticks, critical path (exec only, no delays) %d..%d ticks",
		len(w.Jobs), tasks, edges, exec, volume, cpMin, cpMax)
}

// generatePreset generates an instance of a Table 2 preset.
func generatePreset(preset string, settings []string, seed uint64, instance int) (*dag.Workload, error) {
	p, err := gridgen.Lookup(preset)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		return nil, model.InputError{Err: fmt.Errorf("--set: %w", err)}
	}
	return gridgen.Generate(params, seed, instance)
}

// generateWorkflows draws an instance of a stream of WfCommons workflows.
func generateWorkflows(settings []string, seed uint64, instance int) (*dag.Workload, error) {
	var paths, rest []string
	for _, kv := range settings {
		if value, ok := strings.CutPrefix(kv, "workflows="); ok {
			paths = append(paths, strings.Split(value, ",")...)
			continue
		}
		rest = append(rest, kv)
	}
	if len(paths) == 0 {
		return nil, model.InputError{Err: fmt.Errorf("%s: --set workflows=PATH[,PATH...] is required (WfFormat files or folders)", wfcommons.Preset)}
	}
	src, err := wfcommons.LoadSource(paths...)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	params := wfcommons.Defaults()
	if err := params.SetAll(rest); err != nil {
		return nil, model.InputError{Err: fmt.Errorf("--set: %w", err)}
	}
	return wfcommons.Generate(params, src, seed, instance)
}
