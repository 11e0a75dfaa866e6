package lpbound

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFirstAtMostIsTheLoop: firstAtMost (the SSE2 kernel on amd64) finds
// what the plain loop over the Go expression finds, on random columns of
// every length up to 40 from every offset (so unaligned too), with
// reduced costs equal to the bound, NaN areas (keys), infinities, and
// bounds that nothing reaches or everything does.
func TestFirstAtMostIsTheLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 30))
	loop := func(cost, duals, area []float64, price, best float64) int {
		for t := range cost {
			if cost[t]-duals[t]-area[t]*price <= best {
				return t
			}
		}
		return len(cost)
	}
	for trial := range 20000 {
		n := rng.IntN(41)
		cost, duals, area := make([]float64, n+3), make([]float64, n+3), make([]float64, n+3)
		price := -rng.Float64() * 10
		for i := range cost {
			cost[i] = 100 * rng.Float64()
			duals[i] = 100 * rng.Float64()
			area[i] = 10 * rng.Float64()
			switch rng.IntN(12) {
			case 0:
				area[i] = math.NaN()
			case 1:
				cost[i] = math.Inf(1)
			case 2:
				duals[i] = math.Inf(1)
			case 3: // small integers: exact ties
				cost[i], duals[i], area[i] = float64(rng.IntN(4)), float64(rng.IntN(4)), float64(rng.IntN(3))
				price = -1
			}
		}
		best := []float64{-100, -10, 0, 50, math.Inf(1), math.Inf(-1)}[rng.IntN(6)]
		if trial%3 == 0 && n > 0 {
			// A reduced cost exactly at the bound.
			i := rng.IntN(n)
			best = cost[i] - duals[i] - area[i]*price
		}
		from := rng.IntN(4)
		c, d, a := cost[from:from+n], duals[from:], area[from:]
		if got, want := firstAtMost(c, d, a, price, best), loop(c, d, a, price, best); got != want {
			t.Fatalf("trial %d (n %d, from %d, best %v): %d, the loop %d", trial, n, from, best, got, want)
		}
	}
}
