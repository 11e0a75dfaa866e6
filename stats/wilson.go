package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ProportionInterval is a two-sided confidence interval of a binomial
// proportion, as fractions from 0 to 1.
type ProportionInterval struct {
	Low, High float64
}

// WilsonInterval returns the Wilson score interval of the proportion
// successes/trials at level (e.g. 0.95), the interval of scipy 1.10's
// binomtest(successes, trials).proportion_ci(level, method='wilson'), with
// the same arithmetic (Newcombe 1998, method 3):
//
//	p = k/n, q = 1-p, z = Φ⁻¹((1+level)/2), d = 2(n + z²)
//	center = (2np + z²)/d, delta = z/d · sqrt(4npq + z²)
//	[center - delta, center + delta], with 0 for k = 0 and 1 for k = n.
//
// Unlike the normal (Wald) interval it stays inside [0, 1] and does not
// collapse to a point at 0% or 100%, where seed 004's dominance cells
// often lie. It returns an error if trials < 1, successes is outside
// [0, trials] or level is not strictly between 0 and 1.
func WilsonInterval(successes, trials int, level float64) (ProportionInterval, error) {
	switch {
	case trials < 1:
		return ProportionInterval{}, fmt.Errorf("wilson interval: %d trials; need at least 1", trials)
	case successes < 0 || successes > trials:
		return ProportionInterval{}, fmt.Errorf("wilson interval: %d successes out of %d trials; want 0 to %d", successes, trials, trials)
	case !(level > 0 && level < 1):
		return ProportionInterval{}, fmt.Errorf("wilson interval: level %v is not strictly between 0 and 1 (e.g. 0.95)", level)
	}
	n := float64(trials)
	p := float64(successes) / n
	q := 1 - p
	z := distuv.UnitNormal.Quantile(0.5 + 0.5*level)
	denom := 2 * (n + z*z)
	center := (2*n*p + z*z) / denom
	delta := z / denom * math.Sqrt(4*n*p*q+z*z)
	interval := ProportionInterval{Low: center - delta, High: center + delta}
	if successes == 0 {
		interval.Low = 0
	}
	if successes == trials {
		interval.High = 1
	}
	return interval, nil
}
