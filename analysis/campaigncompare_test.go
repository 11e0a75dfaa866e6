package analysis

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/stats"

	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// campaignRows is a hand-made campaigns table for the trace cells of
// campaignRun: users A and B, two campaigns each (user, ordinal, submit,
// completion, stretch).
//
//	        ostrich              log                  flow
//	A #1    0-10,   1            0-12,   1.2          ostrich shorter
//	A #2    20-26,  1.5          20-26,  1.5          equal
//	B #1    5-9,    2            5-8,    1.5          log shorter
//	B #2    30-2030, 2000        30-3030, 3000        ostrich shorter
//
// Flow shorter under ostrich 2/4, equal 1/4, under log 1/4. Medians per
// user: A ostrich (1 + 1.5)/2 = 1.25, log 1.35; B ostrich 1001, log
// 1500.75: ostrich is not worse for 2 of 2 users. The means of the
// stretches <= 1000 (and <= 100, <= 20): ostrich 4.5/3 = 1.5, log 4.2/3 =
// 1.4, difference 0.1; exactly 1: ostrich 1/3, log 0; quantiles of
// {1, 1.5, 2} (ostrich) and {1.2, 1.5, 1.5} (log), type 7: p50 1.5 and
// 1.5, p90 1.9 and 1.5, p99 1.99 and 1.5; above 1000: 1/4 both; flow
// shorter: ostrich 1/2, log 1/4, difference 1/4.
var campaignRows = []struct {
	cell, user         string
	ordinal            int64
	submit, completion int64
	stretch            float64
}{
	{"trace-ostrich-0", "A", 1, 0, 10, 1}, {"trace-ostrich-0", "A", 2, 20, 26, 1.5},
	{"trace-ostrich-0", "B", 1, 5, 9, 2}, {"trace-ostrich-0", "B", 2, 30, 2030, 2000},
	{"trace-log-0", "A", 1, 0, 12, 1.2}, {"trace-log-0", "A", 2, 20, 26, 1.5},
	{"trace-log-0", "B", 1, 5, 8, 1.5}, {"trace-log-0", "B", 2, 30, 3030, 3000},
	{"unknown-cell", "A", 1, 0, 1, 1},
}

func writeCampaignRows(t *testing.T, dir string) {
	t.Helper()
	w, err := store.NewPartWriter(dir, table.CampaignsSchema(), store.WriterOptions{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range campaignRows {
		if err := w.Append(store.Row{store.String(r.cell), store.String(r.user), store.String(""), store.Int64(r.ordinal),
			store.Int64(1), store.Int64(r.submit), store.Int64(r.completion), store.Int64(1), store.Float64(r.stretch)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

const orderingExpect = `
expect:
  orderings:
    trace:
      campaign_stretch_trimmed_mean: ["ostrich < log", "ostrich >= log"]
    "*":
      campaign_stretch_over20_share: ostrich < fcfs
`

func analyzeComparedRun(t *testing.T) (*Result, Expectations) {
	t.Helper()
	dir := t.TempDir()
	writeCampaignCells(t, dir, campaignRun())
	writeCampaignRows(t, dir)
	r, err := Analyze(dir, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := ParseManifestSections([]byte(orderingExpect), "expect")
	if err != nil {
		t.Fatal(err)
	}
	return r, expect
}

func TestCompareCampaigns(t *testing.T) {
	r, _ := analyzeComparedRun(t)
	c := r.Campaigns
	if c == nil || len(c.Pairs) != 1 {
		t.Fatalf("comparisons %+v; want one pair (trace: ostrich against log; synth has no campaign rows)", c)
	}
	p := c.Pairs[0]
	if p.Workload != "trace" || p.Reference != "ostrich" || p.Policy != "log" || p.Instances != 1 || p.Campaigns != 4 ||
		p.ReferenceFaster != 0.5 || p.Ties != 0.25 || p.PolicyFaster != 0.25 || p.Users != 2 || p.UsersNotWorse != 2 {
		t.Errorf("pair %+v; want trace ostrich/log, 1 instance, 4 campaigns, shares 0.5 0.25 0.25, 2 of 2 users", p)
	}
	want := map[string][3]float64{
		"campaign_stretch_trimmed_mean":         {1.5, 1.4, 0.1},
		"campaign_stretch_trimmed100_mean":      {1.5, 1.4, 0.1},
		"campaign_stretch_trimmed20_mean":       {1.5, 1.4, 0.1},
		"campaign_stretch_trimmed_exact1_share": {1.0 / 3, 0, 1.0 / 3},
		"campaign_stretch_trimmed_p50":          {1.5, 1.5, 0},
		"campaign_stretch_trimmed_p90":          {1.9, 1.5, 0.4},
		"campaign_stretch_trimmed_p99":          {1.99, 1.5, 0.49},
		"campaign_stretch_outlier_share":        {0.25, 0.25, 0},
	}
	want[FlowShorterShare] = [3]float64{0.5, 0.25, 0.25}
	if len(p.Intervals) != 3*len(want) {
		t.Fatalf("%d intervals; want %d", len(p.Intervals), 3*len(want))
	}
	for i, iv := range p.Intervals {
		w := want[iv.Metric][i%3]
		of := []string{"ostrich", "log", "ostrich - log"}[i%3]
		if iv.Of != of || math.Abs(iv.Estimate-w) > 1e-12 || !(iv.Low <= iv.High) {
			t.Errorf("interval %d: %+v; want %s of %s estimate %v, low <= high", i, iv, iv.Metric, of, w)
		}
		// A mean of stretches in [1, 2] (ostrich) or [1.2, 1.5] (log)
		// stays in that range on every resample.
		if iv.Metric == "campaign_stretch_trimmed_mean" && (of == "ostrich" && (iv.Low < 1 || iv.High > 2) || of == "log" && (iv.Low < 1.2 || iv.High > 1.5)) {
			t.Errorf("interval %+v outside the range of the kept stretches", iv)
		}
	}
	medians := map[string]float64{}
	for _, m := range c.UserMedians {
		medians[m.Workload+" "+m.Policy+" "+m.User] = m.Median
	}
	for key, median := range map[string]float64{"trace ostrich A": 1.25, "trace ostrich B": 1001, "trace log A": 1.35, "trace log B": 1500.75} {
		if got, ok := medians[key]; !ok || math.Abs(got-median) > 1e-12 {
			t.Errorf("median of %s = %v; want %v", key, got, median)
		}
	}
	if len(medians) != 4 {
		t.Errorf("medians %v; want 4 (no row of the unknown cell)", medians)
	}
}

func TestOrderings(t *testing.T) {
	r, expect := analyzeComparedRun(t)
	rows := r.OrderingTable("trace", expect)
	// trace trimmed mean: ostrich 1.1, log 1.6 (campaignRun); the "*"
	// ordering names fcfs, which trace lacks: undefined, not held.
	if len(rows) != 3 {
		t.Fatalf("%d orderings %+v; want 3", len(rows), rows)
	}
	for i, want := range []struct {
		text        string
		left, right float64
		holds       bool
	}{
		{"ostrich < log", 1.1, 1.6, true},
		{"ostrich >= log", 1.1, 1.6, false},
		{"ostrich < fcfs", 0.001, math.NaN(), false},
	} {
		o := rows[i]
		if o.Ordering.String() != want.text || o.LeftMean != want.left || !(o.RightMean == want.right || math.IsNaN(want.right) && math.IsNaN(o.RightMean)) || o.Holds != want.holds {
			t.Errorf("ordering %d: %+v; want %s %v %v holds %v", i, o, want.text, want.left, want.right, want.holds)
		}
	}
	synth := r.OrderingTable("synth", expect)
	if len(synth) != 1 || !synth[0].Holds || synth[0].LeftMean != 0.02 || synth[0].RightMean != 0.45 {
		t.Errorf("synth orderings %+v; want ostrich < fcfs on the over-20 share, 0.02 < 0.45, held", synth)
	}
	for _, bad := range []struct{ text, want string }{
		{"expect:\n  orderings:\n    trace:\n      campaign_stretch_trimmed_mean: ostrich << log\n", `line 4: "ostrich << log": want two different policies`},
		{"expect:\n  orderings:\n    trace:\n      campaign_stretch_trimmed_mean: ostrich < ostrich\n", `want two different policies`},
		{"expect:\n  orderings:\n    trace:\n      stretch: ostrich < log\n", `line 4: expect.orderings.trace: unknown metric "stretch"`},
	} {
		if _, _, err := ParseManifestSections([]byte(bad.text), "m.yaml"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v; want one containing %q", bad.text, err, bad.want)
		}
	}
}

// TestPrintCampaignComparisonsGolden prints the compared run: the
// orderings under the figures, the campaign-by-campaign comparison with
// its bootstrap intervals and the per-user medians (numbers as in
// TestCompareCampaigns and TestOrderings).
func TestPrintCampaignComparisonsGolden(t *testing.T) {
	r, expect := analyzeComparedRun(t)
	var out bytes.Buffer
	if err := Print(&out, r, expect); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/print_campaign_comparisons.golden", out.Bytes())
}

// TestTrimmedQuantile: the rank-count quantile of a resample equals
// Quantile of the resample's sorted stretches <= 1000, on 200 resamples
// of a sample with ties, an infinite stretch and outliers.
func TestTrimmedQuantile(t *testing.T) {
	stretch := []float64{1, 1, 1, 1.25, 2, 3.5, 3.5, 7, 1200, math.Inf(1), 1.1, 40, 999.5, 1000, 1001}
	for _, p := range []float64{0, 0.5, 0.9, 0.99, 1} {
		q := trimmedQuantile(stretch, p)
		stats.BootstrapIndices(len(stretch), 200, stats.BootstrapSeed("trimmed quantile"), func(r int, indices []int) {
			var kept []float64
			for _, i := range indices {
				if stretch[i] <= mcampaign.OutlierStretch {
					kept = append(kept, stretch[i])
				}
			}
			slices.Sort(kept)
			want, got := stats.Quantile(kept, p), q(indices)
			if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("p %v, resample %d %v: %v; want %v", p, r, indices, got, want)
			}
		})
	}
}
