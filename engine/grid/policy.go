package grid

import (
	"fmt"
	"math/rand/v2"
)

// A policy is a built-in ordering policy. For one simulation it makes the
// same kind of order constructor that Options.Order takes from outside the
// package, so that built-in and plugged-in orders reach the event loop the
// same way and the loop knows no policy by name.
type policy struct {
	name string
	// orders returns the constructor of each cluster's empty order for
	// one simulation seeded with seed.
	orders func(seed uint64) func(v *View, cluster int) Order
}

// policies is the table of built-in policies, in the order Policies lists
// them. It is built on each call so that no caller can change it for
// another.
func policies() []policy {
	return []policy{
		{"random", randomOrders},
		{"fifo-task", fifoOrders},
		{"fifo-job", keyedOrders(fifoJobKey)},
		{"fairshare", fairShareOrders},
		{"lrtf", keyedOrders(lrtfKey)},
		{"srtf", keyedOrders(srtfKey)},
		{"pslr", pslrOrders},
	}
}

// Policies lists the ordering policies Simulate accepts.
func Policies() []string {
	var names []string
	for _, p := range policies() {
		names = append(names, p.name)
	}
	return names
}

// policyOrders returns the order constructor of the built-in policy name
// for one simulation.
func policyOrders(name string, seed uint64) (func(v *View, cluster int) Order, error) {
	for _, p := range policies() {
		if p.name == name {
			return p.orders(seed), nil
		}
	}
	return nil, fmt.Errorf("unknown policy %q; valid policies: %v", name, Policies())
}

// keyedOrders makes the orders of a static-priority policy: key gives the
// priority of task g when it becomes ready at readyTick.
func keyedOrders(key func(v *View, g int32, readyTick int64) taskKey) func(uint64) func(*View, int) Order {
	return func(uint64) func(*View, int) Order {
		return func(v *View, _ int) Order { return newKeyedOrder(v, key) }
	}
}

// fifoOrders makes the orders of fifo-task, whose key (ready tick, g) is
// fifoItem's: tasks come in that order but for ties within a tick.
func fifoOrders(uint64) func(*View, int) Order {
	// Ready queues reach thousands at overload.
	return func(*View, int) Order { return &fifoOrder{q: fifoQueue{items: make([]fifoItem, 0, 256)}} }
}

// The static keys of DESIGN.md section 3. g, the global task index, is
// in job then task order, so ending a key with g breaks the remaining ties
// as job index then task index.

func fifoJobKey(v *View, g int32, readyTick int64) taskKey {
	j := v.s.in.task[g].job
	return taskKey{v.s.arrival[j], int64(j), readyTick, g}
}

func srtfKey(v *View, g int32, _ int64) taskKey { return taskKey{v.s.in.rank[g], 0, 0, g} }

func lrtfKey(v *View, g int32, _ int64) taskKey { return taskKey{-v.s.in.rank[g], 0, 0, g} }

// randomOrders gives each cluster its own stream, derived from the seed
// and the cluster index, so that clusters do not share draws through the
// order of their passes.
func randomOrders(seed uint64) func(*View, int) Order {
	return func(_ *View, cluster int) Order {
		return &randomOrder{src: rand.NewPCG(seed, 0x5eed0000+uint64(cluster)+1)}
	}
}

// fairShareOrders makes one share usage per simulation, shared by every
// cluster's order: fair share counts the cores a share uses on the whole
// platform.
func fairShareOrders(uint64) func(*View, int) Order {
	var usage *shareUsage
	return func(v *View, _ int) Order {
		if usage == nil {
			usage = newShareUsage(v.s.in)
		}
		return newFairShareOrder(v, usage)
	}
}

func pslrOrders(uint64) func(*View, int) Order {
	return func(v *View, _ int) Order { return newPSLROrder(v) }
}
