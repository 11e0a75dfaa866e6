package rigid

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/policy/batsim"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The modelling options of the EASY policies (fcfs-easy, relshare), as
// policy parameters: {name: fcfs-easy, params: {placement: contiguous,
// pass: per-event}} is pybatsim 3.2.1's easyBackfill job for job
// (docs/batsim.md). Their defaults are the rigid model as the design note
// fixes it.
const (
	ParamPlacement = "placement"
	ParamPass      = "pass"
)

// easyParams are the parameters of the policies that backfill with EASY.
var easyParams = []model.Param{
	{Name: ParamPlacement, Default: backfill.PlaceProcessors.String(),
		Doc: "processors (a job fits when enough processors are free) or contiguous (blocks of consecutive resource ids, chosen as pybatsim's easyBackfill; EASY only)"},
	{Name: ParamPass, Default: backfill.PassPerInstant.String(),
		Doc: "per-instant (one scheduling pass after all events of an instant) or per-event (one after each completion and arrival, as pybatsim's schedulers)"},
}

// takesEASYParams reports whether a built-in policy takes easyParams.
func takesEASYParams(policy string) bool { return policy == PolicyFCFSEasy || policy == PolicyRelShare }

// CheckParams checks the modelling options of fcfs-easy and relshare
// (contiguous placement needs relshare's backfill to be easy); the
// parameters of the model's own policies go to their New unchecked.
func (m Model) CheckParams(settings model.Settings, policy string, params map[string]string) (map[string]string, error) {
	if !takesEASYParams(policy) {
		return params, nil
	}
	p, err := settings.(Settings).PolicyWith(policy, params)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if p.Placement != backfill.PlaceProcessors {
		out[ParamPlacement] = p.Placement.String()
	}
	if p.Pass != backfill.PassPerInstant {
		out[ParamPass] = p.Pass.String()
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
	if !takesEASYParams(name) {
		return p, fmt.Errorf("policy %q takes no parameters; got %s", name, strings.Join(slices.Sorted(maps.Keys(params)), ", "))
	}
	var err error
	for _, k := range slices.Sorted(maps.Keys(params)) {
		switch k {
		case ParamPlacement:
			p.Placement, err = backfill.ParsePlacement(params[k])
		case ParamPass:
			p.Pass, err = backfill.ParsePass(params[k])
		default:
			err = fmt.Errorf("policy %q takes no parameter %q; valid parameters: %s, %s", name, k, ParamPlacement, ParamPass)
		}
		if err != nil {
			return p, err
		}
	}
	if p.Placement == backfill.PlaceContiguous && p.Allocation != backfill.AllocEASY {
		return p, fmt.Errorf("placement contiguous is for EASY backfilling, and the manifest sets backfill: conservative; drop one or the other")
	}
	return p, nil
}

// builtinSchedule simulates w under a built-in policy with its
// parameters; a schedule with contiguous placement names its resource
// ids and goes through the resource-id validator.
func builtinSchedule(ctx context.Context, w *rigid.Workload, v rigid.Variant, s Settings, policy string, params map[string]string) (*backfill.Schedule, error) {
	p, err := s.PolicyWith(policy, params)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", policy, err)
	}
	sched, err := backfill.Simulate(ctx, w, v, p)
	if err != nil || sched.FirstResource == nil {
		return sched, err
	}
	plan := sched.ResourceSchedule(w)
	// mustDecide 0: Simulate returns only once every job that must start
	// has; the check is of the ids.
	if err := placement.Check(w.Procs, batsim.Jobs(w), 0, &plan); err != nil {
		return nil, fmt.Errorf("policy %s: invalid placement: %w", policy, err)
	}
	return sched, nil
}
