package sweep

import (
	"context"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// A rowLayout is a run's table layout, computed once: the cells table's
// measures, each model's columns among them, and the child tables.
type rowLayout struct {
	measures []table.Measure
	byModel  map[string][]int // per model, its measures' columns
	children []store.Schema
}

func newRowLayout(m *Manifest) *rowLayout {
	return &rowLayout{measures: m.measures(), byModel: m.layout(), children: m.childSchemas()}
}

// prepare prepares the workload instance of cell c with its model's
// Prepare: what every cell of the instance shares.
func (m *Manifest) prepare(ctx context.Context, c Cell) (model.Prepared, error) {
	rs := m.sources[c.spec]
	return rs.source.Prepare(ctx, c.Cell, m.env(rs.model))
}
