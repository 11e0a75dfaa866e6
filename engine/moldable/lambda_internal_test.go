package moldable

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/internal/radix"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// TestLambdaStarIsSmallestAccepted: the dual test accepts lambda* (up to
// rounding) and rejects every guess just below it, on random instances
// with dyadic data (exact ties at breakpoints) and with continuous data.
func TestLambdaStarIsSmallestAccepted(t *testing.T) {
	rng := rand.New(rand.NewPCG(2004, 3))
	for trial := range 300 {
		w := randomWorkload(rng, 20, 12, trial%2 == 0)
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

// TestSortPositiveBits: breakpoints sorts the bits of the times with
// radix.Sort; checked against slices.Sort on positive values with
// repeats, powers of two, subnormals, huge values and +Inf.
func TestSortPositiveBits(t *testing.T) {
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
		keys := make([]uint64, len(values))
		for i, v := range values {
			keys[i] = math.Float64bits(v)
		}
		sorted := radix.Sort(keys, make([]uint64, len(keys)))
		for i, k := range sorted {
			values[i] = math.Float64frombits(k)
		}
		if !slices.Equal(values, want) {
			t.Fatalf("trial %d: radix sort differs from slices.Sort", trial)
		}
	}
}

// TestKnapsackBestIsTheTable: the dual test's knapsack without the
// allotment (knapsackBest, the entries the answer needs) gives the work
// of the full table the allotment backtracks, bit for bit, at guesses
// around every breakpoint of random instances with dyadic (tied) and
// continuous data.
func TestKnapsackBestIsTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 25))
	for trial := range 200 {
		w := randomWorkload(rng, 40, 30, trial%2 == 0)
		var scratch dualScratch
		tested := 0
		for _, task := range w.Tasks {
			for _, p := range task.Times {
				for _, guess := range []float64{p, 2 * p, math.Nextafter(p, 0), 1.5 * p} {
					work, feasible, _ := dualTest(w, guess, false, &scratch)
					full, fullFeasible, _ := dualTest(w, guess, true, nil)
					if feasible != fullFeasible || (feasible && work != full) {
						t.Fatalf("trial %d guess %v: work %v (feasible %v), the full table's %v (%v)", trial, guess, work, feasible, full, fullFeasible)
					}
					if feasible {
						tested++
					}
				}
			}
		}
		if tested == 0 {
			t.Errorf("trial %d: no feasible guess", trial)
		}
	}
}

// TestBreakpoints: the breakpoints are every p_i(k) and 2 p_i(k), sorted,
// each once, on random instances with plateaus and with values whose
// doubles are other tasks' times.
func TestBreakpoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 26))
	for trial := range 100 {
		n, m := 1+rng.IntN(30), 1+rng.IntN(40)
		w := &workload.Workload{Processors: m}
		var want []float64
		for range n {
			times := make([]float64, m)
			a, d := float64(int(1)<<rng.IntN(5)), 1+rng.IntN(m)
			if trial%2 == 1 {
				a = 1 + 9*rng.Float64()
			}
			for k := range times {
				times[k] = a / float64(min(k+1, d))
				want = append(want, times[k], 2*times[k])
			}
			w.Tasks = append(w.Tasks, workload.Task{Weight: 1, Times: times})
		}
		slices.Sort(want)
		want = slices.Compact(want)
		var s lambdaScratch
		if got := s.breakpoints(w); !slices.Equal(got, want) {
			t.Fatalf("trial %d: breakpoints %v, want %v", trial, got, want)
		}
	}
}

// randomWorkload draws 1 to maxTasks tasks on 1 to maxProcs processors,
// weight 1: with dyadic times (a power of two up to 16, divided by
// min(k, d)), which tie exactly at breakpoints, or continuous ones.
func randomWorkload(rng *rand.Rand, maxTasks, maxProcs int, dyadic bool) *workload.Workload {
	n, m := 1+rng.IntN(maxTasks), 1+rng.IntN(maxProcs)
	w := &workload.Workload{Processors: m}
	for range n {
		times := make([]float64, m)
		if dyadic {
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
	return w
}
