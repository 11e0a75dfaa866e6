package sweep

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// runCell simulates one cell on its prepared instance and returns its row
// and child rows, in the order of the run's child schemas. The row's wall
// time counts the instance's preparation when this cell's worker prepared
// it.
func runCell(ctx context.Context, m *Manifest, lay *rowLayout, t task, before func(Cell)) (row store.Row, children []store.Child, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if before != nil {
		before(t.Cell)
	}
	if t.inst.err != nil {
		return nil, nil, t.inst.err
	}
	outcome, err := t.inst.prepared.Simulate(ctx, t.Cell.Cell)
	if err != nil {
		return nil, nil, err
	}
	measured, err := outcome.Measure(m.Record)
	if err != nil {
		return nil, nil, err
	}
	md := m.sources[t.spec].model
	head := cellHead(m, t.Cell, table.StatusOK, "", t.PrepareTime+time.Since(start))
	return cellRow(head, len(lay.measures), lay.byModel[md.Name()], measured.Values), ordered(lay.children, measured.Children), nil
}
