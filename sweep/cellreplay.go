package sweep

import (
	"context"
	"fmt"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/table"
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

// A Replayed cell is a cell simulated again as a run does: the same
// workload instance, arrivals and policy seed.
type Replayed struct {
	Outcome  model.Outcome
	Measured model.Measured
	// Measures are the cell's model's measures, in Measured.Values order.
	Measures []table.Measure
}

// Replay simulates cell c again, as a run does, so its measures are those
// of the cell's stored row (but for timing measures).
func (m *Manifest) Replay(ctx context.Context, c Cell) (*Replayed, error) {
	prepared, err := m.prepare(ctx, c)
	var outcome model.Outcome
	if err == nil {
		outcome, err = prepared.Simulate(ctx, c.Cell)
	}
	if err != nil {
		return nil, fmt.Errorf("replaying cell %s (%s): %w", c.ID, c.Name(), err)
	}
	measured, err := outcome.Measure(m.Record)
	if err != nil {
		return nil, fmt.Errorf("replaying cell %s (%s): %w", c.ID, c.Name(), err)
	}
	return &Replayed{Outcome: outcome, Measured: measured, Measures: m.sources[c.spec].model.Measures()}, nil
}

// Models returns the registry the manifest was loaded with.
func (m *Manifest) Models() *model.Registry { return m.models }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ModelOf returns the model of a cell of the manifest.
func (m *Manifest) ModelOf(c Cell) model.Model { return m.sources[c.spec].model }
