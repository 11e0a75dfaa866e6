package rigid

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/policy/batsim"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The parameters of the queue-order policies (the standard library,
// fcfs-easy and relshare), each a choice on which simulators differ:
// {name: fcfs-easy, params: {placement: contiguous, pass: per-event}} is
// pybatsim 3.2.1's easyBackfill job for job (docs/batsim.md); {name: sjf,
// params: {backfill: none, head: committed, kill: never}} is RLScheduler's
// environment. Their defaults are the rigid model as the design note
// fixes it.
const (
	ParamPlacement = "placement"
	ParamPass      = "pass"
	ParamBackfill  = "backfill"
	ParamHead      = "head"
	ParamKill      = "kill"
	// ParamNodes and ParamCharge apply on platforms of nodes only.
	ParamNodes  = "nodes"
	ParamCharge = "charge"
)

var (
	placementParam = model.Param{Name: ParamPlacement, Default: backfill.PlaceProcessors.String(),
		Doc: "processors (a job fits when enough processors are free) or contiguous (blocks of consecutive resource ids, chosen as pybatsim's easyBackfill; EASY only)"}
	passParam = model.Param{Name: ParamPass, Default: backfill.PassPerInstant.String(),
		Doc: "per-instant (one scheduling pass after all events of an instant) or per-event (one after each completion and arrival, as pybatsim's schedulers)"}
	backfillParam = model.Param{Name: ParamBackfill, Default: "easy",
		Doc: "none (start from the head while jobs fit), easy (reserve the blocked head, backfill the rest; Lifka) or conservative (every waiting job reserved in order)"}
	headParam = model.Param{Name: ParamHead, Default: backfill.HeadReevaluated.String(),
		Doc: "reevaluated (the queue re-sorted at every decision point) or committed (a blocked head stays the head until it starts, as RLScheduler's environment)"}
	nodesParam = model.Param{Name: ParamNodes, Default: backfill.SelectFirstFit.String(),
		Doc: "on a platform of nodes: first-fit (the fitting nodes of lowest id) or best-fit (the nodes a job leaves least free)"}
	chargeParam = model.Param{Name: ParamCharge, Default: backfill.ChargeCores.String(),
		Doc: "on a platform of nodes, what RelShare charges a user: cores (held), dominant (the dominant share of cores, memory and GPUs) or billing:CORE:GIB:GPU (Slurm's billing weights per core, GiB and GPU)"}
	killParam = model.Param{Name: ParamKill, Default: rigid.KillAtRequest.String(),
		Doc: "request (a job is killed at its requested time) or never (it runs the time its log recorded; a request it outlives is extended as predictions are)"}
)

// backfillNames name the allocation rules as the backfill parameter does.
var backfillNames = map[backfill.Allocation]string{
	backfill.AllocStrict: "none", backfill.AllocEASY: "easy", backfill.AllocConservative: "conservative",
}

// paramsOf returns the parameters a built-in policy takes: relshare's
// backfill defaults to the rigid section's, the FCFS policies' is fixed
// by their names (contiguous placement is EASY's), Tradeoff-fs takes
// none.
func paramsOf(policy string) []model.Param {
	switch policy {
	case PolicyFCFSEasy:
		return []model.Param{placementParam, passParam, headParam, killParam, nodesParam}
	case PolicyFCFSNone, PolicyFCFSConservative:
		return []model.Param{passParam, headParam, killParam, nodesParam}
	}
	switch {
	case policy == PolicyRelShare:
		b := backfillParam
		b.Default = "the rigid section's backfill (easy unless set)"
		return []model.Param{b, placementParam, passParam, headParam, killParam, nodesParam, chargeParam}
	case isOrderPolicy(policy):
		return []model.Param{backfillParam, placementParam, passParam, headParam, killParam, nodesParam}
	}
	return nil
}

// CheckParams checks the parameters of the queue-order policies against
// the settings (contiguous placement needs EASY backfilling) and returns
// those that differ from the policy's defaults; the parameters of the
// model's own policies go to their New unchecked.
func (m Model) CheckParams(settings model.Settings, policy string, params map[string]string) (map[string]string, error) {
	if paramsOf(policy) == nil {
		return params, nil
	}
	s := settings.(Settings)
	p, err := s.PolicyWith(policy, params)
	if err != nil {
		return nil, err
	}
	base := s.Policy(policy)
	out := map[string]string{}
	if p.Allocation != base.Allocation {
		out[ParamBackfill] = backfillNames[p.Allocation]
	}
	if p.Placement != base.Placement {
		out[ParamPlacement] = p.Placement.String()
	}
	if p.Pass != base.Pass {
		out[ParamPass] = p.Pass.String()
	}
	if p.Head != base.Head {
		out[ParamHead] = p.Head.String()
	}
	if p.Kill != base.Kill {
		out[ParamKill] = p.Kill.String()
	}
	if p.Nodes != base.Nodes {
		out[ParamNodes] = p.Nodes.String()
	}
	if p.Charge != base.Charge {
		out[ParamCharge] = params[ParamCharge] // billing's weights as given
	}
	return out, nil
}

// PolicyWith returns the backfill policy a cell's policy name and
// parameters stand for.
func (s Settings) PolicyWith(name string, params map[string]string) (backfill.Policy, error) {
	p := s.Policy(name)
	if len(params) == 0 {
		return p, nil
	}
	takes := paramsOf(name)
	if takes == nil {
		return p, fmt.Errorf("policy %q takes no parameters; got %s", name, strings.Join(slices.Sorted(maps.Keys(params)), ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if !slices.ContainsFunc(takes, func(q model.Param) bool { return q.Name == k }) {
			var names []string
			for _, q := range takes {
				names = append(names, q.Name)
			}
			return p, fmt.Errorf("policy %q takes no parameter %q; valid parameters: %s", name, k, strings.Join(names, ", "))
		}
		if err := setParam(&p, k, params[k]); err != nil {
			return p, err
		}
	}
	if p.Placement == backfill.PlaceContiguous && p.Allocation != backfill.AllocEASY {
		return p, fmt.Errorf("placement contiguous is for EASY backfilling, and the policy has backfill: %s; drop one or the other", backfillNames[p.Allocation])
	}
	return p, nil
}

// setParam sets one parameter of a queue-order policy.
func setParam(p *backfill.Policy, name, value string) error {
	var err error
	switch name {
	case ParamPlacement:
		p.Placement, err = backfill.ParsePlacement(value)
	case ParamPass:
		p.Pass, err = backfill.ParsePass(value)
	case ParamHead:
		p.Head, err = backfill.ParseHead(value)
	case ParamKill:
		p.Kill, err = rigid.ParseKill(value)
	case ParamNodes:
		p.Nodes, err = backfill.ParseNodeSelection(value)
	case ParamCharge:
		p.Charge, p.Billing, err = backfill.ParseChargeRule(value)
	case ParamBackfill:
		for a, n := range backfillNames {
			if n == value {
				p.Allocation = a
				return nil
			}
		}
		err = fmt.Errorf("backfill %q: want none, easy or conservative", value)
	}
	return err
}

// builtinSchedule simulates w under a built-in policy with its
// parameters and checks the schedule with engine/verify (every EASY
// reservation included, whatever the order, but for contiguous placement,
// which copies pybatsim's broken promises); a schedule with contiguous
// placement names its resource ids and goes through the resource-id
// validator too.
func builtinSchedule(ctx context.Context, w *rigid.Workload, v rigid.Variant, s Settings, policy string, params map[string]string) (*backfill.Schedule, error) {
	p, err := s.PolicyWith(policy, params)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", policy, err)
	}
	sched, err := backfill.Simulate(ctx, w, v, p)
	if err != nil {
		return nil, err
	}
	checked := sched
	if p.Placement == backfill.PlaceContiguous {
		// pybatsim's easyBackfill, which contiguous placement follows,
		// lets a long job start in a free block inside the reservation
		// and delay the head (docs/batsim.md): its reservations are not
		// promises, and only the runs and capacity are checked.
		c := *sched
		c.Reservations = nil
		checked = &c
	}
	if err := verify.Rigid(w, v, checked); err != nil {
		return nil, fmt.Errorf("policy %s: invalid schedule: %w", policy, err)
	}
	if sched.FirstResource == nil {
		return sched, nil
	}
	plan := sched.ResourceSchedule(w)
	// mustDecide 0: Simulate returns only once every job that must start
	// has; the check is of the ids.
	if err := placement.Check(w.Procs, batsim.Jobs(w), 0, &plan); err != nil {
		return nil, fmt.Errorf("policy %s: invalid placement: %w", policy, err)
	}
	return sched, nil
}
