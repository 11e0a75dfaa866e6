package rigid

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The daily cycle's resolution: 48 half-hour buckets (BUCKETS).
const (
	bucketsPerDay    = 48
	secondsPerBucket = 24 * 3600 / bucketsPerDay
)

// maxRedraws bounds every rejection loop: parameters that (almost) never
// give an acceptable draw are an error, not a hang.
const maxRedraws = 1_000_000

// dailyWeights returns the arrival weight of each half hour of the day,
// normalized to mean 1: bucket i in cyclicStart..cyclicStart+47 gets
// F(i+0.5) - F(i-0.5), F the Gamma(shape, scale) CDF, and lands on half
// hour (i-1) mod 48, as in the authors' arrive_init. A weight is the
// relative arrival rate: a bucket of weight 2 takes twice the arrivals of
// a bucket of weight 1.
func dailyWeights(shape, scale float64, cyclicStart int) ([bucketsPerDay]float64, error) {
	var w [bucketsPerDay]float64
	sum := 0.0
	for i := cyclicStart; i < cyclicStart+bucketsPerDay; i++ {
		x := float64(i)
		v := gammaCDF(x+0.5, shape, scale) - gammaCDF(x-0.5, shape, scale)
		w[(i-1)%bucketsPerDay] = v
		sum += v
	}
	if !(sum > 0) {
		return w, fmt.Errorf("daily cycle Gamma(%v, %v) has no weight on buckets %d..%d: want anum and bnum that put some mass there",
			shape, scale, cyclicStart, cyclicStart+bucketsPerDay-1)
	}
	mean := sum / bucketsPerDay
	for i := range w {
		w[i] /= mean
	}
	return w, nil
}

// arrivals is one class's arrival stream: inter-arrival times drawn at the
// rush-hour rate and stretched through the daily cycle. A draw of t
// seconds is t/1800 "points"; each half hour costs its weight in points, so
// time passes quickly through busy hours and slowly through quiet ones
// (the authors' calc_next_arrive). The position inside the current bucket
// is carried as the fraction of its weight already paid.
type arrivals struct {
	weights      [bucketsPerDay]float64
	shape, scale float64 // Gamma of ln(inter-arrival seconds) at rush hour
	maxLog       float64
	points       float64 // points paid into the current bucket so far
	fraction     float64 // points / the current bucket's weight
	bucket       int
	// seconds is the next arrival, whole seconds: the authors' code keeps
	// it in an unsigned long, dropping each step's fraction of a second.
	seconds int64
}

func newArrivals(c ClassParams, p *Params) (*arrivals, error) {
	w, err := dailyWeights(c.ANum, c.BNum, p.CyclicDayStart)
	if err != nil {
		return nil, err
	}
	return &arrivals{weights: w, shape: c.AArr * c.ARAR, scale: c.BArr, maxLog: p.MaxLogInterarrivalSeconds,
		bucket: p.StartHour * bucketsPerDay / 24}, nil
}

// advance draws the next inter-arrival time and moves the stream on.
func (a *arrivals) advance(rng *rand.Rand) error {
	logSeconds, err := boundedGamma(rng, a.shape, a.scale, a.maxLog)
	if err != nil {
		return fmt.Errorf("inter-arrival time: %w", err)
	}
	a.pass(math.Exp(logSeconds))
	return nil
}

// pass moves the stream on by rushSeconds of rush-hour time.
func (a *arrivals) pass(rushSeconds float64) {
	a.points += rushSeconds / secondsPerBucket
	elapsed := 0.0
	for a.points > a.weights[a.bucket] {
		a.points -= a.weights[a.bucket]
		a.bucket = (a.bucket + 1) % bucketsPerDay
		elapsed += secondsPerBucket
	}
	fraction := 0.0
	if a.weights[a.bucket] > 0 {
		fraction = a.points / a.weights[a.bucket]
	}
	elapsed += secondsPerBucket * (fraction - a.fraction)
	a.fraction = fraction
	a.seconds = int64(float64(a.seconds) + elapsed)
}

// boundedGamma draws Gamma(shape, scale) until the value is at most max.
func boundedGamma(rng *rand.Rand, shape, scale, max float64) (float64, error) {
	for range maxRedraws {
		if v := gammaRand(rng, shape, scale); v <= max {
			return v, nil
		}
	}
	return 0, fmt.Errorf("Gamma(%v, %v) drew nothing at most %v in %d tries", shape, scale, max, maxRedraws)
}
