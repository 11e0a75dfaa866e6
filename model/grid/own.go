package grid

import (
	"cmp"
	"context"
	"fmt"
	"maps"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/policy/pipe"
)

// An Order is an ordering policy of a researcher's own module, added to
// the model with Model.Own:
//
//	reg := builtin.Registry(grid.Model{Own: []grid.Order{{Name: "small-first", New: newSmallFirst}}})
//
// It plugs into the engine's Options.Order seam, the one the built-in
// policies use, so its cells pair with theirs; gridengine.JobPriorityOrders
// makes one from a per-job priority. Its schedules go through
// engine/verify.Schedule.
type Order struct {
	Name string
	Doc  string // one line, for `sweep policies`
	// Params are the parameters a manifest may set; New gets every one,
	// defaults filled in.
	Params []model.Param
	// New returns the order constructor of one simulation (called once
	// per cell); seed is the cell's policy seed, for random draws.
	New func(params map[string]string, seed uint64) (func(v *gridengine.View, cluster int) gridengine.Order, error)
}

// ExternalKinds says the model runs pipe-protocol ordering policies.
func (Model) ExternalKinds() []string { return []string{"command"} }

// ProbeExternal starts a pipe-protocol ordering policy once on p's
// clusters (model.ExternalProber).
func (Model) ProbeExternal(ctx context.Context, entry model.PolicyEntry, p *platform.Platform) error {
	return pipe.ProbeDAG(ctx, pipeOptions(entry), p)
}

// pipeOptions runs a manifest's command entry as a pipe-protocol policy:
// the same options for the probe and for every cell.
func pipeOptions(entry model.PolicyEntry) pipe.Options {
	return pipe.Options{Command: entry.Argv, Name: entry.Name, Params: entry.Params,
		Dir: entry.Dir, DecisionTimeout: entry.DecisionTimeout}
}

// simulate runs a cell's instance under its policy: built-in, the
// model's own (Go) or a pipe-protocol process.
func (p *prepared) simulate(ctx context.Context, policy string, in *gridengine.Instance, opts gridengine.Options) (*gridengine.Schedule, error) {
	entry := p.entries[policy]
	if entry.Command != nil {
		d, sctx, err := pipe.StartDAG(ctx, pipeOptions(entry), in)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		opts.Order = gridengine.JobPriorityOrders(d.Priority)
		s, err := gridengine.Simulate(sctx, in, opts)
		if d.Err() != nil {
			return nil, d.Err()
		}
		if err != nil {
			return nil, err
		}
		return s, validate(policy, s)
	}
	runs := cmp.Or(entry.Policy, policy) // a named variant runs its policy
	for _, o := range p.own {
		if o.Name != runs {
			continue
		}
		params := map[string]string{}
		for _, q := range o.Params {
			params[q.Name] = q.Default
		}
		maps.Copy(params, entry.Params)
		order, err := o.New(params, opts.Seed)
		if err != nil {
			return nil, fmt.Errorf("policy %s: %w", policy, err)
		}
		opts.Order = order
		s, err := gridengine.Simulate(ctx, in, opts)
		if err != nil {
			return nil, err
		}
		return s, validate(policy, s)
	}
	return gridengine.Simulate(ctx, in, opts)
}

// validate checks a schedule of a policy the validator has no order rule
// for: its shape, precedences, capacities and that every pass left
// waiting only tasks that did not fit (the rule of random, which holds
// for every order).
func validate(policy string, s *gridengine.Schedule) error {
	if err := verify.Schedule(s, "random"); err != nil {
		return fmt.Errorf("policy %s: invalid schedule: %w", policy, err)
	}
	return nil
}
