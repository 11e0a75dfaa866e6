package stats

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// BootstrapResamples is the number of resamples of the campaign
// comparisons' bootstrap intervals (issue 11).
const BootstrapResamples = 2000

// A BootstrapInterval is a statistic's value on the sample and its
// percentile bootstrap confidence interval.
type BootstrapInterval struct {
	Estimate  float64 // the statistic on the sample itself
	Low, High float64 // NaN when no resample gave a value
}

// BootstrapSeed derives the two words of a bootstrap's random stream
// from the strings that name what is resampled (a workload and its
// policies, say), so that the same analysis draws the same resamples
// wherever and however often it runs.
func BootstrapSeed(names ...string) [2]uint64 {
	sum := sha256.Sum256([]byte("sweep-bootstrap\x00" + strings.Join(names, "\x00")))
	return [2]uint64{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])}
}

// BootstrapIndices calls visit with each of resamples resamples of n
// indices drawn uniformly with replacement, in order, from the PCG stream
// seeded by seed: resample r is the draws r x n to r x n + n - 1 of
// rand.IntN(n). visit must not keep the slice, which is reused.
func BootstrapIndices(n, resamples int, seed [2]uint64, visit func(resample int, indices []int)) {
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	indices := make([]int, n)
	for r := range resamples {
		for i := range indices {
			indices[i] = rng.IntN(n)
		}
		visit(r, indices)
	}
}

// PercentileBootstrap computes the percentile bootstrap intervals at
// confidence level (0.95: the 2.5th and 97.5th percentiles) of statistics
// of a sample of n items, from resamples resamples of the items drawn by
// BootstrapIndices with seed. Every statistic sees the same resamples, so
// a statistic of paired items (the difference of two policies' means over
// the same campaigns) is resampled by pairs. A statistic returns NaN when
// it is undefined on a resample (a mean of nothing); those resamples are
// left out of its interval. Percentiles interpolate linearly between order
// statistics (Quantile: numpy's default).
func PercentileBootstrap(n, resamples int, seed [2]uint64, level float64, statistics ...func(indices []int) float64) ([]BootstrapInterval, error) {
	return PercentileBootstraps(n, resamples, seed, level, len(statistics), func(indices []int, values []float64) {
		for s, stat := range statistics {
			values[s] = stat(indices)
		}
	})
}

// PercentileBootstraps is PercentileBootstrap for k statistics that
// statistic computes together, writing the k values of the items picked
// by indices into values (interval s is of values[s]): statistics that
// share work (counts, sums, a difference of two others) then do it once
// per resample. The resamples and intervals are PercentileBootstrap's.
func PercentileBootstraps(n, resamples int, seed [2]uint64, level float64, k int, statistic func(indices []int, values []float64)) ([]BootstrapInterval, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("bootstrap: %d items; want at least 1", n)
	case resamples < 1:
		return nil, fmt.Errorf("bootstrap: %d resamples; want at least 1", resamples)
	case !(level > 0 && level < 1):
		return nil, fmt.Errorf("bootstrap: confidence level %v; want one in (0, 1)", level)
	}
	identity := make([]int, n)
	for i := range identity {
		identity[i] = i
	}
	current := make([]float64, k)
	statistic(identity, current)
	out := make([]BootstrapInterval, k)
	values := make([][]float64, k)
	for s := range out {
		out[s].Estimate = current[s]
		values[s] = make([]float64, 0, resamples)
	}
	BootstrapIndices(n, resamples, seed, func(_ int, indices []int) {
		statistic(indices, current)
		for s, v := range current {
			if v == v { // not NaN
				values[s] = append(values[s], v)
			}
		}
	})
	tail := (1 - level) / 2
	for s, v := range values {
		slices.Sort(v)
		out[s].Low, out[s].High = Quantile(v, tail), Quantile(v, 1-tail)
	}
	return out, nil
}
