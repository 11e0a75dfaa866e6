package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapResamples is the number of resamples of the percentile
// bootstraps sweep reports (issues 11 and 15).
const BootstrapResamples = 2000

// BootstrapInterval is a statistic of a sample with its percentile
// bootstrap confidence interval.
type BootstrapInterval struct {
	// Estimate is the statistic of the sample itself.
	Estimate float64
	// Low and High bound the interval; NaN when fewer than two
	// resamples gave a number.
	Low, High float64
	// Resamples is the number of resamples drawn; Undefined of them gave
	// NaN (a statistic undefined on that resample) and were left out.
	Resamples int
	Undefined int
}

// PercentileBootstrap returns statistic on the sample 0..n-1 and its
// two-sided percentile bootstrap interval at level (e.g. 0.95): the
// statistic is recomputed on resamples draws of n indices with
// replacement, and the interval is the (1-level)/2 and (1+level)/2
// quantiles of those values (Quantile, numpy's default percentile, as in
// scipy.stats.bootstrap(method='percentile')).
//
// The statistic receives indices into the caller's data rather than
// values, so paired data (resample pairs, not each side alone) and
// several columns resample together; it must not keep the slice, which is
// reused. The draws come from a PCG generator seeded with seed alone, so
// one seed always gives one interval.
//
// It returns an error if n < 1, resamples < 1 or level is not strictly
// between 0 and 1.
func PercentileBootstrap(n int, statistic func(sample []int) float64, resamples int, level float64, seed uint64) (BootstrapInterval, error) {
	switch {
	case n < 1:
		return BootstrapInterval{}, fmt.Errorf("bootstrap: sample of %d; need at least 1 value", n)
	case resamples < 1:
		return BootstrapInterval{}, fmt.Errorf("bootstrap: %d resamples; need at least 1 (e.g. %d)", resamples, BootstrapResamples)
	case !(level > 0 && level < 1):
		return BootstrapInterval{}, fmt.Errorf("bootstrap: level %v is not strictly between 0 and 1 (e.g. 0.95)", level)
	}
	sample := make([]int, n)
	for i := range sample {
		sample[i] = i
	}
	result := BootstrapInterval{Estimate: statistic(sample), Resamples: resamples, Low: math.NaN(), High: math.NaN()}
	// The second PCG word is a fixed stream constant: the seed alone picks
	// the draws.
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	values := make([]float64, 0, resamples)
	for range resamples {
		for i := range sample {
			sample[i] = rng.IntN(n)
		}
		if v := statistic(sample); math.IsNaN(v) {
			result.Undefined++
		} else {
			values = append(values, v)
		}
	}
	if len(values) < 2 {
		return result, nil
	}
	slices.Sort(values)
	result.Low = Quantile(values, (1-level)/2)
	result.High = Quantile(values, (1+level)/2)
	return result, nil
}
