package campaign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/resultstest"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"
)

func analyzeComparedRun(t *testing.T) (*analysis.Result, *Result, analysis.Expectations) {
	t.Helper()
	dir := t.TempDir()
	resultstest.WriteCampaignCells(t, dir, resultstest.CampaignRun())
	resultstest.WriteCampaignRows(t, dir)
	r, err := analysis.Analyze(dir, analysis.Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := analysis.ParseManifestSections([]byte(resultstest.OrderingExpect), "expect")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Analyze(dir, r, expect)
	if err != nil {
		t.Fatal(err)
	}
	return r, c, expect
}

func TestCompareCampaigns(t *testing.T) {
	_, result, _ := analyzeComparedRun(t)
	c := result.Comparisons
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
	r, _, expect := analyzeComparedRun(t)
	rows := OrderingTable(r, "trace", expect)
	// trace trimmed mean: ostrich 1.1, log 1.6 (resultstest.CampaignRun); the "*"
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
	synth := OrderingTable(r, "synth", expect)
	if len(synth) != 1 || !synth[0].Holds || synth[0].LeftMean != 0.02 || synth[0].RightMean != 0.45 {
		t.Errorf("synth orderings %+v; want ostrich < fcfs on the over-20 share, 0.02 < 0.45, held", synth)
	}
	for _, bad := range []struct{ text, want string }{
		{"expect:\n  orderings:\n    trace:\n      campaign_stretch_trimmed_mean: ostrich << log\n", `line 4: "ostrich << log": want two different policies`},
		{"expect:\n  orderings:\n    trace:\n      campaign_stretch_trimmed_mean: ostrich < ostrich\n", `want two different policies`},
		{"expect:\n  orderings:\n    trace:\n      stretch: ostrich < log\n", `line 4: expect.orderings.trace: unknown metric "stretch"`},
	} {
		if _, _, err := analysis.ParseManifestSections([]byte(bad.text), "m.yaml", testMeasures().Columns...); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v; want one containing %q", bad.text, err, bad.want)
		}
	}
}

// TestPairedSampleStatistics: the one-pass statistics of a resample
// equal, to the bit and in the order of BootstrapMetrics, their plain
// definitions by name on the picked campaigns (a mean adds the stretches
// in the order picked; a quantile is Quantile of the sorted stretches <=
// 1000), on 200 resamples of two policies' stretches with ties, an
// infinite stretch and outliers.
func TestPairedSampleStatistics(t *testing.T) {
	stretches := [2][]float64{
		{1, 1, 1, 1.25, 2, 3.5, 3.5, 7, 1200, math.Inf(1), 1.1, 40, 999.5, 1000, 1001, 0.1 + 0.2, 19.7, 99.9},
		{1, 2.5, 1, 1, 20, 20.5, 100, 100.5, 1, 3, 1.1, 4000, 7.25, 1e-3, 1, 1.3, 1.7, 12},
	}
	faster := []int8{0, 1, 0, -1, 1, 1, -1, 0, -1, 1, 0, 1, -1, -1, 0, 1, 1, -1}
	statistic := newPairedSample(stretches, faster).newStatistic()
	got := make([]float64, 3*len(BootstrapMetrics)+3)
	stats.BootstrapIndices(len(faster), 200, stats.BootstrapSeed("paired sample"), func(r int, indices []int) {
		var want []float64
		statistics := func(stretch []float64) []float64 {
			mean := func(cut float64) float64 {
				var sum float64
				var kept int
				for _, i := range indices {
					if stretch[i] <= cut {
						sum += stretch[i]
						kept++
					}
				}
				return sum / float64(kept)
			}
			var kept []float64
			var exact1, outliers int
			for _, i := range indices {
				if s := stretch[i]; s <= table.CampaignOutlierStretch {
					kept = append(kept, s)
					if s == 1 {
						exact1++
					}
				} else {
					outliers++
				}
			}
			slices.Sort(kept)
			plain := map[string]float64{
				"campaign_stretch_trimmed_mean":         mean(1000),
				"campaign_stretch_trimmed100_mean":      mean(100),
				"campaign_stretch_trimmed20_mean":       mean(20),
				"campaign_stretch_trimmed_exact1_share": float64(exact1) / float64(len(kept)),
				"campaign_stretch_trimmed_p50":          stats.Quantile(kept, 0.5),
				"campaign_stretch_trimmed_p90":          stats.Quantile(kept, 0.9),
				"campaign_stretch_trimmed_p99":          stats.Quantile(kept, 0.99),
				"campaign_stretch_outlier_share":        float64(outliers) / float64(len(indices)),
			}
			var values []float64
			for _, metric := range BootstrapMetrics {
				values = append(values, plain[metric])
			}
			return values
		}
		ref, other := statistics(stretches[0]), statistics(stretches[1])
		for m := range ref {
			want = append(want, ref[m], other[m], ref[m]-other[m])
		}
		share := func(sign int8) float64 {
			count := 0
			for _, i := range indices {
				if faster[i] == sign {
					count++
				}
			}
			return float64(count) / float64(len(indices))
		}
		want = append(want, share(1), share(-1), share(1)-share(-1))
		statistic(indices, got)
		for v := range want {
			if got[v] != want[v] && !(math.IsNaN(got[v]) && math.IsNaN(want[v])) {
				t.Fatalf("value %d, resample %d %v: %v; want %v", v, r, indices, got[v], want[v])
			}
		}
	})
}

// BenchmarkComparePair times one Pair's bootstrap (2000 resamples) on
// 8,000 campaigns, the size of the synthetic study's users20 workload.
func BenchmarkComparePair(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	measures := map[string]*campaignMeasures{}
	var groups []analysis.Group
	for instance := range 40 {
		g := analysis.Group{Cells: map[string]*analysis.Cell{}}
		for _, policy := range []string{"ostrich", "fcfs"} {
			id := fmt.Sprintf("%s-%d", policy, instance)
			g.Cells[policy] = &analysis.Cell{ID: id}
			m := &campaignMeasures{flow: map[campaignKey]int64{}, stretch: map[campaignKey]float64{}}
			for c := range 200 {
				k := campaignKey{user: fmt.Sprintf("u%02d", c%20), ordinal: int64(c / 20)}
				m.flow[k] = rng.Int64N(100000)
				m.stretch[k] = 1 + math.Floor(rng.ExpFloat64()*30*8)/8
				m.order = append(m.order, k)
			}
			measures[id] = m
		}
		groups = append(groups, g)
	}
	for b.Loop() {
		if _, ok, err := compareCampaignPair("users20", "ostrich", "fcfs", groups, measures); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
