package campaign_test

import (
	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"slices"
	"testing"

	wc "github.com/sweep-sched/sweep/workload/campaign"
)

// TestOstrichByHand follows seed 000 Sec. IV's algorithm step by step on
// a workload of ours (issue 26's cross-check; docs/fidelity.md): m = 2,
// closed loop with no think time, jobs in ticks.
//
//	a1 (user A, submit 0): jobs 4, 2   W 6     a2 (A, after a1): job 1
//	b1 (user B, submit 0): jobs 1, 1   W 2     b2 (B, after b1): job 1
//	c1 (user C, submit 1): job 3       W 3
//
// Virtual schedule (each active user served m/k per tick; C = now +
// k x left / m):
//
//	[0, 1)   k 2, rate 1: a1 6 -> 5, b1 2 -> 1. C(a1) 6, C(b1) 2.
//	1        c1 arrives: k 3, rate 2/3. C(a1) = 1 + 3 x 5/2 = 8.5,
//	         C(b1) = 1 + 3/2 = 2.5, C(c1) = 1 + 9/2 = 5.5. b2, submitted at 1
//	         when b1 completes in the real schedule, starts virtually at
//	         C(b1) = 2.5.
//	[1, 2.5) a1 5 -> 4, b1 1 -> 0, c1 3 -> 2. At 2.5 b2 starts (k stays
//	         3): C(b2) = 2.5 + 3/2 = 4, C(c1) = 2.5 + 3 = 5.5, C(a1) = 8.5.
//	[2.5, 4) at 4 b2 completes: a1 3 left, c1 1; k 2: C(c1) 5, C(a1) 7.
//	[4, 5)   at 5 c1 completes: a1 2 left, alone at rate 2: C(a1) = 6.
//
// Real schedule, whenever a processor is free: the next job (shortest
// first) of the campaign with the earliest virtual completion.
//
// hold: virtual-start (b2 may not start before 2.5, i.e. tick 3):
//
//	0  b1 (2 < 6): both its jobs, 0-1.
//	1  b1 completes, b2 is held; c1 (5.5 < 8.5): job 3, 1-4; a1: job 2, 1-3.
//	3  b2 (4 < 8.5): job 1, 3-4.
//	4  c1 and b2 complete: a1's job 4, 4-8.
//	8  a1 completes, a2 submitted (its virtual start max(8, 6) = 8): 8-9.
//
// hold: none (work conserving): at 1 b2 ranks first (4): 1-2, and c1's
// job 3, 1-4; at 2 a1's job 2, 2-4; at 4 a1's job 4, 4-8; a2 8-9.
//
// Campaign stretch = (completion - submit) / max(W/m, pmax): a1 8/4 = 2,
// a2 1, b1 1, c1 3/3 = 1; b2 (4 - 1)/1 = 3 held, 1/1 = 1 not held. The
// hold is what a short campaign behind its own user's slower virtual
// schedule pays (docs/fidelity.md, seed 001).
func TestOstrichByHand(t *testing.T) {
	w := &wc.Workload{
		Users: []wc.User{{ID: "A"}, {ID: "B"}, {ID: "C"}},
		Campaigns: []wc.Campaign{
			{User: 0, SubmitTicks: 0, Jobs: jobsOf(4, 2)}, // a1: jobs 0, 1
			{User: 0, SubmitTicks: 0, Jobs: jobsOf(1)},    // a2: job 2
			{User: 1, SubmitTicks: 0, Jobs: jobsOf(1, 1)}, // b1: jobs 3, 4
			{User: 1, SubmitTicks: 0, Jobs: jobsOf(1)},    // b2: job 5
			{User: 2, SubmitTicks: 1, Jobs: jobsOf(3)},    // c1: job 6
		},
	}
	for _, tc := range []struct {
		hold       string
		start      []int64 // by job: a1 (4, 2), a2, b1 (1, 1), b2, c1
		submit     []int64 // by campaign: a1, a2, b1, b2, c1
		completion []int64
		stretch    []float64
	}{
		{ecampaign.HoldVirtualStart, []int64{4, 1, 8, 0, 0, 3, 1}, []int64{0, 8, 0, 1, 1}, []int64{8, 9, 1, 4, 4}, []float64{2, 1, 1, 3, 1}},
		{ecampaign.HoldNone, []int64{4, 2, 8, 0, 0, 1, 1}, []int64{0, 8, 0, 1, 1}, []int64{8, 9, 1, 2, 4}, []float64{2, 1, 1, 1, 1}},
	} {
		t.Run(tc.hold, func(t *testing.T) {
			rows, start, _ := simulate(t, w, 2, "ostrich", ecampaign.Options{Hold: tc.hold})
			if !slices.Equal(start, tc.start) {
				t.Errorf("job starts %v, want %v", start, tc.start)
			}
			for c, r := range rows {
				if r.SubmitTicks != tc.submit[c] || r.CompletionTicks != tc.completion[c] || r.Stretch != tc.stretch[c] {
					t.Errorf("campaign %d: submit %d completion %d stretch %g; want %d %d %g",
						c, r.SubmitTicks, r.CompletionTicks, r.Stretch, tc.submit[c], tc.completion[c], tc.stretch[c])
				}
			}
		})
	}
}

// TestVirtualScheduleByHand checks the virtual schedule of
// TestOstrichByHand event by event, in exact rationals.
func TestVirtualScheduleByHand(t *testing.T) {
	const a1, b1, c1, b2 = 0, 1, 2, 3
	v := ecampaign.NewVirtualSchedule(2, 3, 4)
	v.Submit(a1, 0, 0, 6)
	v.Submit(b1, 1, 0, 2)
	check := func(at string, c int, num, den int64) {
		t.Helper()
		if got := v.Completion(c); got.Num().Int64() != num || got.Denom().Int64() != den {
			t.Errorf("%s: C(%d) = %s, want %d/%d", at, c, got.RatString(), num, den)
		}
	}
	check("t=0", a1, 6, 1)
	check("t=0", b1, 2, 1)
	v.AdvanceTo(1)
	v.Submit(c1, 2, 1, 3)
	v.Submit(b2, 1, 1, 1)
	check("t=1", a1, 17, 2)
	check("t=1", b1, 5, 2)
	check("t=1", c1, 11, 2)
	check("t=1", b2, 4, 1)
	if s := v.Start(b2); s.Num().Int64() != 5 || s.Denom().Int64() != 2 {
		t.Errorf("t=1: start(b2) = %s, want 5/2", s.RatString())
	}
	v.AdvanceTo(4)
	check("t=4", c1, 5, 1)
	check("t=4", a1, 7, 1)
	if k := v.ActiveUsers(); k != 2 {
		t.Errorf("t=4: k = %d, want 2", k)
	}
	v.AdvanceTo(5)
	check("t=5", a1, 6, 1)
	v.AdvanceTo(10)
	if k := v.ActiveUsers(); k != 0 {
		t.Errorf("t=10: k = %d, want 0", k)
	}
}
