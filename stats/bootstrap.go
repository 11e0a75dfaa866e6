package stats

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sweep-sched/sweep/internal/draw"
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
	draw := newResampler(n, seed)
	indices := make([]int, n)
	for r := range resamples {
		draw(indices)
		visit(r, indices)
	}
}

// newResampler returns the function that fills indices with the next
// resample of BootstrapIndices' stream.
func newResampler(n int, seed [2]uint64) func(indices []int) {
	if is32bit {
		// rand.Rand draws from 32 bits there: keep its stream.
		rng := rand.New(rand.NewPCG(seed[0], seed[1]))
		return func(indices []int) {
			for i := range indices {
				indices[i] = rng.IntN(n)
			}
		}
	}
	// rand.Rand's IntN draws, without its interface call: the draws were
	// more than half of seed 004's analysis.
	pcg := rand.NewPCG(seed[0], seed[1])
	return func(indices []int) {
		for i := range indices {
			indices[i] = draw.IntN(pcg, n)
		}
	}
}

const is32bit = ^uint(0)>>32 == 0

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
	// One goroutine: a statistic may keep scratch between calls.
	return percentileBootstraps(n, resamples, seed, level, len(statistics), 1, func() func([]int, []float64) {
		return func(indices []int, values []float64) {
			for s, stat := range statistics {
				values[s] = stat(indices)
			}
		}
	})
}

// PercentileBootstraps is PercentileBootstrap for k statistics computed
// together, writing the k values of the items picked by indices into
// values (interval s is of values[s]): statistics that share work
// (counts, sums, a difference of two others) then do it once per
// resample. The resamples are drawn in order in the calling goroutine, as
// PercentileBootstrap draws them, and shared out in batches among
// GOMAXPROCS goroutines, each with its own statistic from newStatistic
// (scratch of its own); every resample's values are kept at its place, so
// the intervals are PercentileBootstrap's whatever the goroutines do.
func PercentileBootstraps(n, resamples int, seed [2]uint64, level float64, k int, newStatistic func() func(indices []int, values []float64)) ([]BootstrapInterval, error) {
	return percentileBootstraps(n, resamples, seed, level, k, runtime.GOMAXPROCS(0), newStatistic)
}

// bootstrapBatch is the number of resamples a goroutine of
// PercentileBootstraps takes at a time.
const bootstrapBatch = 16

func percentileBootstraps(n, resamples int, seed [2]uint64, level float64, k, goroutines int, newStatistic func() func([]int, []float64)) ([]BootstrapInterval, error) {
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
	out := make([]BootstrapInterval, k)
	estimate := make([]float64, k)
	statistic := newStatistic()
	statistic(identity, estimate)
	for s := range out {
		out[s].Estimate = estimate[s]
	}
	// resampled[r*k+s] is statistic s on resample r.
	resampled := make([]float64, resamples*k)
	if goroutines <= 1 {
		BootstrapIndices(n, resamples, seed, func(r int, indices []int) {
			statistic(indices, resampled[r*k:(r+1)*k])
		})
	} else {
		shareBootstrap(n, resamples, seed, k, goroutines, newStatistic, resampled)
	}
	tail := (1 - level) / 2
	values := make([]float64, 0, resamples)
	for s := range out {
		values = values[:0]
		for r := range resamples {
			if v := resampled[r*k+s]; v == v { // not NaN
				values = append(values, v)
			}
		}
		slices.Sort(values)
		out[s].Low, out[s].High = Quantile(values, tail), Quantile(values, 1-tail)
	}
	return out, nil
}

// shareBootstrap draws the resamples in order, bootstrapBatch at a time
// straight into a batch's buffer, and has goroutines goroutines compute
// their statistics into resampled.
func shareBootstrap(n, resamples int, seed [2]uint64, k, goroutines int, newStatistic func() func([]int, []float64), resampled []float64) {
	type batch struct {
		first, count int
		indices      []int // count resamples of n indices
	}
	batches := make(chan batch, goroutines)
	// Index buffers go round: one per goroutine at work, one filling, one
	// queued.
	spare := make(chan []int, goroutines+2)
	for range goroutines + 2 {
		spare <- make([]int, bootstrapBatch*n)
	}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statistic := newStatistic()
			for b := range batches {
				for i := range b.count {
					r := b.first + i
					statistic(b.indices[i*n:(i+1)*n], resampled[r*k:(r+1)*k])
				}
				spare <- b.indices
			}
		}()
	}
	draw := newResampler(n, seed)
	for first := 0; first < resamples; first += bootstrapBatch {
		b := batch{first: first, count: min(bootstrapBatch, resamples-first), indices: <-spare}
		for i := range b.count {
			draw(b.indices[i*n : (i+1)*n])
		}
		batches <- b
	}
	close(batches)
	wg.Wait()
}
