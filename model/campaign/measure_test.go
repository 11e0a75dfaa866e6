package campaign

import (
	"context"
	"math"
	"strings"
	"testing"

	ec "github.com/sweep-sched/sweep/engine/campaign"
	wc "github.com/sweep-sched/sweep/workload/campaign"
)

// TestSummarize on hand rows: stretches s: 1 (exact), 30, 2000, 3 for a
// short user S (1, 30) and long users L1 (2000) and L2 (3).
// mean = 2034/4 = 508.5; over 20: 30 and 2000, 1/2; outliers > 1000:
// 2000, 1/4; trimmed {1, 3, 30}: mean 34/3, exact1 1/3, median 3;
// per-user max: S 30, L1 2000, L2 3: all 2033/3, short 30, long 1001.5.
func TestSummarize(t *testing.T) {
	rows := []CampaignRow{
		{User: "S", Profile: wc.ProfileShort, Stretch: 1, Exact1: true},
		{User: "S", Profile: wc.ProfileShort, Stretch: 30},
		{User: "L1", Profile: wc.ProfileLong, Stretch: 2000},
		{User: "L2", Profile: wc.ProfileLong, Stretch: 3},
	}
	s := SummarizeCampaigns(rows)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", s.StretchMean, 508.5},
		{"max", s.StretchMax, 2000},
		{"over20", s.Over20Share, 0.5},
		{"outliers", s.OutlierShare, 0.25},
		{"trimmed mean", s.TrimmedMean, 34.0 / 3},
		{"trimmed exact1", s.TrimmedExact1, 1.0 / 3},
		{"trimmed p50", s.TrimmedP50, 3},
		{"user max", s.UserMaxMean, 2033.0 / 3},
		{"short user max", s.ShortUserMaxMean, 30},
		{"long user max", s.LongUserMaxMean, 1001.5},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	cols := CampaignColumns()
	if cols[0].Name != "campaigns" || cols[0].Int(&s) != 4 {
		t.Errorf("first column %s = %d, want campaigns = 4", cols[0].Name, cols[0].Int(&s))
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			t.Errorf("column %s twice", c.Name)
		}
		seen[c.Name] = true
	}
	if got := cols[3].Float(&s); cols[3].Name != "campaign_stretch_over20_share" || got != 0.5 {
		t.Errorf("column %s = %g, want campaign_stretch_over20_share = 0.5", cols[3].Name, got)
	}
}

// TestAloneAndBoundFlow: a campaign's flow time alone on m empty
// processors (greedy, shortest submitted job first), m x seed 001's bound
// max(W/m, pmax) and m x our release-aware max(W/m, max(release + exec)),
// on hand cases:
//   - 3 jobs of 10, m = 2: 10 and 10 at 0-10, the third 10-20: alone 20;
//     both bounds max(30, 2 x 10) = 30, i.e. 15 ticks;
//   - [2, 2, 4], m = 2: 2 and 2 at 0-2, 4 at 2-6: alone 6 (LPT would
//     finish at 4); both bounds max(8, 2 x 4) = 8, i.e. 4;
//   - [2, 2, 2 released at 5], m = 2: 0-2, 0-2, 5-7: alone 7; bound
//     max(6, 2 x 2) = 6, i.e. 3; release-aware max(6, 2 x (5 + 2)) = 14;
//   - [3, 1 released at 4], m = 1: 0-3, idle, 4-5: alone 5; bound
//     max(4, 1 x 3) = 4; release-aware max(4, 1 x 5) = 5;
//   - [5, 3], m = 4: alone 5; both bounds max(8, 4 x 5) = 20, i.e. 5.
func TestAloneAndBoundFlow(t *testing.T) {
	for _, tc := range []struct {
		exec, release []int64
		m             int
		alone, boundM int64
		releaseM      int64
	}{
		{[]int64{10, 10, 10}, nil, 2, 20, 30, 30},
		{[]int64{2, 2, 4}, nil, 2, 6, 8, 8},
		{[]int64{2, 2, 2}, []int64{0, 0, 5}, 2, 7, 6, 14},
		{[]int64{3, 1}, []int64{0, 4}, 1, 5, 4, 5},
		{[]int64{5, 3}, nil, 4, 5, 20, 20},
	} {
		c := wc.Campaign{Jobs: campaignJobs(tc.exec...)}
		for k, r := range tc.release {
			c.Jobs[k].ReleaseTicks = r
		}
		if got := AloneFlowTicks(&c, tc.m); got != tc.alone {
			t.Errorf("%v released %v on %d: alone %d, want %d", tc.exec, tc.release, tc.m, got, tc.alone)
		}
		if got := BoundFlowTicks(&c, tc.m); got != tc.boundM {
			t.Errorf("%v released %v on %d: bound x m %d, want %d", tc.exec, tc.release, tc.m, got, tc.boundM)
		}
		if got := BoundReleaseFlowTicks(&c, tc.m); got != tc.releaseM {
			t.Errorf("%v released %v on %d: release-aware bound x m %d, want %d", tc.exec, tc.release, tc.m, got, tc.releaseM)
		}
	}
}

// TestStretchBases: one campaign alone on 2 machines under ostrich, its
// stretch with either base (flows and bases from TestAloneAndBoundFlow;
// the default is bound): 3 jobs of 10 finish at 20: alone 20/20 = 1
// exactly, bound 20/15 = 4/3;
// [2, 2, 4] in SPT order finishes at 6: alone 1, bound 6/4 = 1.5; in LPT
// order (4 at 0-4, 2 at 0-2, 2 at 2-4) at 4: alone 4/6 = 2/3, below 1
// because the alone schedule is SPT, not the optimum; bound 4/4 = 1.
func TestStretchBases(t *testing.T) {
	for _, tc := range []struct {
		jobs    []int64
		order   string
		base    string
		stretch float64
		exact1  bool
	}{
		{[]int64{10, 10, 10}, "", "", 4.0 / 3, false},
		{[]int64{10, 10, 10}, "", StretchBaseAlone, 1, true},
		{[]int64{10, 10, 10}, "", StretchBaseBound, 4.0 / 3, false},
		{[]int64{2, 2, 4}, ec.JobOrderSPT, StretchBaseAlone, 1, true},
		{[]int64{2, 2, 4}, ec.JobOrderSPT, StretchBaseBound, 1.5, false},
		{[]int64{2, 2, 4}, ec.JobOrderLPT, StretchBaseAlone, 2.0 / 3, false},
		{[]int64{2, 2, 4}, ec.JobOrderLPT, StretchBaseBound, 1, true},
	} {
		w := &wc.Workload{Users: []wc.User{{ID: "A"}}, Campaigns: []wc.Campaign{{Jobs: campaignJobs(tc.jobs...)}}}
		in, err := ec.Compile(w, 2)
		if err != nil {
			t.Fatal(err)
		}
		opts := ec.Options{JobOrder: tc.order}
		s, err := ec.Simulate(context.Background(), in, w, "ostrich", opts)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := CampaignRows(w, s, tc.base)
		if err != nil {
			t.Fatal(err)
		}
		if rows[0].Stretch != tc.stretch || rows[0].Exact1 != tc.exact1 {
			t.Errorf("%v order %q base %q: stretch %g exact1 %v; want %g %v",
				tc.jobs, tc.order, tc.base, rows[0].Stretch, rows[0].Exact1, tc.stretch, tc.exact1)
		}
	}
	w := &wc.Workload{Users: []wc.User{{ID: "A"}}, Campaigns: []wc.Campaign{{Jobs: campaignJobs(1)}}}
	in, _ := ec.Compile(w, 1)
	s, _ := ec.Simulate(context.Background(), in, w, "fcfs", ec.Options{})
	if _, err := CampaignRows(w, s, "optimum"); err == nil || !strings.Contains(err.Error(), "bound-release") {
		t.Errorf("unknown stretch base: error %v, want one listing the valid bases", err)
	}
}

func campaignJobs(execs ...int64) []wc.Job {
	out := make([]wc.Job, len(execs))
	for i, e := range execs {
		out[i] = wc.Job{ExecTicks: e}
	}
	return out
}
