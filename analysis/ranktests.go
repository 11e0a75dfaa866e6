package analysis

import (
	"math"
	"strconv"

	"github.com/sweep-sched/sweep/stats"
)

// EffectLevel is the confidence level of the effect sizes' bootstrap
// intervals.
const EffectLevel = 0.95

// RankTestRow is one row of wilcoxon.parquet: the Wilcoxon signed-rank
// test and the paired effect size of the reference against Policy on
// Metric within Scope, beside the paired t-test of the same comparison.
type RankTestRow struct {
	Metric string
	Scope
	Reference, Policy string
	stats.Wilcoxon
	// PAdjusted is P after Settings.Adjust (NaN without an adjustment).
	PAdjusted float64
	// Significant says the (adjusted) p-value is below alpha.
	Significant bool
	// TTestSignificant is the significance of the t-test of the same
	// comparison; DisagreesWithTTest reports the two differing.
	TTestSignificant bool
	// Effect is the median of log(reference/policy) with its bootstrap
	// interval; HasEffect is false when no pair had two positive values.
	Effect    stats.LogRatioEffect
	HasEffect bool
}

// DisagreesWithTTest reports whether the rank test and the t-test reach
// different conclusions at alpha.
func (r RankTestRow) DisagreesWithTTest() bool { return r.Significant != r.TTestSignificant }

// rankTest compares ref with other on metric within scope: the Wilcoxon
// test and the effect size, whose bootstrap draws come from a seed derived
// from the comparison's identity alone, so that a comparison's interval
// does not depend on which other comparisons the run holds. It returns
// false when no pair has two values.
func rankTest(metric string, scope Scope, reference, policy string, ref, other []float64) (RankTestRow, bool) {
	test, err := stats.WilcoxonSignedRank(ref, other)
	if err != nil {
		return RankTestRow{}, false
	}
	row := RankTestRow{Metric: metric, Scope: scope, Reference: reference, Policy: policy, Wilcoxon: test, PAdjusted: math.NaN()}
	if effect, err := stats.MedianLogRatio(ref, other, EffectLevel, comparisonSeed(metric, scope, reference, policy)); err == nil {
		row.Effect, row.HasEffect = effect, true
	}
	return row, true
}

// comparisonSeed names a comparison (metric, load or "pooled",
// reference, policy) as the seed of its bootstrap.
func comparisonSeed(metric string, scope Scope, reference, policy string) [2]uint64 {
	load := "pooled"
	if !scope.Pooled {
		load = strconv.FormatFloat(scope.Load, 'g', -1, 64)
	}
	return stats.BootstrapSeed("effect", metric, load, reference, policy)
}

// adjustPValues applies Settings.Adjust to the t-tests and rank tests and
// sets every row's significance from the adjusted p-values. A family is
// the comparisons of one table: the per-load rows of one metric (every
// policy and load, as in seed 004's Tables 3 and 4); the pooled rows of a
// metric are a family of their own.
func (r *Result) adjustPValues() {
	type family struct {
		metric string
		pooled bool
	}
	tTests := map[family][]int{}
	rankTests := map[family][]int{}
	var order []family
	for i, t := range r.TTests {
		f := family{t.Metric, t.Pooled}
		if _, ok := tTests[f]; !ok {
			order = append(order, f)
		}
		tTests[f] = append(tTests[f], i)
	}
	for i, t := range r.RankTests {
		f := family{t.Metric, t.Pooled}
		rankTests[f] = append(rankTests[f], i)
	}
	if r.Settings.Adjust == AdjustHolm {
		for _, f := range order {
			ps := make([]float64, len(tTests[f]))
			for k, i := range tTests[f] {
				ps[k] = r.TTests[i].P
			}
			for k, p := range stats.HolmAdjust(ps) {
				r.TTests[tTests[f][k]].PAdjusted = p
			}
			ps = make([]float64, len(rankTests[f]))
			for k, i := range rankTests[f] {
				ps[k] = r.RankTests[i].P
			}
			for k, p := range stats.HolmAdjust(ps) {
				r.RankTests[rankTests[f][k]].PAdjusted = p
			}
		}
	}
	// Rows are appended in step (one t-test, dominance row and rank test
	// per comparison with pairs), so index i is one comparison throughout.
	for i := range r.TTests {
		t := &r.TTests[i]
		t.Significant = t.EffectiveP() < r.Settings.Alpha // false for NaN
		r.Dominance[i].Significant = t.Significant
		rank := &r.RankTests[i]
		rank.Significant = rank.EffectiveP() < r.Settings.Alpha
		rank.TTestSignificant = t.Significant
	}
}

// EffectiveP is the p-value significance is read from: the adjusted one
// when there is an adjustment.
func (t TTestRow) EffectiveP() float64 {
	if !math.IsNaN(t.PAdjusted) {
		return t.PAdjusted
	}
	return t.P
}

// EffectiveP is the p-value significance is read from: the adjusted one
// when there is an adjustment.
func (r RankTestRow) EffectiveP() float64 {
	if !math.IsNaN(r.PAdjusted) {
		return r.PAdjusted
	}
	return r.P
}

// FindRankTest returns the rank-test row of metric, policy and load.
func (r *Result) FindRankTest(metric, policy string, load float64) (RankTestRow, bool) {
	for _, row := range r.RankTests {
		if row.Metric == metric && row.Policy == policy && !row.Pooled && row.Load == load {
			return row, true
		}
	}
	return RankTestRow{}, false
}
