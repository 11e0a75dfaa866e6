package rigid

import (
	"math"
	"math/rand/v2"
)

// gammaRand draws from Gamma(shape, scale) by Marsaglia and Tsang's method
// (ACM TOMS 2000), boosting shapes below 1 by U^(1/shape). The authors'
// code sums shape's integer part of exponentials (and a beta-based draw
// for the fraction), the same distribution at a cost that grows with the
// shape (639 logarithms a draw for a2-batch).
func gammaRand(rng *rand.Rand, shape, scale float64) float64 {
	boost := 1.0
	if shape < 1 {
		boost = math.Pow(rng.Float64(), 1/shape)
		shape++
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * scale * boost
		}
	}
}

// gammaCDF returns P(X <= x) for X ~ Gamma(shape, scale): the regularized
// lower incomplete gamma function P(shape, x/scale), by its series below
// shape+1 and its continued fraction (modified Lentz) above.
func gammaCDF(x, shape, scale float64) float64 {
	x /= scale
	if x <= 0 {
		return 0
	}
	lg, _ := math.Lgamma(shape)
	front := math.Exp(shape*math.Log(x) - x - lg)
	if x < shape+1 {
		term, sum := 1/shape, 1/shape
		for n := 1.0; n < 1000 && math.Abs(term) > math.Abs(sum)*1e-15; n++ {
			term *= x / (shape + n)
			sum += term
		}
		return front * sum
	}
	const tiny = 1e-300
	b := x + 1 - shape
	c, d := 1/tiny, 1/b
	h := d
	for i := 1.0; i < 1000; i++ {
		an := -i * (i - shape)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return 1 - front*h
}

// twoStageUniform draws from U(low, med) with probability prob, else from
// U(med, hi).
func twoStageUniform(rng *rand.Rand, low, med, hi, prob float64) float64 {
	if rng.Float64() <= prob {
		return low + (med-low)*rng.Float64()
	}
	return med + (hi-med)*rng.Float64()
}
