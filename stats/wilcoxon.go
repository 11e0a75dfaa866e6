package stats

import (
	"fmt"
	"math"
	"slices"
)

// WilcoxonExactMaxPairs is the largest number of pairs whose Wilcoxon
// p-value comes from the exact distribution (scipy 1.10's method='auto').
const WilcoxonExactMaxPairs = 50

// Wilcoxon is the result of a two-sided Wilcoxon signed-rank test on paired
// differences.
type Wilcoxon struct {
	// N is the number of pairs with both values; Zeros of them had a zero
	// difference and were dropped before ranking (zero_method='wilcox').
	N     int
	Zeros int
	// Excluded is the number of pairs dropped because either side was NaN.
	Excluded int
	// Statistic is T = min(R+, R-), the smaller of the sums of the ranks of
	// |d| over the positive and the negative differences.
	Statistic float64
	// Exact says the p-value comes from the exact null distribution of R+;
	// otherwise from the normal approximation, whose statistic is Z (NaN
	// when exact).
	Exact bool
	Z     float64
	// P is the two-sided p-value.
	P float64
}

// WilcoxonSignedRank runs the two-sided Wilcoxon signed-rank test of the
// differences ref[i]-other[i], with the defaults of scipy 1.10's
// scipy.stats.wilcoxon(ref, other): zero_method='wilcox', correction=False,
// method='auto'. With d the differences, zeros dropped, and n the number
// left, R+ and R- are the sums of the average ranks of |d| over the
// positive and negative d, and T = min(R+, R-).
//
//   - Exact, when there are at most WilcoxonExactMaxPairs pairs, no zero
//     difference and no tie among |d|: R+ takes each subset sum of 1..n
//     with probability 2⁻ⁿ; p = min(1, 2·min(P(R+ <= r), P(R+ >= r))) for
//     the observed r = R+, and p = 1 at the centre n(n+1)/4.
//   - Otherwise the normal approximation with the tie correction and no
//     continuity correction: z = (T - n(n+1)/4) / σ,
//     σ² = (n(n+1)(2n+1) - ½ Σ t(t²-1)) / 24 over the groups of t tied
//     |d|, and p = 2·(1 - Φ(|z|)).
//
// This is scipy 1.10's rule, except that scipy 1.10 also uses the exact
// distribution when |d| has ties (truncating the average-rank R+ to an
// integer, a distribution that assumes no ties); here ties take the normal
// approximation, as issue 15 specifies and later scipy versions do.
//
// Pairs where either value is NaN are dropped and counted in Excluded. When
// every difference is zero (scipy raises an error) the data carry no
// evidence either way: T is 0 and P is NaN. It returns an error if the
// slices differ in length or no pair is left.
func WilcoxonSignedRank(ref, other []float64) (Wilcoxon, error) {
	diffs, excluded, err := pairedDifferences(ref, other)
	if err != nil {
		return Wilcoxon{}, fmt.Errorf("wilcoxon signed-rank test: %w", err)
	}
	result := Wilcoxon{N: len(diffs), Excluded: excluded, Z: math.NaN()}
	nonzero := make([]float64, 0, len(diffs))
	for _, d := range diffs {
		if d == 0 {
			result.Zeros++
			continue
		}
		nonzero = append(nonzero, d)
	}
	if len(nonzero) == 0 {
		result.P = math.NaN()
		return result, nil
	}
	ranks, tieGroups := averageRanks(nonzero)
	var rPlus, rMinus float64
	for i, d := range nonzero {
		if d > 0 {
			rPlus += ranks[i]
		} else {
			rMinus += ranks[i]
		}
	}
	result.Statistic = min(rPlus, rMinus)
	n := float64(len(nonzero))
	if len(diffs) <= WilcoxonExactMaxPairs && result.Zeros == 0 && len(tieGroups) == 0 {
		result.Exact = true
		result.P = exactSignedRankP(len(nonzero), int(rPlus))
		return result, nil
	}
	mean := n * (n + 1) * 0.25
	variance := n * (n + 1) * (2*n + 1)
	for _, t := range tieGroups {
		tf := float64(t)
		variance -= 0.5 * tf * (tf*tf - 1)
	}
	result.Z = (result.Statistic - mean) / math.Sqrt(variance/24)
	// 2·(1-Φ(|z|)) = erfc(|z|/√2), without the cancellation of 1-Φ.
	result.P = math.Erfc(math.Abs(result.Z) / math.Sqrt2)
	return result, nil
}

// averageRanks returns the ranks (1-based) of |xs|, ties given the average
// of the ranks they span (scipy's rankdata), and the sizes of the groups of
// two or more tied values.
func averageRanks(xs []float64) (ranks []float64, tieGroups []int) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := math.Abs(xs[a]), math.Abs(xs[b])
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	ranks = make([]float64, len(xs))
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && math.Abs(xs[order[end]]) == math.Abs(xs[order[start]]) {
			end++
		}
		// Ranks start+1..end average to (start+1+end)/2.
		average := float64(start+1+end) / 2
		for _, i := range order[start:end] {
			ranks[i] = average
		}
		if end-start > 1 {
			tieGroups = append(tieGroups, end-start)
		}
		start = end
	}
	return ranks, tieGroups
}

// exactSignedRankP returns the two-sided p-value of R+ = rPlus among n
// untied nonzero differences. The null distribution is counted exactly:
// counts[s] is the number of subsets of {1..n} summing to s, below 2^50
// for n <= 50, so every count and partial sum is an exact float64.
func exactSignedRankP(n, rPlus int) float64 {
	total := n * (n + 1) / 2
	counts := make([]float64, total+1)
	counts[0] = 1
	for k := 1; k <= n; k++ {
		for s := k * (k + 1) / 2; s >= k; s-- {
			counts[s] += counts[s-k]
		}
	}
	if 2*rPlus == total {
		return 1
	}
	var below, above float64
	for s, c := range counts {
		if s <= rPlus {
			below += c
		}
		if s >= rPlus {
			above += c
		}
	}
	return min(1, 2*min(below, above)/math.Ldexp(1, n))
}
