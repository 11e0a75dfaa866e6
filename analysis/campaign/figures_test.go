package campaign

import (
	"math"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/resultstest"
)

func analyzeCampaignRun(t *testing.T) (*analysis.Result, analysis.Expectations) {
	t.Helper()
	dir := t.TempDir()
	resultstest.WriteCampaignCells(t, dir, resultstest.CampaignRun())
	r, err := analysis.Analyze(dir, analysis.Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := analysis.ParseManifestSections([]byte(resultstest.CampaignExpect), "expect")
	if err != nil {
		t.Fatal(err)
	}
	return r, expect
}

func TestFigureTable(t *testing.T) {
	r, expect := analyzeCampaignRun(t)
	if r.Settings.Reference != "ostrich" {
		t.Errorf("reference %q; want ostrich, the campaign default when no cell has pslr", r.Settings.Reference)
	}
	if got := Workloads(r); len(got) != 2 || got[0] != "synth" || got[1] != "trace" {
		t.Errorf("campaign workloads %v; want [synth trace]", got)
	}
	if r.HasLoads() || len(r.Loads) != 1 || r.Loads[0] != 0 {
		t.Errorf("loads %v; want [0], the closed loop, and no load", r.Loads)
	}
	// Half-widths: t(0.975, 2) = 4.302652729749464 times sd / sqrt(3);
	// t(0.975, 1) = 12.706204736174707 times sd / sqrt(2).
	tests := []struct {
		workload, metric, policy string
		n                        int
		mean, half               float64 // half NaN for one instance
		paper                    string  // "" without
		matches                  bool
	}{
		// ostrich 0, 0.02, 0.04: sd 0.02.
		{"synth", "campaign_stretch_over20_share", "ostrich", 3, 0.02, 4.302652729749464 * 0.02 / math.Sqrt(3), "0.013", true},
		// fcfs 0.4, 0.5: sd 0.1/sqrt(2).
		{"synth", "campaign_stretch_over20_share", "fcfs", 2, 0.45, 12.706204736174707 * 0.05, "0.423", true},
		{"synth", "short_user_max_stretch_mean", "ostrich", 3, 13, 4.302652729749464 / math.Sqrt(3), "12.8", true},
		{"synth", "short_user_max_stretch_mean", "fcfs", 2, 65, 12.706204736174707 * 5, "> 50", true},
		{"synth", "long_user_max_stretch_mean", "ostrich", 3, 6.8, 0, "6", false},
		{"synth", "long_user_max_stretch_mean", "fcfs", 0, math.NaN(), math.NaN(), "6.3", false},
		{"trace", "campaign_stretch_over20_share", "ostrich", 1, 0.001, math.NaN(), "0.013", true},
		{"trace", "campaign_stretch_trimmed_mean", "log", 1, 1.6, math.NaN(), "1.61", true},
	}
	for _, tt := range tests {
		var row *FigureRow
		for _, f := range FigureTable(r, tt.workload, expect) {
			if f.Metric == tt.metric && f.Policy == tt.policy {
				row = &f
			}
		}
		if row == nil {
			t.Errorf("%s %s %s: no row", tt.workload, tt.metric, tt.policy)
			continue
		}
		half := (row.High - row.Low) / 2
		close := func(a, b float64) bool {
			return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*max(1, math.Abs(b))
		}
		paper := ""
		if row.Paper != nil {
			paper = row.Paper.String()
		}
		if row.N != tt.n || (tt.n > 0 && !close(row.Mean, tt.mean)) || (tt.n > 0 && !close(half, tt.half)) || paper != tt.paper || row.Matches != tt.matches {
			t.Errorf("%s %s %s: n %d, mean %v ± %v, paper %q, matches %v; want n %d, %v ± %v, %q, %v",
				tt.workload, tt.metric, tt.policy, row.N, row.Mean, half, paper, row.Matches, tt.n, tt.mean, tt.half, tt.paper, tt.matches)
		}
	}
	// The trace has no user profiles: no short-user row without a paper value.
	for _, f := range FigureTable(r, "trace", expect) {
		if f.Metric == "short_user_max_stretch_mean" {
			t.Errorf("trace has a short-user row %+v; want none (all null, no paper value)", f)
		}
	}
}

// testMeasures are the measures of the fixtures' models.
func testMeasures() analysis.Measures { return analysis.MeasuresOf(resultstest.Models()...) }
