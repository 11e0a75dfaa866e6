package grid

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/sweep-sched/sweep/platform"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/dag"
)

// ReadFile reads a DAG workload JSON file (package workload's format). Its
// cells run at its own arrivals, or at a load ratio's when the axes have
// one. It takes no options.
func (m Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	data, canon, err := model.ReadWorkloadFile(path, "DAG workload", options)
	if err != nil {
		return nil, err
	}
	w, err := dag.Decode(bytes.NewReader(data), path)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	return &fileSource{source: source{own: m.Own}, w: w, canon: canon}, nil
}

// fileSource is one DAG workload read from a file.
type fileSource struct {
	source
	w     *dag.Workload
	canon string
}

// CheckPlatform is the compiler's: it names the task that cannot run.
func (s *fileSource) CheckPlatform(name string, p *platform.Platform) error { return nil }

func (s *fileSource) Groups(ax model.Axes) [][]model.Cell {
	return [][]model.Cell{model.InstanceCells(ax, Version, s.canon, ax.Settings.Canonical(), 0, [2]uint64{})}
}

func (s *fileSource) Prepare(ctx context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	if c.Load == 0 && !s.w.HasArrivals() {
		return nil, model.InputError{Err: fmt.Errorf("some jobs have no arrival; give every job an \"arrival\" or a load ratio")}
	}
	net := env.Settings.(Network).Network
	p := &prepared{compiled: map[string]*gridengine.Instance{}, platforms: env.Platforms, ownArrivals: c.Load == 0, entries: env.Policies, own: s.own}
	for _, name := range slices.Sorted(maps.Keys(env.Platforms)) {
		in, err := gridengine.Compile(s.w, env.Platforms[name], net)
		if err != nil {
			return nil, model.InputError{Err: err}
		}
		p.compiled[name] = in
	}
	return p, nil
}
