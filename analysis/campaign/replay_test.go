package campaign

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"

	ec "github.com/sweep-sched/sweep/engine/campaign"
	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	"github.com/sweep-sched/sweep/workload/swf"
)

// replayRow is what TestTraceReplayOptions checks of a campaign.
type replayRow struct {
	campaign           string // user#ordinal
	submit, completion int64
	stretch            float64
}

// TestTraceReplayOptions replays testdata/replay.swf.txt on 2 processors under
// each replay option. The MAX rule gives user 1 campaign A = jobs 1-3
// (submits 0, 2, 3; runs 4, 6, 1; logged finish 8) and B = job 4 (submit
// 10, run 2, think 10 - 8 = 2), user 2 campaign C = job 5 (submit 1, run
// 3, failed) and D = job 6 (submit 9, run 1, cancelled, think 9 - 8 = 1).
// Bounds max(W/m, pmax): A max(11/2, 6) = 6, B 2, C 3, D 1.
//
// per-job release, closed loop (the defaults), fcfs: job 1 at 0-4, job 5
// at 1-4 (C's submission 1); jobs 2 and 3 wait for the processors freed
// at 4: 4-10 and 4-5, so A completes at 10 (stretch 10/6); C at 4 (3/3);
// D at max(9, 4 + 1) = 9, 9-10 (1); B at max(10, 10 + 2) = 12, 12-14
// (2/2). ostrich runs the same: at 4 only A is left (C completed in both
// schedules), in SPT order job 3 then job 2.
//
// campaign release (all of A at 0), closed loop: fcfs runs jobs 1 and 2 at
// 0-4 and 0-6, job 3 before C's job 5 at 4-5, job 5 at 5-8: A completes
// at 6 (1), C at 8 (7/3); D at max(9, 8 + 1) = 9 (1); B at max(10, 6 + 2)
// = 10, 10-12 (1). ostrich: SPT puts job 3 at 0-1 and job 1 at 0-4; at 1
// C arrives and ranks first (virtual completions C 1 + 3 = 4 < A 1 + 9 =
// 10): job 5 at 1-4; job 2 at 4-10: A completes at 10 (10/6), C at 4 (1),
// D at 9, B at 12 (1).
//
// open loop (per-job release): campaigns at their logged submits, so B at
// 10 (not 12), where job 2's processor frees: 10-12 (1); the rest as in
// the closed loop, under both policies.
//
// drop-failed removes job 5, hence C: D is user 2's first campaign.
// fcfs: job 2 starts at its submission 2 on the free processor, 2-8, job
// 3 at 4-5: A completes at 8 (8/6); D at 9; B at max(10, 8 + 2) = 10.
// exclude-users [2] removes C and D: A and B as under drop-failed.
// drop-cancelled removes job 6, hence D: A, B and C as in the defaults.
//
// The log replays its own starts whatever the loop: A completes at 8
// (8/6), C at 5 + 3 = 8 (flow 7, 7/3), D at 10, B at 12; with campaign
// release the same (the stretch's base does not depend on releases).
func TestTraceReplayOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    swf.Options
		release gcampaign.Release
		loop    string
		policy  string
		want    []replayRow
	}{
		{"defaults", swf.Options{}, "", "", "fcfs", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u2#2", 9, 10, 1}, {"u1#2", 12, 14, 1}}},
		{"defaults", swf.Options{}, gcampaign.ReleasePerJob, ec.LoopClosed, "ostrich", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u2#2", 9, 10, 1}, {"u1#2", 12, 14, 1}}},
		{"defaults", swf.Options{}, "", "", "log", []replayRow{
			{"u1#1", 0, 8, 8.0 / 6}, {"u2#1", 1, 8, 7.0 / 3}, {"u2#2", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"campaign release", swf.Options{}, gcampaign.ReleaseCampaign, "", "fcfs", []replayRow{
			{"u1#1", 0, 6, 1}, {"u2#1", 1, 8, 7.0 / 3}, {"u2#2", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"campaign release", swf.Options{}, gcampaign.ReleaseCampaign, "", "ostrich", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u2#2", 9, 10, 1}, {"u1#2", 12, 14, 1}}},
		{"campaign release", swf.Options{}, gcampaign.ReleaseCampaign, "", "log", []replayRow{
			{"u1#1", 0, 8, 8.0 / 6}, {"u2#1", 1, 8, 7.0 / 3}, {"u2#2", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"open loop", swf.Options{}, "", ec.LoopOpen, "fcfs", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u2#2", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"open loop", swf.Options{}, "", ec.LoopOpen, "ostrich", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u2#2", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"drop failed", swf.Options{DropFailed: true}, "", "", "fcfs", []replayRow{
			{"u1#1", 0, 8, 8.0 / 6}, {"u2#1", 9, 10, 1}, {"u1#2", 10, 12, 1}}},
		{"drop cancelled", swf.Options{DropCancelled: true}, "", "", "fcfs", []replayRow{
			{"u1#1", 0, 10, 10.0 / 6}, {"u2#1", 1, 4, 1}, {"u1#2", 12, 14, 1}}},
		{"exclude user 2", swf.Options{ExcludeUsers: []int64{2}}, "", "", "fcfs", []replayRow{
			{"u1#1", 0, 8, 8.0 / 6}, {"u1#2", 10, 12, 1}}},
	} {
		w, _, err := gcampaign.LoadTrace("testdata/replay.swf.txt", tc.opts, tc.release)
		if err != nil {
			t.Fatal(err)
		}
		in, err := ec.Compile(w, 2)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ec.Simulate(context.Background(), in, w, tc.policy, ec.Options{Loop: tc.loop})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := mcampaign.CampaignRows(w, s, "")
		if err != nil {
			t.Fatal(err)
		}
		got := make([]replayRow, len(rows))
		for i, r := range rows {
			got[i] = replayRow{fmt.Sprintf("%s#%d", r.User, r.Campaign), r.SubmitTicks, r.CompletionTicks, r.Stretch}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s, %s: campaigns\n got %v\nwant %v", tc.name, tc.policy, got, tc.want)
		}
	}
}

// TestBoundStaggeredSubmits: seed 001's bound on a trace campaign whose
// jobs were submitted at different times is max(W/m, pmax) with pmax the
// longest job, not the latest release + exec. Campaign A of
// testdata/replay.swf.txt (jobs of 4, 6 and 1 submitted at 0, 2 and 3, on 2
// processors): W = 11, pmax = 6, bound max(5.5, 6) = 6, where release +
// exec would give max(0 + 4, 2 + 6, 3 + 1) = 8. The log completes A at 8:
// stretch 8/6 with bound, exactly 1 with bound-release; alone (SPT list
// schedule with the releases: 0-4, 2-8, 4-5) also takes 8: exactly 1.
func TestBoundStaggeredSubmits(t *testing.T) {
	w, _, err := gcampaign.LoadTrace("testdata/replay.swf.txt", swf.Options{ExcludeUsers: []int64{2}}, gcampaign.ReleasePerJob)
	if err != nil {
		t.Fatal(err)
	}
	a := &w.Campaigns[0]
	if got := []int64{mcampaign.BoundFlowTicks(a, 2), mcampaign.BoundReleaseFlowTicks(a, 2), mcampaign.AloneFlowTicks(a, 2)}; !slices.Equal(got, []int64{12, 16, 8}) {
		t.Errorf("bound x m, bound-release x m, alone = %v; want [12 16 8]", got)
	}
	in, err := ec.Compile(w, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ec.Simulate(context.Background(), in, w, "log", ec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		base    string
		stretch float64
		exact1  bool
	}{
		{mcampaign.StretchBaseBound, 8.0 / 6, false},
		{mcampaign.StretchBaseBoundRelease, 1, true},
		{mcampaign.StretchBaseAlone, 1, true},
	} {
		rows, err := mcampaign.CampaignRows(w, s, tc.base)
		if err != nil {
			t.Fatal(err)
		}
		if rows[0].Stretch != tc.stretch || rows[0].Exact1 != tc.exact1 {
			t.Errorf("base %s: stretch %v exact1 %v; want %v %v", tc.base, rows[0].Stretch, rows[0].Exact1, tc.stretch, tc.exact1)
		}
	}
}

// TestZeroRunReplay replays testdata/zero.swf.txt on 1 processor, whose jobs
// 2 and 5 ran 0 seconds. Dropped (the default): u1#1 = job 1 at 0-5, u2#1
// = job 3 at 10-12, u1#2 = job 4 at 20-23, every stretch 1. Kept, a job of
// 0 seconds holds the processor 1 tick and adds no work. fcfs: job 1 at
// 0-5; u2#1 (job 2, submitted at 1) runs at 5-6: no work, infinite
// stretch; u2#2 at max(10, 6 + think 10 - 5) = 11, 11-13 (1); u1#2 at
// max(20, 5 + 15) = 20: job 4 at 20-23, job 5 (released at 21) at 23-24:
// flow 4 over max(3/1, 3) = 4/3. The log, where a job of 0 seconds also
// holds its processor 1 tick: u2#1 at 5-6 (infinite stretch), u1#2
// completes at 23 (job 5 at 21-22; stretch 1). Under fcfs, one
// campaign in four is dropped from the trimmed statistics, whose mean is
// (1 + 1 + 4/3) / 3 = 10/9; so are the untrimmed mean (10/9) and max (4/3)
// and the users' maxima (u1 4/3, u2 1: mean 7/6).
func TestZeroRunReplay(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		keep   bool
		policy string
		want   []replayRow
	}{
		{false, "fcfs", []replayRow{{"u1#1", 0, 5, 1}, {"u2#1", 10, 12, 1}, {"u1#2", 20, 23, 1}}},
		{true, "fcfs", []replayRow{{"u1#1", 0, 5, 1}, {"u2#1", 1, 6, inf}, {"u2#2", 11, 13, 1}, {"u1#2", 20, 24, 4.0 / 3}}},
		{true, "ostrich", []replayRow{{"u1#1", 0, 5, 1}, {"u2#1", 1, 6, inf}, {"u2#2", 11, 13, 1}, {"u1#2", 20, 24, 4.0 / 3}}},
		{true, "log", []replayRow{{"u1#1", 0, 5, 1}, {"u2#1", 1, 6, inf}, {"u2#2", 10, 12, 1}, {"u1#2", 20, 23, 1}}},
	} {
		w, _, err := gcampaign.LoadTrace("testdata/zero.swf.txt", swf.Options{KeepZeroRun: tc.keep}, gcampaign.ReleasePerJob)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := simulateCampaigns(t, w, 1, tc.policy)
		got := make([]replayRow, len(rows))
		for i, r := range rows {
			got[i] = replayRow{fmt.Sprintf("%s#%d", r.User, r.Campaign), r.SubmitTicks, r.CompletionTicks, r.Stretch}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("keep %v, %s: campaigns\n got %v\nwant %v", tc.keep, tc.policy, got, tc.want)
		}
		if tc.keep && tc.policy == "fcfs" {
			sum := mcampaign.SummarizeCampaigns(rows)
			if sum.OutlierShare != 0.25 || math.Abs(sum.TrimmedMean-10.0/9) > 1e-15 || rows[1].Exact1 ||
				math.Abs(sum.StretchMean-10.0/9) > 1e-15 || sum.StretchMax != 4.0/3 || math.Abs(sum.UserMaxMean-7.0/6) > 1e-15 {
				t.Errorf("kept zero-run campaign: outlier share %v, trimmed mean %v, exact1 %v, mean %v, max %v, user max mean %v; want 0.25, 10/9, false, 10/9, 4/3, 7/6",
					sum.OutlierShare, sum.TrimmedMean, rows[1].Exact1, sum.StretchMean, sum.StretchMax, sum.UserMaxMean)
			}
		}
	}
}
