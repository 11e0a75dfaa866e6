package moldable

import (
	"context"
	"fmt"
	"io"

	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/model"
	mworkload "github.com/sweep-sched/sweep/workload/moldable"
)

// Generate writes one instance of a moldable-task preset (seed 002) as
// JSON (workload/moldable's format). Moldable workloads are off-line.
func (Model) Generate(ctx context.Context, preset string, settings []string, seed uint64, instance int, arrivals model.Arrivals, out io.Writer) (string, error) {
	if arrivals.Load > 0 {
		return "", model.InputError{Err: fmt.Errorf("moldable workloads are off-line (every task at time 0): leave out --load and --platform")}
	}
	p, err := gmoldable.Lookup(preset)
	if err != nil {
		return "", model.InputError{Err: err}
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		return "", model.InputError{Err: fmt.Errorf("--set: %w", err)}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	w, err := gmoldable.Generate(params, seed, instance)
	if err != nil {
		return "", err
	}
	if err := w.Write(out); err != nil {
		return "", err
	}
	return summarize(w), nil
}

// summarize describes a moldable workload in one line.
func summarize(w *mworkload.Workload) string {
	var work, weight float64
	shortest, longest := w.Tasks[0].Time(1), w.Tasks[0].Time(1)
	for _, t := range w.Tasks {
		work += t.Time(1)
		weight += t.Weight
		shortest, longest = min(shortest, t.Time(1)), max(longest, t.Time(1))
	}
	return fmt.Sprintf("%d moldable tasks on %d processors, sequential times %.4g..%.4g s (total %.6g s), total weight %.6g",
		len(w.Tasks), w.Processors, shortest, longest, work, weight)
}
