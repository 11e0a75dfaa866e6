package rigid

import (
	"cmp"
	"context"
	"fmt"
	"maps"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/policy/batsim"
	"github.com/sweep-sched/sweep/policy/pipe"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// A Policy is a rigid-job policy written in Go in a researcher's own
// module, added to the model with Model.Own:
//
//	reg := builtin.Registry(rigid.Model{Own: []rigid.Policy{{Name: "sjf-easy", New: newSJF}}})
//
// It runs engine/backfill's event loop (package backfill's Decider), so
// its cells pair with the built-in policies' cell for cell; its schedules
// go through engine/verify.Rigid.
type Policy struct {
	Name string
	Doc  string // one line, for `sweep policies`
	// Params are the parameters a manifest may set ({name: N, params:
	// {...}}); New gets every one, defaults filled in.
	Params []model.Param
	// New makes the policy's Decider for one cell. It is called once per
	// cell: the Decider may keep state across the cell's decisions.
	New func(params map[string]string) (backfill.Decider, error)
}

// ExternalKinds says the model runs pipe-protocol policies and Batsim
// schedulers.
func (Model) ExternalKinds() []string { return []string{"command", "batsim"} }

// ProbeExternal starts a pipe-protocol policy or a Batsim scheduler once
// on p's processors (model.ExternalProber).
func (Model) ProbeExternal(ctx context.Context, entry model.PolicyEntry, p *platform.Platform) error {
	if p.HasNodes() && entry.Batsim != nil {
		return batsim.Probe(ctx, batsim.Options{Command: entry.Argv, DecisionTimeout: entry.DecisionTimeout}, machineOf(p).Nodes())
	}
	if p.HasNodes() && !isAgent(entry) {
		return pipe.ProbeNodes(ctx, pipeOptions(entry), machineOf(p), rigid.EstimateRequested.String())
	}
	procs := p.Clusters[0].Cores // rigid platforms of processors have one cluster (CheckPlatform)
	if entry.Batsim != nil {
		return batsim.Probe(ctx, batsim.Options{Command: entry.Argv, DecisionTimeout: entry.DecisionTimeout}, procs)
	}
	if isAgent(entry) {
		// A trained agent speaks the gym framing: its params are checked
		// here, its process at the first cell.
		_, err := agentConfig(entry)
		return err
	}
	return pipe.ProbeRigid(ctx, pipeOptions(entry), procs, rigid.EstimateRequested.String())
}

// policyRunner runs a cell's policy: built-in, the model's own (Go), a
// pipe-protocol process or a Batsim scheduler.
type policyRunner struct {
	settings Settings
	// entries are the manifest's policy entries; own the model's Go
	// policies.
	entries map[string]model.PolicyEntry
	own     []Policy
}

func newPolicyRunner(env model.Env, own []Policy) policyRunner {
	return policyRunner{settings: env.Settings.(Settings), entries: env.Policies, own: own}
}

// schedule simulates workload w under the cell's policy and returns each
// job's processor ids when the policy named them (a Batsim scheduler), else
// nil.
func (p policyRunner) schedule(ctx context.Context, policy string, w *rigid.Workload, v rigid.Variant) (*backfill.Schedule, [][]int, error) {
	entry := p.entries[policy]
	if entry.Batsim != nil {
		return batsimSchedule(ctx, entry, w, v)
	}
	if isAgent(entry) {
		sched, err := agentSchedule(ctx, entry, w, v)
		return sched, nil, err
	}
	sched, err := p.engineSchedule(ctx, policy, entry, w, v)
	return sched, nil, err
}

// engineSchedule simulates workload w in engine/backfill under a built-in
// policy, the model's own or a pipe-protocol process.
func (p policyRunner) engineSchedule(ctx context.Context, policy string, entry model.PolicyEntry, w *rigid.Workload, v rigid.Variant) (*backfill.Schedule, error) {
	var decider backfill.Decider
	switch {
	case entry.Command != nil:
		start := func() (*pipe.Rigid, error) {
			return pipe.StartRigid(ctx, pipeOptions(entry), w.Procs, len(w.Jobs), v.String(), w.Name)
		}
		if w.Machine != nil {
			start = func() (*pipe.Rigid, error) {
				return pipe.StartNodes(ctx, pipeOptions(entry), w.Machine, len(w.Jobs), v.String(), w.Name)
			}
		}
		r, err := start()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		decider = r
	default:
		runs := cmp.Or(entry.Policy, policy) // a named variant runs its policy
		own, ok := p.ownPolicy(runs)
		if !ok {
			return builtinSchedule(ctx, w, v, p.settings, runs, entry.Params)
		}
		params := map[string]string{}
		for _, q := range own.Params {
			params[q.Name] = q.Default
		}
		maps.Copy(params, entry.Params)
		var err error
		if decider, err = own.New(params); err != nil {
			return nil, fmt.Errorf("policy %s: %w", policy, err)
		}
	}
	sel := backfill.SelectFirstFit
	if name, ok := entry.Params[ParamNodes]; ok && w.Machine != nil {
		var err error
		if sel, err = backfill.ParseNodeSelection(name); err != nil {
			return nil, fmt.Errorf("policy %s: params: %s: %w", policy, ParamNodes, err)
		}
	}
	sched, err := backfill.Simulate(ctx, w, v, backfill.Policy{Decider: decider, Nodes: sel})
	if err != nil {
		return nil, err
	}
	if err := verify.Rigid(w, v, sched); err != nil {
		return nil, fmt.Errorf("policy %s: invalid schedule: %w", policy, err)
	}
	return sched, nil
}

func (p policyRunner) ownPolicy(name string) (Policy, bool) {
	for _, o := range p.own {
		if o.Name == name {
			return o, true
		}
	}
	return Policy{}, false
}

// batsimSchedule runs a Batsim scheduler through policy/batsim (which
// validates its placements) and returns its schedule in whole seconds for
// the model's measures (a start between two seconds counts at the next
// one, as the integer-second built-in simulator would have started it),
// with the processors the scheduler gave each job.
func batsimSchedule(ctx context.Context, entry model.PolicyEntry, w *rigid.Workload, v rigid.Variant) (*backfill.Schedule, [][]int, error) {
	seen := w
	if w.Machine != nil {
		var err error
		if seen, err = batsimNodeView(w); err != nil {
			return nil, nil, fmt.Errorf("policy %s: %w", entry.Name, err)
		}
	}
	bs, err := batsim.Simulate(ctx, seen, batsim.Options{Command: entry.Argv, DecisionTimeout: entry.DecisionTimeout,
		WalltimeIsRunTime: v == rigid.EstimateExact})
	if err != nil {
		return nil, nil, err
	}
	const ns = 1_000_000_000
	n := len(w.Jobs)
	sched := &backfill.Schedule{StartSeconds: make([]int64, n), EndSeconds: make([]int64, n)}
	for i := range n {
		sched.StartSeconds[i], sched.EndSeconds[i] = -1, -1
		if s := bs.StartNanos[i]; s >= 0 {
			sched.StartSeconds[i] = (s + ns - 1) / ns
			sched.EndSeconds[i] = sched.StartSeconds[i] + w.Jobs[i].RunSeconds
		}
	}
	sched.Stats.Events = bs.Counts.Requests
	sched.Stats.Passes = bs.Counts.Requests
	resources := bs.Resources
	if w.Machine != nil {
		sched.Nodes = make([][]backfill.NodeShare, n)
		for i := range n {
			if sched.StartSeconds[i] < 0 {
				continue
			}
			if sched.Nodes[i], err = batsimNodeShares(w, i, bs.Resources[i]); err != nil {
				return nil, nil, fmt.Errorf("policy %s: %w", entry.Name, err)
			}
		}
		resources = nil // the nodes are the schedule's
	}
	if err := verify.Rigid(w, v, sched); err != nil {
		return nil, nil, fmt.Errorf("policy %s: the Batsim scheduler's schedule does not fit the rigid model (a rejected job is a job never run): %w", entry.Name, err)
	}
	return sched, resources, nil
}

// pipeOptions runs a manifest's command entry as a pipe-protocol policy:
// the same options for the probe and for every cell (as model/grid's).
func pipeOptions(entry model.PolicyEntry) pipe.Options {
	return pipe.Options{Command: entry.Argv, Name: entry.Name, Params: entry.Params,
		Dir: entry.Dir, DecisionTimeout: entry.DecisionTimeout}
}
