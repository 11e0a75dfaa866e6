package sweep

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// runCell simulates one cell and returns its row and child rows, in the
// order of the run's child schemas.
func runCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell, before func(Cell)) (row store.Row, children [][]store.Row, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if before != nil {
		before(c)
	}
	outcome, err := simulateCell(ctx, m, cache, c)
	if err != nil {
		return nil, nil, err
	}
	measured, err := outcome.Measure(m.Record)
	if err != nil {
		return nil, nil, err
	}
	md := m.sources[c.spec].model
	head := cellHead(m, c, table.StatusOK, "", time.Since(start))
	return cellRow(head, len(cache.measures), cache.layout[md.Name()], measured.Values), ordered(cache.children, measured.Children), nil
}

// simulateCell runs the cell's policy on its workload instance, prepared
// once per instance.
func simulateCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell) (model.Outcome, error) {
	prepared, err := cache.prepared(ctx, c)
	if err != nil {
		return nil, err
	}
	return prepared.Simulate(ctx, c.Cell)
}
