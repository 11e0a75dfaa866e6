// Package moldabletest provides what the tests of the moldable packages
// share: random instances in the paper's recurrence model and the reading
// of the golden file's exact fractions. Like net/http/httptest, it is for
// tests only.
package moldabletest

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// RandomWorkload draws n tasks for m processors in the paper's recurrence
// model: weight U[1, 10], p(1) U[1, 10], p(k+1) = p(k) (k + 1 - X) / (k + 1)
// with X uniform in [lo, hi] within [0, 1]; the clamps absorb rounding so
// the vectors are exactly monotone (times non-increasing, work
// non-decreasing).
func RandomWorkload(rng *rand.Rand, n, m int, lo, hi float64) *workload.Workload {
	w := &workload.Workload{Processors: m}
	for range n {
		p := make([]float64, m)
		p[0] = 1 + 9*rng.Float64()
		for k := 1; k < m; k++ {
			x := lo + (hi-lo)*rng.Float64()
			next := p[k-1] * (float64(k+1) - x) / float64(k+1)
			for float64(k+1)*next < float64(k)*p[k-1] {
				next += next*1e-16 + 5e-324
			}
			p[k] = min(next, p[k-1])
		}
		w.Tasks = append(w.Tasks, workload.Task{Weight: 1 + 9*rng.Float64(), Times: p})
	}
	return w
}

// Rat returns the float64 nearest to an exact fraction of the golden file,
// such as "21/4".
func Rat(tb testing.TB, s string) float64 {
	tb.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		tb.Fatalf("golden value %q is not a fraction", s)
	}
	f, _ := r.Float64()
	return f
}

// Near reports whether got equals want to 1e-9 relative (absolute below
// 1), the tolerance the design note sets for the golden examples.
func Near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}
