package moldable

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	mworkload "github.com/sweep-sched/sweep/workload/moldable"
)

// ReadFile reads a moldable workload JSON file (package workload/moldable's
// format, as `sweep gen --preset dutot2004/...` writes). It takes no
// options.
func (Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	data, canon, err := model.ReadWorkloadFile(path, "moldable workload", options)
	if err != nil {
		return nil, err
	}
	w, err := mworkload.Read(bytes.NewReader(data))
	if err != nil {
		return nil, model.InputError{Err: fmt.Errorf("%s: %w", path, err)}
	}
	return &fileSource{w: w, canon: canon}, nil
}

// fileSource is one moldable workload read from a file.
type fileSource struct {
	source
	w     *mworkload.Workload
	canon string
}

func (s *fileSource) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 || p.TotalCores() != s.w.Processors {
		return fmt.Errorf("the workload is for m = %d processors: want platform single:%d, not %s", s.w.Processors, s.w.Processors, name)
	}
	return nil
}

func (s *fileSource) Groups(ax model.Axes) [][]model.Cell {
	return [][]model.Cell{model.InstanceCells(ax, Version, s.canon, ax.Settings.Canonical(), 0, [2]uint64{})}
}

func (s *fileSource) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	return prepare(s.w, c, env.Settings.(Settings).DEMTOptions)
}
