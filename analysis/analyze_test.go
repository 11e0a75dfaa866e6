package analysis

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/resultstest"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// testMeasures are the measures of the fixtures' models, with seed 004's
// order of policies (its Tables 3 and 4; analysis/grid.PolicyOrder, which
// this package's tests cannot import).
func testMeasures() Measures {
	m := MeasuresOf(resultstest.Models()...)
	m.PolicyOrder = []string{"pslr", "lrtf", "srtf", "random", "fifo-task", "fifo-job", "fairshare"}
	return m
}

// ccColumn is cumulative completion's index in the fixtures' values.
var ccColumn = slices.IndexFunc(testMeasures().Columns, func(m table.Measure) bool { return m.Name == "cumulative_completion" })

func TestPairCells(t *testing.T) {
	cells, _, problems, err := ReadCells(resultstest.SmallRunDir(t), testMeasures())
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadCells: %v, problems %v", err, problems)
	}
	pairing, err := PairCells(cells, "pslr", nil, testMeasures().Rebase, ccColumn)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"srtf-1.2-2"}; !reflect.DeepEqual(pairing.Failed, want) {
		t.Errorf("Failed = %v; want %v", pairing.Failed, want)
	}
	// pslr-1.2-2 lost its partner to the failure; srtf-1.2-3 never had one.
	if want := []string{"pslr-1.2-2", "srtf-1.2-3"}; !reflect.DeepEqual(pairing.Unpaired, want) {
		t.Errorf("Unpaired = %v; want %v", pairing.Unpaired, want)
	}
	if len(pairing.Groups) != 8 {
		t.Fatalf("%d groups; want 8 (4 instances at each of 2 loads)", len(pairing.Groups))
	}
	// Groups are ordered by load then instance.
	if g := pairing.Groups[4]; g.Key.Load != 1.2 || g.Key.Instance != 0 || len(g.Cells) != 2 {
		t.Errorf("group 4 = %+v with %d cells; want load 1.2 instance 0 with pslr and srtf", g.Key, len(g.Cells))
	}

	// Re-basing to the group's largest makespan: CC(base) = CC(own) +
	// (base - own makespan) x volume. At load 1.0 the base is srtf's 12:
	// pslr 500 + 2x100 = 700, lrtf 500 + 1x100 = 600, srtf 500.
	cc := slices.IndexFunc(grid.MetricColumns(), func(m grid.MetricColumn) bool { return m.Name == "cumulative_completion" })
	g := pairing.Groups[0]
	for policy, want := range map[string]float64{"pslr": 700, "lrtf": 600, "srtf": 500} {
		if got := g.Cells[policy].Values[cc]; got != want {
			t.Errorf("load 1.0 %s: cumulative completion %v; want %v", policy, got, want)
		}
	}
	// Instance 3 at load 1.2 has srtf only: its base is its own makespan.
	if got := pairing.Groups[7].Cells["srtf"].Values[cc]; got != 500 {
		t.Errorf("lone srtf cell: cumulative completion %v; want 500", got)
	}

	// A fixed base of 20: pslr 500 + 10x100 = 1500.
	cells, _, _, _ = ReadCells(resultstest.SmallRunDir(t), testMeasures())
	base := int64(20)
	pairing, err = PairCells(cells, "pslr", &base, testMeasures().Rebase, ccColumn)
	if err != nil {
		t.Fatal(err)
	}
	if got := pairing.Groups[0].Cells["pslr"].Values[cc]; got != 1500 {
		t.Errorf("base 20: pslr cumulative completion %v; want 1500", got)
	}

	// Two cells with one key and policy are an error naming both.
	dup := resultstest.SmallRun()[:2]
	dup[1].Instance, dup[1].ID = 0, "pslr-dup"
	dir := t.TempDir()
	resultstest.WriteCells(t, dir, dup)
	cells, _, _, _ = ReadCells(dir, testMeasures())
	if _, err := PairCells(cells, "pslr", nil, testMeasures().Rebase, ccColumn); err == nil || !containsAll(err.Error(), "pslr-1.0-0", "pslr-dup") {
		t.Errorf("duplicate cells: error %v; want one naming pslr-1.0-0 and pslr-dup", err)
	}
}

// TestRetriedCellCountsOnce: `sweep run --retry-failed` appends an ok row
// for a failed cell in a later part file and keeps the old failed row.
// The ok row wins: the cell is neither failed nor unpaired. A cell whose ok
// row was written twice (a requeued shard) is read once.
func TestRetriedCellCountsOnce(t *testing.T) {
	dir := resultstest.SmallRunDir(t)
	retried := resultstest.Cell{ID: "srtf-1.2-2", Instance: 2, Load: 1.2, Policy: "srtf", Makespan: 12, VolumeTotal: 100,
		Values: map[string]float64{"slr_max": 7, "slr_mean": 3.5, "cumulative_completion": 500}}
	again := resultstest.SmallRun()[0]
	resultstest.WriteCellsPart(t, dir, "retry", nil, []resultstest.Cell{retried, again})
	cells, _, problems, err := ReadCells(dir, testMeasures())
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadCells: %v, problems %v", err, problems)
	}
	if len(cells) != len(resultstest.SmallRun()) {
		t.Errorf("%d cells; want %d, one per cell id", len(cells), len(resultstest.SmallRun()))
	}
	pairing, err := PairCells(cells, "pslr", nil, testMeasures().Rebase, ccColumn)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairing.Failed) != 0 {
		t.Errorf("Failed = %v; want none: the retry succeeded", pairing.Failed)
	}
	if want := []string{"srtf-1.2-3"}; !reflect.DeepEqual(pairing.Unpaired, want) {
		t.Errorf("Unpaired = %v; want %v (pslr-1.2-2 has its partner back)", pairing.Unpaired, want)
	}
}

func TestReadCellsEmpty(t *testing.T) {
	if _, _, _, err := ReadCells(t.TempDir(), testMeasures()); !errors.Is(err, ErrNoCells) {
		t.Errorf("empty directory: error %v; want ErrNoCells", err)
	}
}

func TestAnalyzeSmallRun(t *testing.T) {
	r, err := Analyze(resultstest.SmallRunDir(t), Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"pslr", "lrtf", "srtf"}; !reflect.DeepEqual(r.Policies, want) {
		t.Errorf("Policies = %v; want %v (reference first, then seed 004's order)", r.Policies, want)
	}
	if want := []float64{1, 1.2}; !reflect.DeepEqual(r.Loads, want) {
		t.Errorf("Loads = %v; want %v", r.Loads, want)
	}
	// References: scipy 1.10.1, scipy.stats.ttest_rel(pslr, other):
	//   ttest_rel([2,3,4,5],[3,3,6,9])     -> t=-2.04939015319192,  p=0.13284184055977563, df=3
	//   ttest_rel([2,3,4,5],[1,4,3,6])     -> t=0.0,                p=1.0,                 df=3
	//   ttest_rel([1.5,2.5],[1,4])         -> t=-0.5,               p=0.7048327646991336,  df=1
	//     (the same differences, -1.5 and 0.5, as pslr 2.5 3.5 vs srtf 4 3)
	//   ttest_rel([2,3,4,5,2.5,3.5],[3,3,6,9,4,3]) -> t=-2.038588765750502, p=0.0970430998743084, df=5
	// Pooled differences: -1 0 -2 -4 -1.5 0.5, mean -8/6.
	// Dominance by hand: pslr <= srtf in 4 of 4 pairs at 1.0, 1 of 2 at 1.2
	// (3.5 > 3), 5 of 6 pooled; pslr <= lrtf in 2 of 4 (3 <= 4, 5 <= 6).
	tests := []struct {
		policy   string
		scope    Scope
		n        int
		meanDiff float64
		t, p     float64
		percent  float64
	}{
		{"lrtf", Scope{Load: 1}, 4, 0, 0, 1, 50},
		{"srtf", Scope{Load: 1}, 4, -1.75, -2.04939015319192, 0.13284184055977563, 100},
		{"srtf", Scope{Load: 1.2}, 2, -0.5, -0.5, 0.7048327646991336, 50},
		{"lrtf", Scope{Pooled: true}, 4, 0, 0, 1, 50},
		{"srtf", Scope{Pooled: true}, 6, -8.0 / 6, -2.038588765750502, 0.0970430998743084, 100 * 5.0 / 6},
	}
	for _, tt := range tests {
		var test *TTestRow
		for i := range r.TTests {
			if row := &r.TTests[i]; row.Metric == "slr_max" && row.Policy == tt.policy && row.Scope == tt.scope {
				test = row
			}
		}
		if test == nil {
			t.Errorf("%s %+v: no t-test row", tt.policy, tt.scope)
			continue
		}
		if test.N != tt.n || test.DF != tt.n-1 || !agreesWithReference(test.MeanDiff, tt.meanDiff) ||
			!agreesWithReference(test.T, tt.t) || !agreesWithReference(test.P, tt.p) || test.Significant {
			t.Errorf("%s %+v: t-test %+v; want n %d, mean diff %v, t %v, p %v, not significant", tt.policy, tt.scope, *test, tt.n, tt.meanDiff, tt.t, tt.p)
		}
		var dom *DominanceRow
		for i := range r.Dominance {
			if row := &r.Dominance[i]; row.Metric == "slr_max" && row.Policy == tt.policy && row.Scope == tt.scope {
				dom = row
			}
		}
		if dom == nil || dom.N != tt.n || !agreesWithReference(dom.Percent, tt.percent) || dom.Significant {
			t.Errorf("%s %+v: dominance %+v; want n %d, %v%%, not significant", tt.policy, tt.scope, dom, tt.n, tt.percent)
		}
	}
	// Wilcoxon references: scipy 1.10.1, scipy.stats.wilcoxon(pslr, other)
	// (method='approx' where issue 15's rule takes the normal
	// approximation), effect = numpy.median(numpy.log(pslr/other)):
	//   srtf 1.0, d = -1 0 -2 -4 (a zero: approx): T 0.0, p 0.10880943004054568,
	//     z -1.6035674514745464; effect -0.40546510810816444 (ln 2/3)
	//   lrtf 1.0, d = 1 -1 1 -1 (ties: approx): T 5.0, p 1.0, z 0.0;
	//     effect 0.05268025782891313
	//   srtf 1.2, d = -1.5 0.5 (exact): T 1.0, p 1.0; effect -0.1579264747092386
	//   srtf pooled (a zero: approx): T 1.0, p 0.07961580146011343,
	//     z -1.7529196424044293; effect -0.40546510810816444
	// Wilson 95% intervals of the dominance percentages, scipy
	// binomtest(k, n).proportion_ci(0.95, 'wilson') x 100: 4/4 [51.01091635454027, 100],
	// 2/4 [15.003898915214952, 84.99610108478505], 1/2 [9.453120573423075,
	// 90.54687942657694], 5/6 [43.649717781352976, 96.99466302516933].
	nan := math.NaN()
	rankTests := []struct {
		policy          string
		scope           Scope
		zeros           int
		statistic       float64
		exact           bool
		z, p, effect    float64
		domLow, domHigh float64
	}{
		{"srtf", Scope{Load: 1}, 1, 0, false, -1.6035674514745464, 0.10880943004054568, -0.40546510810816444, 51.01091635454027, 100},
		{"lrtf", Scope{Load: 1}, 0, 5, false, 0, 1, 0.05268025782891313, 15.003898915214952, 84.99610108478505},
		{"srtf", Scope{Load: 1.2}, 0, 1, true, nan, 1, -0.1579264747092386, 9.453120573423075, 90.54687942657694},
		{"srtf", Scope{Pooled: true}, 1, 1, false, -1.7529196424044293, 0.07961580146011343, -0.40546510810816444, 43.649717781352976, 96.99466302516933},
	}
	for _, tt := range rankTests {
		i := slices.IndexFunc(r.RankTests, func(row RankTestRow) bool {
			return row.Metric == "slr_max" && row.Policy == tt.policy && row.Scope == tt.scope
		})
		if i < 0 {
			t.Errorf("%s %+v: no rank-test row", tt.policy, tt.scope)
			continue
		}
		w, dom := r.RankTests[i], r.Dominance[i]
		if w.Zeros != tt.zeros || w.Statistic != tt.statistic || w.Exact != tt.exact || !agreesWithReference(w.Z, tt.z) ||
			!agreesWithReference(w.P, tt.p) || !w.HasEffect || !agreesWithReference(w.Effect.Estimate, tt.effect) ||
			w.Significant || w.TTestSignificant || !math.IsNaN(w.PAdjusted) {
			t.Errorf("%s %+v: rank test %+v; want %d zeros, T %v, exact %v, z %v, p %v, effect %v, neither test significant",
				tt.policy, tt.scope, w, tt.zeros, tt.statistic, tt.exact, tt.z, tt.p, tt.effect)
		}
		if dom.Policy != tt.policy || dom.Scope != tt.scope || !agreesWithReference(dom.Low, tt.domLow) || !agreesWithReference(dom.High, tt.domHigh) {
			t.Errorf("%s %+v: dominance %+v; want the Wilson interval [%v, %v]", tt.policy, tt.scope, dom, tt.domLow, tt.domHigh)
		}
	}

	// lrtf has no cell at 1.2, so no row there.
	if _, ok := r.FindDominance("slr_max", "lrtf", 1.2); ok {
		t.Error("lrtf at 1.2: a dominance row; want none (no lrtf cell at that load)")
	}
	// Cumulative completion is compared after re-basing: at load 1.0 pslr
	// has 700 against srtf's 500 in every pair, so the differences are all
	// 200 (t = +Inf, p = 0: significant) and pslr dominates (higher is
	// better).
	if row, ok := r.FindDominance("cumulative_completion", "srtf", 1); !ok || row.Percent != 100 || !row.Significant {
		t.Errorf("cumulative completion vs srtf at 1.0: %+v; want 100%%, significant", row)
	}

	// Box plot and mean of pslr's slr_max at 1.0, values 2 3 4 5:
	// numpy.quantile([2,3,4,5], [.25,.5,.75]) = [2.75 3.5 4.25]; no value is
	// beyond 1.5 IQR; scipy.stats.t.interval(0.95, 3, loc=3.5,
	// scale=scipy.stats.sem([2,3,4,5])) = (1.445739743239121, 5.5542602567608785).
	var box *BoxRow
	for i := range r.Boxes {
		if row := &r.Boxes[i]; row.Metric == "slr_max" && row.Policy == "pslr" && row.Scope == (Scope{Load: 1}) {
			box = row
		}
	}
	if box == nil || box.N != 4 || box.Q1 != 2.75 || box.Median != 3.5 || box.Q3 != 4.25 || box.WhiskerLow != 2 || box.WhiskerHigh != 5 || len(box.Outliers) != 0 || box.Mean != 3.5 {
		t.Errorf("box of pslr slr_max at 1.0: %+v; want quartiles 2.75 3.5 4.25, whiskers 2 and 5, mean 3.5", box)
	}
	mean, ok := r.FindByLoad("slr_max", "pslr", 1)
	if !ok || mean.N != 4 || mean.Mean != 3.5 || !agreesWithReference(mean.Low, 1.445739743239121) || !agreesWithReference(mean.High, 5.5542602567608785) {
		t.Errorf("mean of pslr slr_max at 1.0: %+v; want 3.5 in (1.445739743239121, 5.5542602567608785)", mean)
	}
	// pslr at 1.2 counts its unpaired cell too: 2.5 3.5 3.
	if mean, ok := r.FindByLoad("slr_max", "pslr", 1.2); !ok || mean.N != 3 || mean.Mean != 3 {
		t.Errorf("mean of pslr slr_max at 1.2: %+v; want n 3, mean 3", mean)
	}
}

func TestWriteTables(t *testing.T) {
	dir := resultstest.SmallRunDir(t)
	r, err := Analyze(dir, Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	// A stale file of an earlier analysis must disappear.
	if err := os.MkdirAll(filepath.Join(dir, AnalysisDir), 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, AnalysisDir, "stale.parquet")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tables := append(r.ComparisonTables(), r.ReplicateTables()...)
	for i := range tables {
		tables[i].Metadata = map[string]string{"reference": "pslr"}
	}
	paths, err := WriteDir(dir, tables)
	if err != nil {
		t.Fatal(err)
	}
	// No jobs table in this run, so no deciles.
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if want := []string{"ttest.parquet", "wilcoxon.parquet", "dominance.parquet", "boxplot.parquet", "by_load.parquet"}; !reflect.DeepEqual(names, want) {
		t.Errorf("wrote %v; want %v", names, want)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale file of the previous analysis: %v; want it gone", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "cells" && e.Name() != AnalysisDir {
			t.Errorf("left %s in the results directory", e.Name())
		}
	}

	set := readAnalysisTable(t, dir, "ttest", "metric", "load", "policy", "n", "t", "p", "significant")
	found := 0
	for i := range set.Rows {
		metric, policy := set.Columns[0].Strings[i], set.Columns[2].Strings[i]
		if metric != "slr_max" || policy != "srtf" {
			continue
		}
		found++
		if set.Columns[1].IsNull(i) {
			// The pooled row (see TestAnalyzeSmallRun for the reference).
			if n, tStat := set.Columns[3].Int64s[i], set.Columns[4].Float64s[i]; n != 6 || !agreesWithReference(tStat, -2.038588765750502) {
				t.Errorf("pooled srtf row: n %d, t %v; want 6, -2.038588765750502", n, tStat)
			}
		}
	}
	if found != 3 {
		t.Errorf("%d slr_max rows for srtf; want 3 (loads 1.0, 1.2, pooled)", found)
	}
	// lrtf at 1.0 has identical samples on the metrics left at 1: t and p
	// are undefined and stored as null.
	nulls := 0
	for i := range set.Rows {
		if set.Columns[0].Strings[i] == "flow" && set.Columns[4].IsNull(i) && set.Columns[5].IsNull(i) && set.Columns[6].Int64s[i] == 0 {
			nulls++
		}
	}
	if nulls != 5 {
		t.Errorf("%d flow rows with null t and p; want 5 (every comparison: all values are 1)", nulls)
	}

	// The pooled srtf comparison (references in TestAnalyzeSmallRun):
	// Wilcoxon p 0.07961580146011343 with no adjustment (null), 5 of 6
	// pairs dominated within [43.649717781352976, 96.99466302516933].
	wilcoxon := readAnalysisTable(t, dir, "wilcoxon", "metric", "load", "policy", "p", "p_adjusted", "log_ratio_median")
	dominance := readAnalysisTable(t, dir, "dominance", "metric", "load", "policy", "ci95_low", "ci95_high")
	for _, table := range []*parquet.ColumnSet{wilcoxon, dominance} {
		found = 0
		for i := range table.Rows {
			if table.Columns[0].Strings[i] != "slr_max" || table.Columns[2].Strings[i] != "srtf" || !table.Columns[1].IsNull(i) {
				continue
			}
			found++
			a, b := table.Columns[3], table.Columns[4]
			switch table {
			case wilcoxon:
				if !agreesWithReference(a.Float64s[i], 0.07961580146011343) || !b.IsNull(i) ||
					!agreesWithReference(table.Columns[5].Float64s[i], -0.40546510810816444) {
					t.Errorf("wilcoxon pooled srtf: p %v, p_adjusted null %v, effect %v", a.Float64s[i], b.IsNull(i), table.Columns[5].Float64s[i])
				}
			case dominance:
				if !agreesWithReference(a.Float64s[i], 43.649717781352976) || !agreesWithReference(b.Float64s[i], 96.99466302516933) {
					t.Errorf("dominance pooled srtf: interval [%v, %v]", a.Float64s[i], b.Float64s[i])
				}
			}
		}
		if found != 1 {
			t.Errorf("%d pooled slr_max srtf rows; want 1", found)
		}
	}

	boxes := readAnalysisTable(t, dir, "boxplot", "metric", "policy", "load", "outliers")
	if boxes.Rows == 0 || boxes.Columns[3].Type != store.TypeFloat64List {
		t.Errorf("boxplot: %d rows, outliers %v; want rows with list outliers", boxes.Rows, boxes.Columns[3].Type)
	}
}

// readAnalysisTable reads DIR/analysis/<table>.parquet through the store
// reader, which reads directories of parts: it links the file into one.
func readAnalysisTable(t *testing.T, dir, table string, columns ...string) *parquet.ColumnSet {
	t.Helper()
	view := t.TempDir()
	if err := os.Mkdir(filepath.Join(view, table), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, AnalysisDir, table+".parquet"), filepath.Join(view, table, "part-a-000001.parquet")); err != nil {
		t.Fatal(err)
	}
	set, problems, err := parquet.ReadColumns(view, table, columns)
	if err != nil || len(problems) > 0 {
		t.Fatalf("reading %s: %v %v", table, err, problems)
	}
	return set
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestAnalyzeHolm checks analysis.adjust: holm on the small run. The
// per-load slr_max comparisons are one family of m = 3 (see
// TestAnalyzeSmallRun for the raw p-values). t-tests: sorted 0.13284184055977563
// x 3 = 0.3985255216793269, then 0.7048327646991336 x 2 capped at 1, then 1.
// Wilcoxon: 0.10880943004054568 x 3 = 0.32642829012163704, then 1, 1.
func TestAnalyzeHolm(t *testing.T) {
	r, err := Analyze(resultstest.SmallRunDir(t), Settings{Adjust: AdjustHolm}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		policy               string
		load                 float64
		tAdjusted, wAdjusted float64
	}{
		{"srtf", 1, 0.3985255216793269, 0.32642829012163704},
		{"srtf", 1.2, 1, 1},
		{"lrtf", 1, 1, 1},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(r.TTests, func(row TTestRow) bool {
			return row.Metric == "slr_max" && row.Policy == tt.policy && !row.Pooled && row.Load == tt.load
		})
		if i < 0 {
			t.Fatalf("%s at %v: no row", tt.policy, tt.load)
		}
		if got := r.TTests[i].PAdjusted; !agreesWithReference(got, tt.tAdjusted) {
			t.Errorf("%s at %v: t-test p adjusted %v; want %v", tt.policy, tt.load, got, tt.tAdjusted)
		}
		if got := r.RankTests[i].PAdjusted; !agreesWithReference(got, tt.wAdjusted) {
			t.Errorf("%s at %v: Wilcoxon p adjusted %v; want %v", tt.policy, tt.load, got, tt.wAdjusted)
		}
	}
	// A p of 0 stays 0 after adjustment: cumulative completion against
	// srtf at 1.0 (every difference 200) is still significant.
	if row, ok := r.FindDominance("cumulative_completion", "srtf", 1); !ok || !row.Significant {
		t.Errorf("cumulative completion vs srtf at 1.0: %+v; want significant after Holm", row)
	}
}

// TestWriteDirOutliersAndOrder gives pslr one extreme cell at load 1.0
// (slr_max 50 among 2, 3, 4; slr_mean 25 among 1, 1.5, 2) and checks the
// box-plot outliers stored as lists: by hand, type-7 quartiles of 2, 3, 4,
// 50 are 2.75 and 15.5, so the upper fence is 15.5 + 1.5 x 12.75 =
// 34.625 and 50 is the one outlier; of 1, 1.5, 2, 25 they are 1.375 and
// 7.75, fence 17.3125, outlier 25; srtf's 3, 3, 6, 9 has none (an empty
// list, not null). The analysis tables state the cells' policy order,
// for the policy and reference columns alike.
func TestWriteDirOutliersAndOrder(t *testing.T) {
	cells := resultstest.SmallRun()
	for i, c := range cells {
		if c.Policy == "pslr" && c.Load == 1 && c.Instance == 3 {
			cells[i].Values = map[string]float64{"slr_max": 50, "slr_mean": 25, "cumulative_completion": 500}
		}
	}
	dir := t.TempDir()
	order := []string{"srtf", "lrtf", "pslr"}
	resultstest.WriteCellsInOrder(t, dir, order, cells)
	r, err := Analyze(dir, Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir, r.ComparisonTables()); err != nil {
		t.Fatal(err)
	}
	boxes := readAnalysisTable(t, dir, "boxplot", "metric", "policy", "load", "outliers")
	want := map[string][]float64{"slr_max pslr 1": {50}, "slr_mean pslr 1": {25}, "slr_max srtf 1": {}}
	for i := range boxes.Rows {
		if boxes.Columns[2].IsNull(i) {
			continue
		}
		key := fmt.Sprintf("%s %s %v", boxes.Columns[0].Strings[i], boxes.Columns[1].Strings[i], boxes.Columns[2].Float64s[i])
		if w, ok := want[key]; ok {
			if got := boxes.Columns[3].Value(i); got.IsNull() || !reflect.DeepEqual(got.Any(), w) {
				t.Errorf("%s: outliers %v, want %v", key, got, w)
			}
			delete(want, key)
		}
	}
	if len(want) > 0 {
		t.Errorf("no box-plot rows for %v", want)
	}
	categories, err := CellCategories(dir)
	if err != nil || !reflect.DeepEqual(categories, map[string][]string{"policy": order}) {
		t.Fatalf("cells categories %v (%v), want policy %v", categories, err, order)
	}
	view := t.TempDir()
	os.Mkdir(filepath.Join(view, "dominance"), 0o755)
	if err := os.Link(filepath.Join(dir, AnalysisDir, "dominance.parquet"), filepath.Join(view, "dominance", "part-a-000001.parquet")); err != nil {
		t.Fatal(err)
	}
	parts, _, err := parquet.ListParts(view, "dominance")
	if err != nil || len(parts) != 1 {
		t.Fatalf("dominance: %v, %d parts", err, len(parts))
	}
	if got, want := parts[0].Metadata[store.CategoriesKey], `{"policy":["srtf","lrtf","pslr"],"reference":["srtf","lrtf","pslr"]}`; got != want {
		t.Errorf("dominance categories %s, want %s", got, want)
	}
}
