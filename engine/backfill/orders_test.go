package backfill_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// ordersBase is the submit time of the first job of ordersWorkload: F1-F4
// take log₁₀ of the submit time, so far from 0 its differences between
// jobs seconds apart are small beside the jobs' sizes (870·log₁₀(B+s)
// grows by 0.0038 a second at B = 100000, 25600·log₁₀ by 0.111, 530000·log₁₀
// by 2.30 and 6860000·log₁₀ by 29.8), and the four functions differ.
const ordersBase = 100000

// ordersWorkload is the hand-computed case of every queue order: 4
// processors, estimates exact (variant T), times after ordersBase:
//
//	job  submit  n  e
//	J1   0       4  10   runs [0, 10): J2-J6 all wait for it
//	J2   1       2   6
//	J3   2       1   2
//	J4   3       3   4
//	J5   4       1   8
//	J6   5       2   3
//
// No pass runs while J1 holds every processor, so each order first sorts
// the five waiting jobs at 10 (waits 9, 8, 7, 6, 5).
func ordersWorkload() *rigid.Workload {
	w := &rigid.Workload{Name: "orders", Procs: 4}
	for i, r := range [][3]int64{{0, 4, 10}, {1, 2, 6}, {2, 1, 2}, {3, 3, 4}, {4, 1, 8}, {5, 2, 3}} {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(i % 2), SubmitSeconds: ordersBase + r[0],
			Procs: int(r[1]), RunSeconds: r[2], RequestedSeconds: r[2]})
	}
	return w
}

// TestOrders checks each order's schedule of ordersWorkload without
// backfilling (strict), with EASY and with conservative backfilling,
// computed by hand (starts of J2..J6 after ordersBase; J1 starts at 0),
// and the reservation EASY recorded (head job index, shadow), every
// schedule through engine/verify.
//
// The orders at 10 (key, smallest first; ties by submit time):
//
//	fcfs   J2 J3 J4 J5 J6
//	sjf    e: J3 2, J6 3, J4 4, J2 6, J5 8
//	ljf    J5 8, J2 6, J4 4, J6 3, J3 2
//	saf    n·e: J3 2, J6 6, J5 8, J2 12, J4 12 (tie: J2 submitted first)
//	laf    J2 12, J4 12, J5 8, J6 6, J3 2
//	sqf    n: J3 1, J5 1, J2 2, J6 2, J4 3
//	lxf    (w+e)/e: J3 10/2=5, J4 11/4=2.75, J6 8/3=2.67, J2 15/6=2.5, J5 14/8=1.75
//	wfp3   (w/e)³·n: J3 64, J4 16.1, J6 9.26, J2 6.75, J5 0.42: lxf's order
//	unicef w/(log₂n·e): J3, J5 serial (first), J6 5/3=1.67, J2 9/6=1.5, J4 7/(1.585·4)=1.10
//	f1     log₁₀e·n + 0.0038·s: J3 0.31, J5 0.92, J6 0.97, J2 1.56, J4 1.82 (+870·log₁₀B)
//	f2     √e·n + 0.111·s: J3 1.64, J5 3.27, J6 4.02, J2 5.01, J4 6.33: f1's and unicef's order
//	f3     e·n + 29.8·s: J2 41.8, J3 61.6, J4 101, J5 127, J6 155: fcfs's order
//	f4     e·√n + 2.30·s: J3 6.60, J2 10.8, J4 13.8, J6 15.8, J5 17.2
//
// The static orders keep these orders at later passes; lxf and wfp3
// re-sort (below).
func TestOrders(t *testing.T) {
	type want struct {
		strict, easy, conservative []int64
		reservation                []int64 // at, head index, shadow (after ordersBase); nil when EASY backfilled nothing past a head
	}
	tests := []struct {
		order backfill.Order
		want
	}{
		// fcfs, strict: J2, J3 start (free 1), J4 (3) blocks; 16: J2
		// ends, J4, J5 start; 20: J4 ends, J6 starts. EASY: the head J4
		// gets the shadow 16 (J3 ends at 12: 2 free, J2 at 16: 4), 1
		// processor spare then; J5 (1, ends 18) backfills on it; J6 (2)
		// does not fit. Conservative: J4 planned [16, 20), J5 fits [10,
		// 18) beside it, J6 not before 20.
		{backfill.OrderFCFS, want{[]int64{10, 10, 16, 16, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 3, 16}}},
		// sjf, strict: J3, J6 start (free 1), J4 blocks; 13: J6 ends, J4
		// starts, J2 blocks; 17: J2, J5. EASY: shadow of J4 13 (J3 ends
		// 12: 2, J6 13: 4), 1 spare: J2 (2) does not fit now, J5 (1, ends
		// 18) backfills. Conservative: J4 [13, 17), J2 needs 2 for 6 s:
		// 17; J5 fits [10, 18) (1 free throughout).
		{backfill.OrderSJF, want{[]int64{17, 10, 13, 17, 10}, []int64{17, 10, 13, 10, 10}, []int64{17, 10, 13, 10, 10}, []int64{10, 3, 13}}},
		// ljf, strict: J5, J2 start (free 1), J4 blocks; 16: J4; 20: J6,
		// J3 (J6 first, blocked until 20). EASY: J4's shadow 16, no
		// spare; J6 (2) does not fit; J3 (1, ends 12 <= 16) backfills.
		{backfill.OrderLJF, want{[]int64{10, 20, 16, 10, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 3, 16}}},
		// saf: J3, J6, J5 start (free 0), J2 blocks; 13: J6 ends, J2
		// starts, J4 blocks; 19: J2 ends, J4 starts. EASY backfills
		// nothing (the only job behind J2, J4, never fits first), so no
		// reservation is recorded; conservative the same.
		{backfill.OrderSAF, want{[]int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, nil}},
		// laf, strict: J2 (free 2), J4 blocks; 16: J4, J5; 20: J6, J3.
		// EASY: J4's shadow 16 with 1 spare: J5 (ends 18) on the spare,
		// J6 (2) does not fit, J3 (ends 12) backfills.
		{backfill.OrderLAF, want{[]int64{10, 20, 16, 16, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 3, 16}}},
		// sqf: J3, J5, J2 start (free 0), J6 blocks; 16: J2 ends, J6
		// starts, J4 blocks; 19: J6 ends, J4 starts (J5 ended at 18).
		{backfill.OrderSQF, want{[]int64{10, 10, 19, 10, 16}, []int64{10, 10, 19, 10, 16}, []int64{10, 10, 19, 10, 16}, nil}},
		// lxf, strict: J3, J4 start (free 0); 12: J3 ends, re-sorted
		// (J2 17/6=2.83, J5 16/8=2, J6 10/3=3.33): J6 blocks; 14: J4
		// ends (J6 4, J2 3.17, J5 2.25): J6, J2 start, J5 blocks; 17: J5.
		// EASY: at 12 J6's shadow is 14 (J4 ends), 2 spare: J2 does not
		// fit the 1 free, J5 (ends 20) backfills; 14: J6 starts, J2 (2)
		// waits for 17. Conservative at 10 plans J6 [14, 17), J2 [14,
		// 20), J5 17 (0 free in [14, 17)), and keeps the plan at 12.
		{backfill.OrderLXF, want{[]int64{14, 10, 10, 17, 14}, []int64{17, 10, 10, 12, 14}, []int64{14, 10, 10, 17, 14}, []int64{12, 5, 14}}},
		// wfp3 sorts as lxf at every pass (at 12: J6 25.4, J2 12.3, J5
		// 1; at 14: J6 54, J2 20.3, J5 1.95).
		{backfill.OrderWFP3, want{[]int64{14, 10, 10, 17, 14}, []int64{17, 10, 10, 12, 14}, []int64{14, 10, 10, 17, 14}, []int64{12, 5, 14}}},
		// unicef, f1 and f2 sort as J3 J5 J6 J2 J4: J3, J5, J6 start
		// (free 0), J2 blocks; 13: J6 ends, J2 starts, J4 blocks; 19: J4.
		{backfill.OrderUNICEF, want{[]int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, nil}},
		{backfill.OrderF1, want{[]int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, nil}},
		{backfill.OrderF2, want{[]int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, []int64{13, 10, 19, 10, 10}, nil}},
		// f3 is fcfs here.
		{backfill.OrderF3, want{[]int64{10, 10, 16, 16, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 3, 16}}},
		// f4, strict: J3, J2 start (free 1), J4 blocks; 16: J4 (free 1),
		// J6 (2) blocks; 20: J6, J5. EASY: J4's shadow 16, 1 spare: J6
		// does not fit, J5 (ends 18) backfills. Conservative: J4 [16,
		// 20); J6 (2 for 3 s) fits [12, 15) (2 free from 12 to 16); J5
		// (1 for 8 s) not at 10 (0 free in [12, 15)), at 15.
		{backfill.OrderF4, want{[]int64{10, 10, 16, 20, 20}, []int64{10, 10, 16, 10, 20}, []int64{10, 10, 16, 15, 12}, []int64{10, 3, 16}}},
	}
	for _, tt := range tests {
		for _, a := range []struct {
			name       string
			allocation backfill.Allocation
			want       []int64
		}{{"none", backfill.AllocStrict, tt.strict}, {"easy", backfill.AllocEASY, tt.easy}, {"conservative", backfill.AllocConservative, tt.conservative}} {
			w := ordersWorkload()
			sched := simulateOrder(t, w, rigid.EstimateExact, backfill.Policy{Order: tt.order, Allocation: a.allocation})
			got := startsAfter(sched, ordersBase)
			if got[0] != 0 || !slices.Equal(got[1:], a.want) {
				t.Errorf("%s %s: starts %v, want [0 %v]", tt.order, a.name, got, a.want)
			}
			if a.allocation != backfill.AllocEASY {
				continue
			}
			var res []int64
			for _, r := range sched.Reservations {
				res = append(res, r.AtSeconds-ordersBase, int64(r.Head), r.ShadowSeconds-ordersBase)
			}
			if !slices.Equal(res, tt.reservation) {
				t.Errorf("%s easy: reservations %v, want %v", tt.order, res, tt.reservation)
			}
		}
	}
}

// simulateOrder simulates and checks the schedule with engine/verify.
func simulateOrder(t *testing.T, w *rigid.Workload, v rigid.Variant, p backfill.Policy) *backfill.Schedule {
	t.Helper()
	sched, err := backfill.Simulate(context.Background(), w, v, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Rigid(w, v, sched); err != nil {
		t.Fatal(err)
	}
	return sched
}

func startsAfter(sched *backfill.Schedule, base int64) []int64 {
	out := make([]int64, len(sched.StartSeconds))
	for i, s := range sched.StartSeconds {
		out[i] = s - base
	}
	return out
}

func TestParseOrder(t *testing.T) {
	for o := backfill.OrderRelShare; o <= backfill.OrderF4; o++ {
		got, err := backfill.ParseOrder(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v", o, got, err)
		}
	}
	if _, err := backfill.ParseOrder("edf"); err == nil {
		t.Error("ParseOrder(edf) should fail")
	}
}

// TestHeadCommitted: 4 processors; J1 (3 processors, 10 s) starts at 0;
// J2 (2, 5 s) arrives at 1 and does not fit the 1 free; J3 (1, 2 s)
// arrives at 2 and fits. Under sjf the queue re-sorted at 2 puts J3 (e 2)
// before J2 (e 5), so J3 starts at 2 even without backfilling; with the
// head committed, J2, blocked since 1 (no pass ran then: nothing fitted,
// and the first of the order was committed), stays first, so without
// backfilling J3 waits with it for 10, and with EASY J3 backfills at 2
// (it ends at 4, before J2's shadow 10).
func TestHeadCommitted(t *testing.T) {
	w := &rigid.Workload{Name: "committed", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, User: 1, SubmitSeconds: 0, Procs: 3, RunSeconds: 10, RequestedSeconds: 10},
		{Number: 2, User: 1, SubmitSeconds: 1, Procs: 2, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 3, User: 1, SubmitSeconds: 2, Procs: 1, RunSeconds: 2, RequestedSeconds: 2},
	}}
	tests := []struct {
		name string
		p    backfill.Policy
		want []int64
	}{
		{"sjf none reevaluated", backfill.Policy{Order: backfill.OrderSJF, Allocation: backfill.AllocStrict}, []int64{0, 10, 2}},
		{"sjf none committed", backfill.Policy{Order: backfill.OrderSJF, Allocation: backfill.AllocStrict, Head: backfill.HeadCommitted}, []int64{0, 10, 10}},
		{"sjf easy committed", backfill.Policy{Order: backfill.OrderSJF, Head: backfill.HeadCommitted}, []int64{0, 10, 2}},
		{"fcfs none committed", backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict, Head: backfill.HeadCommitted}, []int64{0, 10, 10}},
	}
	for _, tt := range tests {
		if got := simulateOrder(t, w, rigid.EstimateExact, tt.p).StartSeconds; !slices.Equal(got, tt.want) {
			t.Errorf("%s: starts %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestKillNever: J1 (2 processors) requests 10 s and its log says it ran
// 15 s; J2 (4 processors, 4 s) arrives at 1 and waits; J3 (2, 3 s)
// arrives at 12. Killed at its request, J1 ends at 10, J2 runs [10, 14)
// and J3 starts at 14. Never killed, J1 runs to 15: at 12 the head J2's
// shadow is J1's estimated end, under T its logged 15 s, under R its
// request outlived and corrected to 10 + 60 = 70 s
// (rigid.CorrectedSeconds); J3, ending at 15, backfills at 12 either way,
// and J2 starts at 15.
func TestKillNever(t *testing.T) {
	w := &rigid.Workload{Name: "kill", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, User: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 10, RequestedSeconds: 10, LoggedRunSeconds: 15},
		{Number: 2, User: 1, SubmitSeconds: 1, Procs: 4, RunSeconds: 4, RequestedSeconds: 4},
		{Number: 3, User: 2, SubmitSeconds: 12, Procs: 2, RunSeconds: 3, RequestedSeconds: 3},
	}}
	for _, tt := range []struct {
		kill        rigid.Kill
		v           rigid.Variant
		starts      []int64
		j1Ends      int64
		reservation []backfill.Reservation
	}{
		{rigid.KillAtRequest, rigid.EstimateRequested, []int64{0, 10, 14}, 10, nil},
		{rigid.KillNever, rigid.EstimateRequested, []int64{0, 15, 12}, 15, []backfill.Reservation{{AtSeconds: 12, Head: 1, ShadowSeconds: 70}}},
		{rigid.KillNever, rigid.EstimateExact, []int64{0, 15, 12}, 15, []backfill.Reservation{{AtSeconds: 12, Head: 1, ShadowSeconds: 15}}},
	} {
		sched := simulateOrder(t, w, tt.v, backfill.Policy{Order: backfill.OrderFCFS, Kill: tt.kill})
		if !slices.Equal(sched.StartSeconds, tt.starts) || sched.EndSeconds[0] != tt.j1Ends || !slices.Equal(sched.Reservations, tt.reservation) {
			t.Errorf("kill %s %s: starts %v, J1 ends %d, reservations %v; want %v, %d, %v", tt.kill, tt.v, sched.StartSeconds,
				sched.EndSeconds[0], sched.Reservations, tt.starts, tt.j1Ends, tt.reservation)
		}
	}
}

// TestPredicted: 4 processors. User A's J1 (1 processor, runs 4 s) and J2
// (1, 8 s) start at 0 and end at 4 and 8; A's J3 (2 processors, runs 30
// s, requests 100) arrives at 9 and is predicted ⌊(8+4)/2⌋ = 6 s (its
// user's last two run times), so is expected to end at 15. B's J4 (4
// processors, 5 s) arrives at 10 and waits (2 free); no pass runs (nothing
// fits). C's J5 (2 processors, 40 s, no history: predicted its request
// 40) arrives at 16: J3 has outlived its prediction, corrected to 6 + 60
// = 66 s (ending at 75); J4's shadow is 75 with no processor spare, and
// J5, ending at 56 <= 75, backfills at 16. J4 starts when J5 ends, at 56
// (J3 ended at 39). Under T the shadow is J3's true end 39 and J5 (ends
// 56) may not backfill: J4 starts at 39, J5 at 44; under R J3's request
// (ends 109) lets J5 backfill as with the corrected prediction.
func TestPredicted(t *testing.T) {
	w := &rigid.Workload{Name: "predicted", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, User: 1, SubmitSeconds: 0, Procs: 1, RunSeconds: 4, RequestedSeconds: 100},
		{Number: 2, User: 1, SubmitSeconds: 0, Procs: 1, RunSeconds: 8, RequestedSeconds: 100},
		{Number: 3, User: 1, SubmitSeconds: 9, Procs: 2, RunSeconds: 30, RequestedSeconds: 100},
		{Number: 4, User: 2, SubmitSeconds: 10, Procs: 4, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 5, User: 3, SubmitSeconds: 16, Procs: 2, RunSeconds: 40, RequestedSeconds: 40},
	}}
	for _, tt := range []struct {
		v           rigid.Variant
		starts      []int64
		reservation []backfill.Reservation
	}{
		{rigid.EstimatePredicted, []int64{0, 0, 9, 56, 16}, []backfill.Reservation{{AtSeconds: 16, Head: 3, ShadowSeconds: 75}}},
		{rigid.EstimateExact, []int64{0, 0, 9, 39, 44}, nil},
		{rigid.EstimateRequested, []int64{0, 0, 9, 56, 16}, []backfill.Reservation{{AtSeconds: 16, Head: 3, ShadowSeconds: 109}}},
	} {
		sched := simulateOrder(t, w, tt.v, backfill.FCFSEasy())
		if !slices.Equal(sched.StartSeconds, tt.starts) || !slices.Equal(sched.Reservations, tt.reservation) {
			t.Errorf("%s: starts %v, reservations %v; want %v, %v", tt.v, sched.StartSeconds, sched.Reservations, tt.starts, tt.reservation)
		}
	}
	// The validator re-derives the prediction: a shadow of 15, the
	// uncorrected prediction, is a broken promise (J3 holds its 2
	// processors past it, and J5 started on the other 2).
	sched := simulateOrder(t, w, rigid.EstimatePredicted, backfill.FCFSEasy())
	if len(sched.Reservations) != 1 {
		t.Fatalf("predicted: reservations %v, want one", sched.Reservations)
	}
	sched.Reservations[0].ShadowSeconds = 15
	if err := verify.Rigid(w, rigid.EstimatePredicted, sched); err == nil {
		t.Error("a shadow at J3's uncorrected predicted end passed the validator")
	}
}

// TestOrdersVerified runs every order with each backfilling, head rule
// and estimate variant on the first 500 jobs of the synthetic month
// (about a week; requests 1-5 times the run time) and has engine/verify
// check each schedule, EASY's reservations included; with kill never a
// tenth of the jobs run past their requests (logged 1.5 times the
// request).
func TestOrdersVerified(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 14 orders x 3 allocations x 3 variants x 2 head rules")
	}
	w := syntheticMonth()
	w.Jobs = w.Jobs[:500]
	overrun := syntheticMonth()
	overrun.Jobs = overrun.Jobs[:500]
	for i := range overrun.Jobs {
		if j := &overrun.Jobs[i]; i%10 == 0 {
			j.RunSeconds = j.RequestedSeconds
			j.LoggedRunSeconds = j.RequestedSeconds * 3 / 2
		}
	}
	reservations := 0
	for o := backfill.OrderRelShare; o <= backfill.OrderF4; o++ {
		for _, a := range []backfill.Allocation{backfill.AllocStrict, backfill.AllocEASY, backfill.AllocConservative} {
			for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested, rigid.EstimatePredicted} {
				for _, h := range []backfill.Head{backfill.HeadReevaluated, backfill.HeadCommitted} {
					p := backfill.Policy{Order: o, Allocation: a, Head: h}
					reservations += len(simulateOrder(t, w, v, p).Reservations)
					if o == backfill.OrderSJF && h == backfill.HeadReevaluated {
						p.Kill = rigid.KillNever
						simulateOrder(t, overrun, v, p)
					}
				}
			}
		}
	}
	if reservations == 0 {
		t.Error("no EASY reservation was checked")
	}
}
