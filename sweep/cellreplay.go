package sweep

import (
	"context"
	"fmt"

	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/engine"
)

// FindCell returns the manifest's cell whose id or name (Cell.Name) is
// key.
func (m *Manifest) FindCell(key string) (Cell, error) {
	for _, c := range m.Cells() {
		if c.ID == key || c.Name() == key {
			return c, nil
		}
	}
	return Cell{}, fmt.Errorf("no cell %q in manifest %s with %d %s; give a cell id (cell_id in cells/*.parquet) or a name such as %s",
		key, m.path, m.ReplicateCount(), plural(m.ReplicateCount(), "replicate", "replicates"), m.Cells()[0].Name())
}

// Replay simulates cell c again, as a run does: the same workload
// instance, arrivals and policy seed, so its schedule and metrics are
// those of the cell's stored row.
func (m *Manifest) Replay(ctx context.Context, c Cell) (*engine.Schedule, grid.ScheduleMetrics, error) {
	if m.sources[c.spec].moldable != nil {
		return nil, grid.ScheduleMetrics{}, fmt.Errorf("replaying cell %s (%s): a moldable cell's measures are not those of a task schedule on clusters; replay DAG or campaign cells", c.ID, c.Name())
	}
	cache := newInstanceCache(m, []Cell{c})
	s, _, err := simulateCell(ctx, m, cache, c)
	if err != nil {
		return nil, grid.ScheduleMetrics{}, fmt.Errorf("replaying cell %s (%s): %w", c.ID, c.Name(), err)
	}
	outcomes := s.Outcomes()
	var makespan int64
	for _, o := range outcomes {
		makespan = max(makespan, o.FinishTick)
	}
	metrics, err := grid.ComputeMetrics(outcomes, m.platform[c.Platform].TotalCores(), makespan)
	if err != nil {
		return nil, grid.ScheduleMetrics{}, fmt.Errorf("replaying cell %s (%s): metrics: %w", c.ID, c.Name(), err)
	}
	return s, metrics, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
