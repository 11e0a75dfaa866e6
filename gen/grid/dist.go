package grid

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Job-size distribution names, as used by the job-dist parameter.
const (
	DistUniform         = "uniform"
	DistUUniFast        = "uunifast"
	DistUUniFastDiscard = "uunifast-discard"
	DistLogUniform      = "loguniform"
)

// distNames lists the valid job-dist values, for error messages.
var distNames = []string{DistUniform, DistUUniFast, DistUUniFastDiscard, DistLogUniform}

// Bounds is an inclusive range of ticks.
type Bounds struct {
	Min, Max int64
}

func checkCount(n int, total int64) error {
	if n < 1 {
		return fmt.Errorf("count %d: want at least 1 value", n)
	}
	if total < int64(n) {
		return fmt.Errorf("total %d ticks for %d values: want total >= count, so that every value can be >= 1", total, n)
	}
	return nil
}

// Uniform returns n sizes summing exactly to total, each >= 1: one tick is
// reserved for each value and the other total-n ticks are shared in
// proportion to n independent U(0,1] weights (see apportion for the rounding).
func Uniform(rng *rand.Rand, n int, total int64) ([]int64, error) {
	if err := checkCount(n, total); err != nil {
		return nil, fmt.Errorf("uniform sizes: %w", err)
	}
	weights := make([]float64, n)
	for i := range weights {
		weights[i] = 1 - rng.Float64() // (0, 1]: never an all-zero vector
	}
	return apportionOnes(weights, total), nil
}

// UUniFast returns n sizes summing exactly to total, each >= 1: one tick is
// reserved for each value and the other total-n ticks are split by UUniFast
// (Bini & Buttazzo), so size-1 is (total-n) times a Beta(1, n-1) variable,
// up to rounding (see apportion).
func UUniFast(rng *rand.Rand, n int, total int64) ([]int64, error) {
	if err := checkCount(n, total); err != nil {
		return nil, fmt.Errorf("uunifast sizes: %w", err)
	}
	reals := make([]float64, n)
	uunifastReals(rng, reals, float64(total-int64(n)))
	return apportionOnes(reals, total), nil
}

// UUniFastDiscard returns n sizes summing exactly to total, each within
// bounds: it draws UUniFast vectors over total, rounds every value but the
// last to the nearest tick, gives the last value the remainder, and redraws
// the whole vector while any value lies outside bounds, at most maxTries
// times. It fails at once when no vector can meet the bounds
// (n x Min > total or n x Max < total), and after maxTries rejected draws.
func UUniFastDiscard(rng *rand.Rand, n int, total int64, bounds Bounds, maxTries int) ([]int64, error) {
	if err := checkCount(n, total); err != nil {
		return nil, fmt.Errorf("uunifast-discard sizes: %w", err)
	}
	if bounds.Min < 1 || bounds.Max < bounds.Min {
		return nil, fmt.Errorf("uunifast-discard sizes: bounds [%d, %d]: want 1 <= min <= max", bounds.Min, bounds.Max)
	}
	if maxTries < 1 {
		return nil, fmt.Errorf("uunifast-discard sizes: %d tries: want at least 1", maxTries)
	}
	// n x Min <= total <= n x Max, written with divisions so that it cannot overflow.
	if bounds.Min > total/int64(n) {
		return nil, fmt.Errorf("uunifast-discard sizes: %d values of at least %d ticks exceed the total %d; want min <= %d", n, bounds.Min, total, total/int64(n))
	}
	if need := (total + int64(n) - 1) / int64(n); bounds.Max < need {
		return nil, fmt.Errorf("uunifast-discard sizes: %d values of at most %d ticks cannot reach the total %d; want max >= %d", n, bounds.Max, total, need)
	}
	reals := make([]float64, n)
	sizes := make([]int64, n)
	for try := 0; try < maxTries; try++ {
		uunifastReals(rng, reals, float64(total))
		if roundWithin(sizes, reals, total, bounds) {
			return sizes, nil
		}
	}
	return nil, fmt.Errorf("uunifast-discard sizes: none of %d draws of %d values summing to %d had every value in [%d, %d]; widen the bounds or raise the tries",
		maxTries, n, total, bounds.Min, bounds.Max)
}

// roundWithin rounds reals into sizes (the last takes the remainder of
// total) and reports whether every size lies within bounds.
func roundWithin(sizes []int64, reals []float64, total int64, bounds Bounds) bool {
	last := len(sizes) - 1
	var given int64
	for i := 0; i < last; i++ {
		v := int64(math.Round(reals[i]))
		if v < bounds.Min || v > bounds.Max {
			return false
		}
		sizes[i] = v
		given += v
	}
	sizes[last] = total - given
	return sizes[last] >= bounds.Min && sizes[last] <= bounds.Max
}

// LogUniform returns n sizes summing exactly to total, each >= 1, whose
// logarithms are uniform before rescaling: one tick is reserved for each
// value and the other total-n ticks are shared in proportion to weights
// 10^(decades x U), U ~ U[0,1), so the largest weight is up to 10^decades
// times the smallest (a power law with density proportional to 1/size).
func LogUniform(rng *rand.Rand, n int, total int64, decades float64) ([]int64, error) {
	if err := checkCount(n, total); err != nil {
		return nil, fmt.Errorf("loguniform sizes: %w", err)
	}
	if !(decades > 0 && decades <= maxDecades) {
		return nil, fmt.Errorf("loguniform sizes: %v decades: want a spread in (0, %d]", decades, maxDecades)
	}
	weights := make([]float64, n)
	for i := range weights {
		weights[i] = math.Pow(10, decades*rng.Float64())
	}
	return apportionOnes(weights, total), nil
}

// maxDecades keeps loguniform weights far inside float64's range.
const maxDecades = 100

// uunifastReals fills dst with UUniFast values summing to sum: for
// i = 1..n-1, next = sum x u^(1/(n-i)), value_i = sum - next, sum = next;
// the last value is what remains.
func uunifastReals(rng *rand.Rand, dst []float64, sum float64) {
	n := len(dst)
	for i := 0; i < n-1; i++ {
		next := sum * math.Pow(rng.Float64(), 1/float64(n-1-i))
		dst[i] = sum - next
		sum = next
	}
	dst[n-1] = sum
}

// apportionOnes reserves one tick per value and apportions the rest.
func apportionOnes(weights []float64, total int64) []int64 {
	out := make([]int64, len(weights))
	for i := range out {
		out[i] = 1
	}
	apportion(out, weights, total)
	return out
}

// apportion adds to each out[i], which holds that part's reserved ticks on
// entry, a share of the spare ticks (total minus all reservations)
// proportional to weights[i], so that out sums exactly to total and no part
// falls below its reservation.
//
// The rule: the share of every part but the last is rounded to the nearest
// tick and the last part takes the remainder (DESIGN.md: the rounding error
// goes to the last value). Rounding up many small parts can leave the last
// part less than nothing; the excess is then taken back from the earliest
// parts, each down to its reservation at most. This only happens when the
// last weight's exact share is below about n/2 ticks.
//
// The caller guarantees positive finite weights with a positive sum (zeros
// allowed) and reservations summing to at most total.
func apportion(out []int64, weights []float64, total int64) {
	spare := total
	for _, r := range out {
		spare -= r
	}
	if spare == 0 {
		return
	}
	var weightSum float64
	for _, w := range weights {
		weightSum += w
	}
	scale := float64(spare) / weightSum
	last := len(out) - 1
	left := spare
	for i := 0; i < last; i++ {
		share := int64(math.Round(weights[i] * scale))
		out[i] += share
		left -= share
	}
	for i := 0; left < 0 && i < last; i++ {
		share := int64(math.Round(weights[i] * scale))
		back := min(share, -left)
		out[i] -= back
		left += back
	}
	out[last] += left
}
