package sweep

import (
	"fmt"
	"sync"

	"github.com/sweep-sched/sweep/engine"
	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/gen"
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
	moldable  *moldableInstance  // for moldable sources
	err       error

	// arrivals are the open-loop arrivals per platform and load, computed
	// by the first of the load's policies and shared by the others.
	arrivalsMu sync.Mutex
	arrivals   map[arrivalKey][]int64

	rigid rigidTraces // for rigid sources, cut to a cluster on first use
}

type arrivalKey struct {
	platform string
	load     float64
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
	if src.moldable != nil {
		return nil, nil, nil // see moldable
	}
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

// entry builds the cell's workload instance on first use.
func (c *instanceCache) entry(cell Cell) *cacheEntry {
	c.mu.Lock()
	e := c.entries[cell.group]
	c.mu.Unlock()
	e.once.Do(func() {
		if c.m.sources[cell.spec].moldable != nil {
			e.moldable, e.err = buildMoldable(c.m, cell)
			return
		}
		e.compiled, e.campaigns, e.err = c.build(cell)
	})
	return e
}

func (c *instanceCache) instance(cell Cell) (*engine.Instance, error) {
	e := c.entry(cell)
	if e.err != nil {
		return nil, e.err
	}
	return e.compiled[cell.Platform], nil
}

// arrivals returns the arrivals of the cell's DAG instance at the cell's
// load ratio on its platform (gen.Arrivals), computed once per instance,
// platform and load. Simulate only reads them.
func (c *instanceCache) arrivals(cell Cell, in *engine.Instance) ([]int64, error) {
	e := c.entry(cell)
	e.arrivalsMu.Lock()
	defer e.arrivalsMu.Unlock()
	key := arrivalKey{cell.Platform, cell.Load}
	if a, ok := e.arrivals[key]; ok {
		return a, nil
	}
	a, err := gen.Arrivals(in.Volumes(), c.m.platform[cell.Platform].TotalCores(), cell.Load)
	if err != nil {
		return nil, fmt.Errorf("arrivals: %w", err)
	}
	if e.arrivals == nil {
		e.arrivals = map[arrivalKey][]int64{}
	}
	e.arrivals[key] = a
	return a, nil
}

// moldable returns the cell's moldable instance with its lower bounds.
func (c *instanceCache) moldable(cell Cell) (*moldableInstance, error) {
	e := c.entry(cell)
	return e.moldable, e.err
}

// campaigns returns the cell's campaign workload, nil for DAG workloads.
func (c *instanceCache) campaigns(cell Cell) *campaign.Workload {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[cell.group].campaigns
}

// rigidTraces returns the trace reader shared by the cells of a rigid
// source.
func (c *instanceCache) rigidTraces(cell Cell) *rigidTraces {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &c.entries[cell.group].rigid
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
