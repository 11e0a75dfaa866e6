package stats

import (
	"fmt"
	"math"
	"slices"
)

// LogRatioEffect is the paired effect size of ref against other: the
// median over pairs of log(ref/other), with its percentile bootstrap
// interval. exp(Estimate) is the typical factor between the two policies
// on one instance: 0.5 says ref's value is half of other's.
type LogRatioEffect struct {
	// N is the number of pairs used; Excluded were dropped because a side
	// was NaN or not positive (a log ratio needs two positive values).
	N        int
	Excluded int
	BootstrapInterval
}

// MedianLogRatio returns the median of log(ref[i]/other[i]) (Quantile at
// 0.5, so the mean of the middle two of an even count) with its
// percentile bootstrap interval at level over BootstrapResamples
// resamples of the pairs, drawn from seed (see PercentileBootstrap).
// Pairs with a NaN or non-positive side are dropped and counted in
// Excluded. It returns an error if the slices differ in length or no pair
// is left.
func MedianLogRatio(ref, other []float64, level float64, seed [2]uint64) (LogRatioEffect, error) {
	if err := checkPairs(ref, other); err != nil {
		return LogRatioEffect{}, fmt.Errorf("median log ratio: %w", err)
	}
	var effect LogRatioEffect
	logRatios := make([]float64, 0, len(ref))
	for i := range ref {
		if !(ref[i] > 0 && other[i] > 0) || math.IsInf(ref[i], 0) || math.IsInf(other[i], 0) {
			effect.Excluded++
			continue
		}
		logRatios = append(logRatios, math.Log(ref[i]/other[i]))
	}
	if len(logRatios) == 0 {
		return LogRatioEffect{}, fmt.Errorf("median log ratio: no usable pair among %d (%d had a NaN, infinite or non-positive side); need two positive values", len(ref), effect.Excluded)
	}
	effect.N = len(logRatios)
	// Sorted once, the median of a resample is read off its indices: a
	// counting sort of n indices is O(n), where sorting values would cost
	// O(n log n) in each of the 2,000 resamples.
	slices.Sort(logRatios)
	counts := make([]int, len(logRatios))
	median := func(sample []int) float64 {
		clear(counts)
		for _, i := range sample {
			counts[i]++
		}
		lo, hi := (len(sample)-1)/2, len(sample)/2
		var a, b float64
		seen := 0
		for i, c := range counts {
			if seen <= lo && lo < seen+c {
				a = logRatios[i]
			}
			if seen <= hi && hi < seen+c {
				b = logRatios[i]
				break
			}
			seen += c
		}
		return Quantile([]float64{a, b}, 0.5)
	}
	intervals, err := PercentileBootstrap(len(logRatios), BootstrapResamples, seed, level, median)
	if err != nil {
		return LogRatioEffect{}, fmt.Errorf("median log ratio: %w", err)
	}
	effect.BootstrapInterval = intervals[0]
	return effect, nil
}
