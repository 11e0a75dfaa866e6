package moldable

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// TestLambdaStarIsSmallestAccepted: the dual test accepts lambda* (up to
// rounding) and rejects every guess just below it, on random instances
// with dyadic data (exact ties at breakpoints) and with continuous data.
func TestLambdaStarIsSmallestAccepted(t *testing.T) {
	rng := rand.New(rand.NewPCG(2004, 3))
	for trial := range 300 {
		n, m := 1+rng.IntN(20), 1+rng.IntN(12)
		w := &workload.Workload{Processors: m}
		for range n {
			times := make([]float64, m)
			if trial%2 == 0 {
				a, d := float64(int(1)<<rng.IntN(5)), 1+rng.IntN(m)
				for k := range times {
					times[k] = a / float64(min(k+1, d))
				}
			} else {
				times[0] = 1 + 9*rng.Float64()
				for k := 1; k < m; k++ {
					// Speedup (k+1)/k times a factor that keeps the work
					// non-decreasing with a margin over rounding.
					f := 1 + rng.Float64()/float64(k)
					times[k] = min(times[k-1], times[k-1]*float64(k)/float64(k+1)*f)
				}
			}
			w.Tasks = append(w.Tasks, workload.Task{Weight: 1, Times: times})
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		lambda, err := LambdaStar(w)
		if err != nil {
			t.Fatal(err)
		}
		if !accepts(w, lambda*(1+1e-12), nil) {
			t.Errorf("trial %d: lambda* %v is rejected", trial, lambda)
		}
		if accepts(w, lambda*(1-1e-12), nil) {
			t.Errorf("trial %d: %v just below lambda* %v is accepted", trial, lambda*(1-1e-12), lambda)
		}
	}
}

// TestSortPositive checks the radix sort against slices.Sort on positive
// values with repeats, powers of two, subnormals, huge values and +Inf.
func TestSortPositive(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	for trial := range 100 {
		values := make([]float64, rng.IntN(2000))
		for i := range values {
			switch rng.IntN(6) {
			case 0:
				values[i] = math.Ldexp(1, rng.IntN(40)-20)
			case 1:
				values[i] = math.SmallestNonzeroFloat64 * float64(1+rng.IntN(3))
			case 2:
				values[i] = math.MaxFloat64 / float64(1+rng.IntN(3))
			case 3:
				values[i] = math.Inf(1)
			default:
				values[i] = 1 + rng.Float64()*float64(rng.IntN(1000))
			}
		}
		want := slices.Clone(values)
		slices.Sort(want)
		sortPositive(values)
		if !slices.Equal(values, want) {
			t.Fatalf("trial %d: radix sort differs from slices.Sort", trial)
		}
	}
}
