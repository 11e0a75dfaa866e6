package sweep

import (
	"context"
	"sync"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// instanceCache prepares each workload instance once (its model's
// Prepare: generated, compiled per platform, bounds computed), shares it
// among the cells that run it, and drops it when its last cell is done, so
// memory holds only the instances in flight. It also holds the run's table
// layout, computed once.
type instanceCache struct {
	m       *Manifest
	mu      sync.Mutex
	entries map[int]*cacheEntry

	measures []table.Measure  // the cells table's measures
	layout   map[string][]int // per model, its measures' columns
	children []store.Schema   // the run's child tables
}

type cacheEntry struct {
	once      sync.Once
	remaining int // cells still to run
	prepared  model.Prepared
	err       error
}

func newInstanceCache(m *Manifest, cells []Cell) *instanceCache {
	c := &instanceCache{m: m, entries: map[int]*cacheEntry{}, measures: m.measures(), layout: m.layout(), children: m.childSchemas()}
	for _, cell := range cells {
		e := c.entries[cell.group]
		if e == nil {
			e = &cacheEntry{}
			c.entries[cell.group] = e
		}
		e.remaining++
	}
	return c
}

// prepared prepares the cell's workload instance on first use.
func (c *instanceCache) prepared(ctx context.Context, cell Cell) (model.Prepared, error) {
	c.mu.Lock()
	e := c.entries[cell.group]
	c.mu.Unlock()
	e.once.Do(func() {
		rs := c.m.sources[cell.spec]
		e.prepared, e.err = rs.source.Prepare(ctx, cell.Cell, c.m.env(rs.model))
	})
	return e.prepared, e.err
}

func (c *instanceCache) release(cell Cell) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[cell.group]
	e.remaining--
	if e.remaining == 0 {
		delete(c.entries, cell.group)
	}
}
