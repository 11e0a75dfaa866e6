package rigid

import (
	"context"
	"maps"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

func settings(t *testing.T, section string) Settings {
	t.Helper()
	var node *yaml.Node
	if section != "" {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(section), &doc); err != nil {
			t.Fatal(err)
		}
		node = doc.Content[0]
	}
	s, err := Model{}.ParseSettings(node)
	if err != nil {
		t.Fatal(err)
	}
	return s.(Settings)
}

// The EASY policies' modelling options reach the simulator: on the
// hand-made trace of contiguity (engine/backfill's contiguousCases, 4
// processors: jobs 0-3 on one each, jobs 1 and 3 end at 2), job 4 of 2
// processors starts at 2 counting processors, at 10 on consecutive ids.
func TestEASYOptionsReachTheSimulator(t *testing.T) {
	w := &rigid.Workload{Name: "contiguous", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, Procs: 1, RunSeconds: 10, RequestedSeconds: 10}, {Number: 2, Procs: 1, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 3, Procs: 1, RunSeconds: 10, RequestedSeconds: 10}, {Number: 4, Procs: 1, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 5, SubmitSeconds: 2, Procs: 2, RunSeconds: 5, RequestedSeconds: 5}}}
	s := settings(t, "")
	for _, c := range []struct {
		policy string
		params map[string]string
		want   int64
	}{
		{PolicyFCFSEasy, nil, 2},
		{PolicyFCFSEasy, map[string]string{ParamPlacement: "contiguous"}, 10},
		{PolicyFCFSEasy, map[string]string{ParamPlacement: "contiguous", ParamPass: "per-event"}, 10},
		{PolicyRelShare, map[string]string{ParamPlacement: "contiguous"}, 10},
		{PolicyRelShare, map[string]string{ParamPass: "per-event"}, 2},
	} {
		sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, s, c.policy, c.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := sched.StartSeconds[4]; got != c.want {
			t.Errorf("%s %v: job 4 starts at %d, want %d", c.policy, c.params, got, c.want)
		}
	}
	// The library's orders: with processors counted, job 4 starts at 2
	// under FCFS with conservative backfilling or none (it is the only
	// job waiting, and 2 processors are free then). With
	// placement contiguous, sqf (every job 1 processor: ties in submit
	// order) places jobs 0-3 on ids 0-3 as fcfs-easy does and job 4 waits
	// for 10; ljf starts the 10 s jobs 0 and 2 first, on ids 0 and 1, so
	// jobs 1 and 3 free ids 2 and 3 together at 2.
	for _, c := range []struct {
		policy string
		params map[string]string
		want   int64
	}{
		{PolicyFCFSConservative, nil, 2},
		{PolicyFCFSNone, nil, 2},
		{"sqf", map[string]string{ParamPlacement: "contiguous"}, 10},
		{"ljf", map[string]string{ParamPlacement: "contiguous"}, 2},
		{"sjf", map[string]string{ParamBackfill: "conservative", ParamHead: "committed"}, 2},
	} {
		sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, s, c.policy, c.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := sched.StartSeconds[4]; got != c.want {
			t.Errorf("%s %v: job 4 starts at %d, want %d", c.policy, c.params, got, c.want)
		}
	}
	// Conservative backfilling takes per-event passes too.
	sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, settings(t, "backfill: conservative"), PolicyRelShare, map[string]string{ParamPass: "per-event"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sched.StartSeconds[4]; got != 2 {
		t.Errorf("relshare, conservative, per event: job 4 starts at %d, want 2", got)
	}
}

// Bad values, and contiguous placement with conservative backfilling, are
// refused naming what would do; defaults written out are dropped, so
// they keep the plain policy's cells.
func TestCheckParams(t *testing.T) {
	easy, conservative := settings(t, ""), settings(t, "backfill: conservative")
	for _, c := range []struct {
		s       Settings
		policy  string
		params  map[string]string
		want    map[string]string
		wantErr string
	}{
		{easy, PolicyFCFSEasy, map[string]string{"placement": "processors", "pass": "per-instant"}, map[string]string{}, ""},
		{easy, PolicyFCFSEasy, map[string]string{"placement": "contiguous", "pass": "per-event"}, map[string]string{"placement": "contiguous", "pass": "per-event"}, ""},
		{easy, PolicyFCFSEasy, map[string]string{"placement": "scattered"}, nil, `placement "scattered": want processors`},
		{easy, PolicyRelShare, map[string]string{"pass": "per-second"}, nil, `pass "per-second": want per-instant`},
		{conservative, PolicyRelShare, map[string]string{"placement": "contiguous"}, nil, "backfill: conservative"},
		{conservative, PolicyRelShare, map[string]string{"pass": "per-event"}, map[string]string{"pass": "per-event"}, ""},
		// The library's orders: defaults dropped, the rest kept; relshare's
		// backfill defaults to the section's.
		{easy, "sjf", map[string]string{"backfill": "easy", "head": "reevaluated", "kill": "request"}, map[string]string{}, ""},
		{easy, "f1", map[string]string{"backfill": "none", "head": "committed", "kill": "never"}, map[string]string{"backfill": "none", "head": "committed", "kill": "never"}, ""},
		{conservative, PolicyRelShare, map[string]string{"backfill": "conservative"}, map[string]string{}, ""},
		{easy, PolicyRelShare, map[string]string{"backfill": "conservative"}, map[string]string{"backfill": "conservative"}, ""},
		{easy, "wfp3", map[string]string{"backfill": "conservative", "placement": "contiguous"}, nil, "placement contiguous is for EASY backfilling, and the policy has backfill: conservative"},
		{easy, "lxf", map[string]string{"backfill": "some"}, nil, `backfill "some": want none, easy or conservative`},
		{easy, PolicyFCFSEasy, map[string]string{"backfill": "none"}, nil, `policy "fcfs-easy" takes no parameter "backfill"; valid parameters: placement, pass, head, kill`},
		{easy, PolicyFCFSNone, map[string]string{"head": "committed", "kill": "request"}, map[string]string{"head": "committed"}, ""},
		{easy, "unicef", map[string]string{"head": "sticky"}, nil, `head "sticky": want reevaluated`},
		{easy, "saf", map[string]string{"kill": "walltime"}, nil, `kill "walltime": want request`},
	} {
		got, err := Model{}.CheckParams(c.s, c.policy, c.params)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %v: error %v, want one saying %q", c.policy, c.params, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", c.policy, c.params, err)
			continue
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("%s %v: kept %v, want %v", c.policy, c.params, got, c.want)
		}
	}
}

// Contiguous placement copies pybatsim's easyBackfill, which breaks its
// promise on the hand-made trace "inside the reservation"
// (engine/backfill's contiguousCases, 5 processors): at 2 the head (5
// processors) is promised 100, and the 1000 s job started on id 2, freed
// at 1 inside the reservation, holds it to 1002. builtinSchedule checks
// such a schedule without its reservations; the same schedule with them
// fails engine/verify.
func TestContiguousReservationNotAPromise(t *testing.T) {
	w := &rigid.Workload{Name: "inside the reservation", Procs: 5}
	for i, j := range []rigid.Job{
		{Procs: 1, RunSeconds: 10}, {Procs: 1, RunSeconds: 100}, {Procs: 1, RunSeconds: 1, RequestedSeconds: 10},
		{Procs: 1, RunSeconds: 100}, {Procs: 1, RunSeconds: 10},
		{SubmitSeconds: 2, Procs: 5, RunSeconds: 10}, {SubmitSeconds: 2, Procs: 1, RunSeconds: 1000}} {
		j.Number = int64(i + 1)
		j.RequestedSeconds = max(j.RequestedSeconds, j.RunSeconds)
		w.Jobs = append(w.Jobs, j)
	}
	sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, settings(t, ""), PolicyFCFSEasy,
		map[string]string{ParamPlacement: "contiguous", ParamPass: "per-event"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sched.StartSeconds[5]; got != 1002 {
		t.Errorf("the head starts at %d, want pybatsim's 1002", got)
	}
	if err := verify.Rigid(w, rigid.EstimateRequested, sched); err == nil || !strings.Contains(err.Error(), "cannot start at its shadow time") {
		t.Errorf("the schedule with its reservations: %v, want a broken reservation", err)
	}
}

// Every queue order of engine/backfill but RelShare and FCFS is a policy
// of the model under its own name, with EASY by default and the
// parameters backfill, placement, pass, head and kill; FCFS is fcfs-easy,
// fcfs-none and fcfs-conservative.
func TestPolicyTable(t *testing.T) {
	table := map[string][]string{}
	for _, p := range (Model{}).Policies() {
		for _, q := range p.Params {
			table[p.Name] = append(table[p.Name], q.Name)
		}
		if _, ok := table[p.Name]; !ok {
			table[p.Name] = nil
		}
	}
	s := settings(t, "")
	for o := backfill.OrderSJF; o <= backfill.OrderF4; o++ {
		params, ok := table[o.String()]
		if !ok {
			t.Errorf("order %s is no policy of the model", o)
			continue
		}
		if got := strings.Join(params, ","); got != "backfill,placement,pass,head,kill,nodes" {
			t.Errorf("%s takes %s", o, got)
		}
		if p := s.Policy(o.String()); p.Order != o || p.Allocation != backfill.AllocEASY {
			t.Errorf("%s runs order %s with allocation %d, want EASY", o, p.Order, p.Allocation)
		}
	}
	for name, want := range map[string]backfill.Allocation{PolicyFCFSEasy: backfill.AllocEASY, PolicyFCFSNone: backfill.AllocStrict, PolicyFCFSConservative: backfill.AllocConservative} {
		if p := s.Policy(name); p.Order != backfill.OrderFCFS || p.Allocation != want {
			t.Errorf("%s runs order %s with allocation %d, want fcfs with %d", name, p.Order, p.Allocation, want)
		}
	}
}

// The manifest policies fcfs, sjf and f1 with backfill: none, head:
// committed, kill: never are the engine policies that reproduce
// RLScheduler's table job for job (engine/backfill/rlscheduler_test.go);
// fcfs without parameters is fcfs-easy.
func TestRLSchedulerPolicies(t *testing.T) {
	s := settings(t, "")
	rl := map[string]string{"backfill": "none", "head": "committed", "kill": "never"}
	for name, order := range map[string]backfill.Order{"fcfs": backfill.OrderFCFS, "sjf": backfill.OrderSJF, "f1": backfill.OrderF1} {
		got, err := s.PolicyWith(name, rl)
		want := backfill.Policy{Order: order, Allocation: backfill.AllocStrict, Head: backfill.HeadCommitted, Kill: rigid.KillNever}
		if err != nil || got != want {
			t.Errorf("%s %v: %+v %v, want %+v", name, rl, got, err, want)
		}
	}
	if got, err := s.PolicyWith("fcfs", nil); err != nil || got != backfill.FCFSEasy() {
		t.Errorf("fcfs: %+v %v, want fcfs-easy's %+v", got, err, backfill.FCFSEasy())
	}
}
