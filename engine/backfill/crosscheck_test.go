package backfill_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// crossCheckTrace is a small trace of ours for the cross-checks of issue
// 26 (docs/fidelity.md, "Cross-checks"), N = 4 processors, times in hours
// (user, submit, n, requested, actual):
//
//	J1 A 0 2 4 2   ends at 2, half its request (the estimate over-runs the job)
//	J2 B 0 3 3 3   wider than the 2 processors J1 leaves free at 0
//	J3 C 0 1 2 2   ends exactly at its request (a job killed at its request)
//	J4 D 1 2 2 1   ends at half its request
//	J5 A 1 4 1 1   the whole machine
//	J6 B 2 1 6 6   long and narrow: backfills only if it delays nobody protected
//
// J1-J3, J4-J5 and J6 alone share submit times: FCFS breaks the ties by
// SWF job number. A job never runs past its request: the SWF reader
// clamps the run time to it (design note fairshare.md section 1) and
// rigid.Workload.Validate refuses a job that would (see the last case).
func crossCheckTrace() *rigid.Workload {
	return exampleWorkload(4, []row{
		{"A", 0, 2, 4, 2}, {"B", 0, 3, 3, 3}, {"C", 0, 1, 2, 2},
		{"D", 1, 2, 2, 1}, {"A", 1, 4, 1, 1}, {"B", 2, 1, 6, 6},
	})
}

// TestConservativeBackfillingByHand checks conservative and EASY
// backfilling (FCFS order) against schedules computed by hand, pass by
// pass. Conservative backfilling plans every waiting job, in order, at
// the earliest time its processors are free for its estimate in the
// profile of the running jobs (until start + estimate) and of the jobs
// planned before it, and starts those planned now; the plan is rebuilt at
// every decision point, so a job that ends early moves the plan forward.
//
// Conservative, variant R (estimates = requests):
//
//	t=0  free 4. Plan: J1 0 ([0,4) 2 free), J2 needs 3: 4 ([4,7) 1 free),
//	     J3 0 (fits the 2 free until 2). Start J1, J3.
//	t=1  J4, J5 arrive; 1 free, no waiting job fits: no pass.
//	t=2  J1 (2 h early) and J3 end; J6 arrives; free 4. Plan from now:
//	     J2 2 ([2,5) 1 free); J4 5 ([5,7) 2 free); J5 7 ([7,8) 0 free);
//	     J6 (1 for 6 h): [2,5) and [5,7) have room but [7,8) none, so 8.
//	     Start J2 (moved up from 4 to 2).
//	t=5  J2 ends. Plan: J4 5, J5 7, J6 8 (same collision at [7,8)).
//	     Start J4.
//	t=6  J4 ends (1 h early). Plan: J5 6 (compressed from 7), J6 7.
//	     Start J5.
//	t=7  J5 ends. Start J6.
//
// EASY protects only the head of the queue, so J6 delays J5:
//
//	t=0  J1 starts; head J2 (3): shadow 4 (J1's estimated end), extra
//	     2 + 2 - 3 = 1; J3 ends by 2 <= 4: starts.
//	t=2  J2 starts (free 1); head J4 (2): shadow 5 (J2's end), extra
//	     1 + 3 - 2 = 2; J5 does not fit; J6 ends at 8 > 5 but 1 <= extra:
//	     starts (extra 1, free 0).
//	t=5  J2 ends, free 3: J4 starts; head J5 (4): J4 ends by 7 (2 + 1 =
//	     3 free), J6 by 8 (4 free): shadow 8, extra 0.
//	t=6  J4 ends, 3 free: J5 does not fit.
//	t=8  J6 ends: J5 starts.
//
// With exact estimates (variant T) conservative backfilling gives the
// same starts: J2 is planned at 2 from the start (J1 ends at 2), J4 at 5,
// J5 at 6, J6 at 7 ([6,7) is J5's).
func TestConservativeBackfillingByHand(t *testing.T) {
	conservative := backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocConservative}
	tests := []struct {
		name    string
		variant rigid.Variant
		policy  backfill.Policy
		starts  []int64 // hours, by job number
	}{
		{"conservative R", rigid.EstimateRequested, conservative, []int64{0, 2, 0, 5, 6, 7}},
		{"conservative T", rigid.EstimateExact, conservative, []int64{0, 2, 0, 5, 6, 7}},
		{"easy R", rigid.EstimateRequested, backfill.FCFSEasy(), []int64{0, 2, 0, 5, 8, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := simulate(t, crossCheckTrace(), tt.variant, tt.policy); !slices.Equal(got, tt.starts) {
				t.Errorf("starts (h) by job = %v, want %v", got, tt.starts)
			}
		})
	}
	t.Run("run past the request", func(t *testing.T) {
		w := crossCheckTrace()
		w.Jobs[0].RunSeconds = w.Jobs[0].RequestedSeconds + 1
		_, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, conservative)
		if err == nil || !strings.Contains(err.Error(), "requested time") {
			t.Errorf("a job running past its request: error %v, want one naming the requested time", err)
		}
	})
}

// TestTradeoffFSByHand runs Tradeoff-fs (Tw = 1 h, alpha 1 per hour,
// objective alpha E + A) through a whole simulation whose every decision
// point is computed by hand (design note fairshare.md section 4). N = 2,
// variant T, times in hours (user, submit, n, run):
//
//	J1 A 0 2 2;  J2 B 1 1 3;  J3 C 1 2 1;  J4 A 1 1 1
//
// t=0  J1 alone: one path, starts at 0 (1 placement).
// t=1  J2-J4 arrive, nothing free: no decision.
// t=2  J1 ends. Usage today: A 2 x 2 = 4 processor-hours, B and C 0, so
//
//	the RelShare order is J2, J3, J4 (B and C tie at 0: job order).
//	Paths in DDS order over (J2, J3, J4) = (1, 2, 3), with earliest-fit
//	starts, waits w from submit, E = sum of max(0, w - 1) and
//	X = (w + e) / e:
//	123: J2 2, J3 5, J4 2; w 1, 4, 1; E 3; X 4/3 + 5 + 2; score 3 + 25/9
//	213: J3 2, J2 3, J4 3; w 1, 2, 2; E 2; X 2 + 5/3 + 3; score 2 + 20/9
//	312: J4 2, J2 2, J3 5; as 123
//	132: as 123
//	231: J3 2, J4 3, J2 3; as 213 (a tie: the incumbent stays)
//	321: J4 2, J3 3, J2 4; w 1, 2, 3; E 3; X 2 + 3 + 2; score 3 + 7/3
//	213 wins (4.22): J3 starts now. 18 placements: 3 (iteration 0) +
//	2 x 3 (iteration 1) + 3 x 3 (iteration 2).
//
// t=3  J3 ends. Usage: A 4, C 2, B 0: order J2, J4. Both paths start
//
//	both now (4 placements, 2 paths).
//
// RelShare with EASY instead starts J2 at 2 (free 1, head J3 with
// shadow 5) and backfills J4 (ends at 3 <= 5): J3 waits until 5.
func TestTradeoffFSByHand(t *testing.T) {
	w := exampleWorkload(2, []row{
		{"A", 0, 2, 2, 2}, {"B", 1, 1, 3, 3}, {"C", 1, 2, 1, 1}, {"A", 1, 1, 1, 1},
	})
	tradeoff := backfill.Policy{Order: backfill.OrderRelShare, Planner: &backfill.Tradeoff{
		TwSeconds: hour, AlphaPerHour: 1, BudgetPlacements: backfill.DefaultBudgetPlacements}}
	if got, want := simulate(t, w, rigid.EstimateExact, tradeoff), []int64{0, 3, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("tradeoff-fs starts (h) by job = %v, want %v", got, want)
	}
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, tradeoff)
	if err != nil {
		t.Fatal(err)
	}
	if st := sched.Stats; st.Plans != 3 || st.Paths != 1+6+2 || st.Placements != 1+18+4 || st.BudgetExhausted != 0 {
		t.Errorf("stats %+v: want 3 plans, 9 paths, 23 placements, budget never exhausted", st)
	}
	if got, want := simulate(t, w, rigid.EstimateExact, backfill.RelShare()), []int64{0, 2, 5, 2}; !slices.Equal(got, want) {
		t.Errorf("relshare starts (h) by job = %v, want %v", got, want)
	}
}
