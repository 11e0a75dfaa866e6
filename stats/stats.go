package stats

import (
	"fmt"
	"math"
	"slices"

	"github.com/montanaflynn/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// The statistics below share one rule for missing values: a NaN marks a
// value that was not measured (a failed cell, an undefined metric), so it is
// dropped and counted in the result's Excluded field rather than silently
// skewing or poisoning the result. Having no usable value at all is an error
// (there is nothing to summarise); having too few for a spread-based quantity
// makes that quantity NaN, as scipy does.

// TTest is the result of a two-sided paired (repeated-measures) t-test of
// ref against other, the test seed 004 (Sec. 4.2) uses to compare policies on
// the same workloads and loads.
type TTest struct {
	// N is the number of pairs used.
	N int
	// Excluded is the number of pairs dropped because either side was NaN.
	Excluded int
	// MeanDiff is the mean of ref[i]-other[i] over the pairs used.
	MeanDiff float64
	// T is the t statistic MeanDiff / (SD of the differences / sqrt(N)).
	T float64
	// DF is the degrees of freedom, N-1.
	DF int
	// P is the two-sided p-value.
	P float64
}

// PairedTTest runs a two-sided paired t-test of ref against other, matching
// scipy.stats.ttest_rel(ref, other) on the pairs where both values are
// present. The p-value comes from gonum's Student t distribution.
//
// Pairs where either value is NaN are dropped and counted in Excluded
// (scipy's nan_policy='omit', applied pairwise). The degenerate cases follow
// scipy rather than raising errors, so a table of many comparisons can still
// be filled in:
//   - N == 1: MeanDiff is the single difference, T and P are NaN, DF is 0.
//   - all differences zero: T and P are NaN (0/0), since the data carry no
//     evidence either way.
//   - all differences equal and nonzero: the SD is 0, so T is ±Inf and P is 0.
//     This is detected exactly, where scipy can report a huge finite T
//     because the rounded mean of equal values differs from them.
//
// It returns an error if the slices differ in length or no pair is left.
func PairedTTest(ref, other []float64) (TTest, error) {
	diffs, excluded, err := pairedDifferences(ref, other)
	if err != nil {
		return TTest{}, fmt.Errorf("paired t-test: %w", err)
	}
	result := TTest{N: len(diffs), Excluded: excluded, DF: len(diffs) - 1}
	result.MeanDiff, err = stats.Mean(diffs)
	if err != nil {
		return TTest{}, fmt.Errorf("paired t-test: mean of differences: %w", err)
	}
	if result.N < 2 {
		result.T, result.P = math.NaN(), math.NaN()
		return result, nil
	}
	if !slices.ContainsFunc(diffs, func(d float64) bool { return d != diffs[0] }) {
		// Equal differences have an SD of exactly 0, but their rounded mean
		// can differ from them and leave a spurious variance near 1e-34
		// (scipy then reports t near 1e16), so settle this case exactly.
		result.MeanDiff = diffs[0]
		if diffs[0] == 0 {
			result.T, result.P = math.NaN(), math.NaN()
			return result, nil
		}
		result.T, result.P = math.Copysign(math.Inf(1), diffs[0]), 0
		return result, nil
	}
	variance, err := stats.SampleVariance(diffs)
	if err != nil {
		return TTest{}, fmt.Errorf("paired t-test: variance of differences: %w", err)
	}
	// Same operation order as scipy (mean / sqrt(var/n)), so results differ
	// from scipy's only through the rounding of the mean and variance.
	result.T = result.MeanDiff / math.Sqrt(variance/float64(result.N))
	if math.IsNaN(result.T) {
		// Infinite inputs can get here; gonum's incomplete beta does not
		// accept NaN, and the test is undefined anyway.
		result.P = math.NaN()
		return result, nil
	}
	studentT := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(result.DF)}
	result.P = 2 * studentT.CDF(-math.Abs(result.T))
	return result, nil
}

// pairedDifferences returns ref[i]-other[i] for every pair with no NaN side
// and the number of pairs dropped.
func pairedDifferences(ref, other []float64) (diffs []float64, excluded int, err error) {
	if err := checkPairs(ref, other); err != nil {
		return nil, 0, err
	}
	diffs = make([]float64, 0, len(ref))
	for i := range ref {
		if math.IsNaN(ref[i]) || math.IsNaN(other[i]) {
			excluded++
			continue
		}
		diffs = append(diffs, ref[i]-other[i])
	}
	if len(diffs) == 0 {
		return nil, excluded, noPairsError(len(ref), excluded)
	}
	return diffs, excluded, nil
}

func checkPairs(ref, other []float64) error {
	if len(ref) != len(other) {
		return fmt.Errorf("ref has %d values but other has %d; paired data need one value of each per instance", len(ref), len(other))
	}
	return nil
}

func noPairsError(pairs, excluded int) error {
	return fmt.Errorf("no usable pair among %d (%d had a NaN side); need at least one pair with both values present", pairs, excluded)
}

// Dom is the dominance of ref over other (seed 004, Tables 3 and 4).
type Dom struct {
	// N is the number of pairs compared.
	N int
	// Excluded is the number of pairs dropped because either side was NaN.
	Excluded int
	// Wins is the number of pairs where ref is at least as good as other.
	Wins int
	// Percent is 100 * Wins / N.
	Percent float64
	// Low and High bound the Wilson 95% interval of Percent (see
	// WilsonInterval), in percent.
	Low, High float64
}

// DominanceLevel is the confidence level of the dominance intervals.
const DominanceLevel = 0.95

// Dominance returns the share of pairs in which ref is at least as good as
// other: ref <= other when lowerIsBetter (SLR, stretch), ref >= other
// otherwise (utilisation, speedup). Ties count for ref, as in seed 004
// ("less than or equal to"). The share has its Wilson interval at
// DominanceLevel. Pairs with a NaN side are dropped and counted in
// Excluded. It returns an error if the slices differ in length or no pair is
// left.
func Dominance(ref, other []float64, lowerIsBetter bool) (Dom, error) {
	if err := checkPairs(ref, other); err != nil {
		return Dom{}, fmt.Errorf("dominance: %w", err)
	}
	var result Dom
	for i := range ref {
		switch {
		case math.IsNaN(ref[i]) || math.IsNaN(other[i]):
			result.Excluded++
			continue
		case lowerIsBetter && ref[i] <= other[i], !lowerIsBetter && ref[i] >= other[i]:
			result.Wins++
		}
		result.N++
	}
	if result.N == 0 {
		return Dom{}, fmt.Errorf("dominance: %w", noPairsError(len(ref), result.Excluded))
	}
	result.Percent = 100 * float64(result.Wins) / float64(result.N)
	interval, err := WilsonInterval(result.Wins, result.N, DominanceLevel)
	if err != nil {
		return Dom{}, fmt.Errorf("dominance: %w", err)
	}
	result.Low, result.High = 100*interval.Low, 100*interval.High
	return result, nil
}

// Quantile returns the p-quantile (0 <= p <= 1) of sorted, which must be in
// ascending order and free of NaN, using linear interpolation between order
// statistics: Hyndman and Fan's type 7, the default method of
// numpy.quantile and numpy.percentile (and of R's quantile). It returns NaN
// for an empty slice or p outside [0, 1].
//
// Neither montanaflynn/stats (nearest-rank style percentiles) nor gonum
// (types 1 and 4) offers type 7, hence this implementation, which mirrors
// numpy's arithmetic so results agree to the last bit.
func Quantile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	virtualIndex := float64(len(sorted)-1) * p
	below := math.Floor(virtualIndex)
	lo := int(below)
	hi := min(lo+1, len(sorted)-1)
	weight := virtualIndex - below
	a, b := sorted[lo], sorted[hi]
	// numpy interpolates from the nearer neighbour, which loses less
	// precision when the weight is close to 1; doing the same keeps the
	// results bit-identical to numpy's.
	if weight >= 0.5 {
		return b - (b-a)*(1-weight)
	}
	return a + (b-a)*weight
}

// Box is a Tukey box-plot summary, as drawn in seed 004's Figs 6 and 8-12.
type Box struct {
	// N is the number of values summarised.
	N int
	// Excluded is the number of NaN values dropped.
	Excluded int
	// Min is the smallest value.
	Min float64
	// Q1, Median and Q3 are the 0.25, 0.5 and 0.75 quantiles (see Quantile).
	Q1     float64
	Median float64
	Q3     float64
	// Max is the largest value.
	Max float64
	// WhiskerLow and WhiskerHigh are the most extreme values within 1.5
	// interquartile ranges below Q1 and above Q3.
	WhiskerLow  float64
	WhiskerHigh float64
	// Outliers are the values beyond the whiskers, in ascending order.
	Outliers []float64
	// Mean is the arithmetic mean.
	Mean float64
}

// BoxPlot summarises xs for a box plot, with quartiles by Quantile and
// Tukey's 1.5 IQR whiskers (the convention of matplotlib's boxplot). NaN
// values are dropped and counted in Excluded. It returns an error if no value
// is left.
func BoxPlot(xs []float64) (Box, error) {
	sorted, excluded := withoutNaN(xs)
	slices.Sort(sorted)
	if len(sorted) == 0 {
		return Box{}, fmt.Errorf("box plot: %w", noValuesError(len(xs)))
	}
	mean, err := stats.Mean(sorted)
	if err != nil {
		return Box{}, fmt.Errorf("box plot: mean: %w", err)
	}
	box := Box{
		N:        len(sorted),
		Excluded: excluded,
		Min:      sorted[0],
		Q1:       Quantile(sorted, 0.25),
		Median:   Quantile(sorted, 0.5),
		Q3:       Quantile(sorted, 0.75),
		Max:      sorted[len(sorted)-1],
		Mean:     mean,
	}
	reach := 1.5 * (box.Q3 - box.Q1)
	lowFence, highFence := box.Q1-reach, box.Q3+reach
	// Both searches succeed: Min <= Q1 <= Q3 <= Max, so the fences cannot
	// exclude every value.
	low := slices.IndexFunc(sorted, func(x float64) bool { return x >= lowFence })
	high := len(sorted) - 1
	for sorted[high] > highFence {
		high--
	}
	box.WhiskerLow, box.WhiskerHigh = sorted[low], sorted[high]
	box.Outliers = append(slices.Clone(sorted[:low]), sorted[high+1:]...)
	return box, nil
}

// MeanInterval is a sample mean with a two-sided Student t confidence
// interval.
type MeanInterval struct {
	// N is the number of values used.
	N int
	// Excluded is the number of NaN values dropped.
	Excluded int
	// Mean is the sample mean.
	Mean float64
	// Low and High bound the interval.
	Low  float64
	High float64
}

// MeanCI returns the mean of xs with its two-sided confidence interval at
// level (e.g. 0.95): Mean ± t(df=N-1, (1+level)/2) * s / sqrt(N), where s is
// the sample standard deviation (divisor N-1): the interval of
// scipy.stats.t.interval(level, N-1, loc=mean, scale=scipy.stats.sem(xs)),
// though more precise, since gonum's t quantile is accurate to the last bits
// where scipy 1.10's is accurate to about 1e-11 relative.
// NaN values are dropped and counted in Excluded. With N == 1 the spread is
// unknown, so Low and High are NaN. It returns an error if level is not
// strictly between 0 and 1 or no value is left.
func MeanCI(xs []float64, level float64) (MeanInterval, error) {
	if !(level > 0 && level < 1) {
		return MeanInterval{}, fmt.Errorf("mean confidence interval: level %v is not strictly between 0 and 1 (e.g. 0.95)", level)
	}
	values, excluded := withoutNaN(xs)
	if len(values) == 0 {
		return MeanInterval{}, fmt.Errorf("mean confidence interval: %w", noValuesError(len(xs)))
	}
	mean, err := stats.Mean(values)
	if err != nil {
		return MeanInterval{}, fmt.Errorf("mean confidence interval: mean: %w", err)
	}
	result := MeanInterval{N: len(values), Excluded: excluded, Mean: mean, Low: math.NaN(), High: math.NaN()}
	if result.N < 2 {
		return result, nil
	}
	sd, err := stats.StandardDeviationSample(values)
	if err != nil {
		return MeanInterval{}, fmt.Errorf("mean confidence interval: standard deviation: %w", err)
	}
	studentT := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(result.N - 1)}
	halfWidth := studentT.Quantile((1+level)/2) * sd / math.Sqrt(float64(result.N))
	result.Low, result.High = mean-halfWidth, mean+halfWidth
	return result, nil
}

func withoutNaN(xs []float64) (values []float64, excluded int) {
	values = make([]float64, 0, len(xs))
	for _, x := range xs {
		if math.IsNaN(x) {
			excluded++
			continue
		}
		values = append(values, x)
	}
	return values, excluded
}

func noValuesError(total int) error {
	return fmt.Errorf("no usable value: all %d values are NaN; need at least one number", total)
}
