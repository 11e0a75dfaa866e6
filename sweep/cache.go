package sweep

import (
	"fmt"
	"sync"

	"github.com/sweep-sched/sweep/engine"
	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/workload/campaign"
)

// instanceCache generates each workload instance once and compiles it per
// platform, shares it among the cells that run it, and drops it when its
// last cell is done, so memory holds only the instances in flight.
type instanceCache struct {
	m       *Manifest
	mu      sync.Mutex
	entries map[int]*cacheEntry
}

type cacheEntry struct {
	once      sync.Once
	remaining int // cells still to run
	compiled  map[string]*engine.Instance
	campaigns *campaign.Workload // for campaign sources
	err       error
}

func newInstanceCache(m *Manifest, cells []Cell) *instanceCache {
	c := &instanceCache{m: m, entries: map[int]*cacheEntry{}}
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

// build generates the cell's workload instance and compiles it for every
// platform of the manifest.
func (c *instanceCache) build(cell Cell) (map[string]*engine.Instance, *campaign.Workload, error) {
	src := c.m.sources[cell.spec]
	compiled := map[string]*engine.Instance{}
	if src.campaigns {
		w, err := src.campaignWorkload(ReplicateSeed(c.m.Seed, cell.Replicate), cell.Instance)
		if err != nil {
			return nil, nil, fmt.Errorf("building %s instance %d: %w", cell.Workload, cell.Instance, err)
		}
		for _, name := range c.m.Platforms {
			if compiled[name], err = ecampaign.Compile(w, c.m.platform[name].TotalCores()); err != nil {
				return nil, nil, fmt.Errorf("%s instance %d on %s: %w", cell.Workload, cell.Instance, name, err)
			}
		}
		return compiled, w, nil
	}
	w, err := src.dagWorkload(ReplicateSeed(c.m.Seed, cell.Replicate), cell.Instance)
	if err != nil {
		return nil, nil, fmt.Errorf("generating %s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	net, _ := c.m.network()
	for _, name := range c.m.Platforms {
		if compiled[name], err = engine.Compile(w, c.m.platform[name], net); err != nil {
			return nil, nil, fmt.Errorf("%s instance %d on %s: %w", cell.Workload, cell.Instance, name, err)
		}
	}
	return compiled, nil, nil
}

func (c *instanceCache) instance(cell Cell) (*engine.Instance, error) {
	c.mu.Lock()
	e := c.entries[cell.group]
	c.mu.Unlock()
	e.once.Do(func() { e.compiled, e.campaigns, e.err = c.build(cell) })
	if e.err != nil {
		return nil, e.err
	}
	return e.compiled[cell.Platform], nil
}

// campaigns returns the cell's campaign workload, nil for DAG workloads.
func (c *instanceCache) campaigns(cell Cell) *campaign.Workload {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[cell.group].campaigns
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
