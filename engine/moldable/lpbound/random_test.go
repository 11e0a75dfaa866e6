package lpbound_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/moldable"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// randomWorkload draws n tasks for m processors in the paper's recurrence
// model: weight U[1, 10], p(1) U[1, 10], p(k+1) = p(k) (k + 1 - X) / (k + 1)
// with X uniform in [lo, hi] (a subset of [0, 1] keeps monotony; the
// clamps absorb rounding).
func randomWorkload(rng *rand.Rand, n, m int, lo, hi float64) *workload.Workload {
	w := &workload.Workload{Processors: m}
	for range n {
		p := make([]float64, m)
		p[0] = 1 + 9*rng.Float64()
		for k := 1; k < m; k++ {
			x := lo + (hi-lo)*rng.Float64()
			next := p[k-1] * (float64(k+1) - x) / float64(k+1)
			for float64(k+1)*next < float64(k)*p[k-1] {
				next = nextUp(next)
			}
			p[k] = min(next, p[k-1])
		}
		w.Tasks = append(w.Tasks, workload.Task{Weight: 1 + 9*rng.Float64(), Times: p})
	}
	return w
}

func nextUp(x float64) float64 { return x + x*1e-16 + 5e-324 }

// TestRandomFastEqualsDense: on random small instances of all parallelism
// levels the GUB simplex and gonum's dense simplex agree, both pass their
// certificates, and the bound is below every algorithm's sum w C.
func TestRandomFastEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(2004, 2))
	for trial := range 60 {
		n, m := 2+rng.IntN(25), 1+rng.IntN(16)
		lo := rng.Float64()
		w := randomWorkload(rng, n, m, lo, lo+(1-lo)*rng.Float64())
		if trial%5 == 0 {
			// Dyadic data, linear speedup up to d processors: many ties
			// and degenerate pivots.
			for i := range w.Tasks {
				w.Tasks[i].Weight = float64(1 + rng.IntN(3))
				a, d := float64(int(1)<<rng.IntN(4)), 1<<rng.IntN(3)
				for k := range w.Tasks[i].Times {
					w.Tasks[i].Times[k] = a / float64(min(k+1, d))
				}
			}
		}
		if err := w.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, anchor := range []moldable.Anchor{moldable.AnchorCmax, moldable.AnchorPmin} {
			p := problem(t, w, anchor)
			fast, err := p.Solve()
			if err != nil {
				t.Fatalf("trial %d (n %d, m %d) %s: %v", trial, n, m, anchor, err)
			}
			dense, err := p.SolveDense()
			if err != nil {
				t.Fatalf("trial %d dense: %v", trial, err)
			}
			if err := p.Check(dense, 1e-9); err != nil {
				t.Errorf("trial %d dense certificate: %v", trial, err)
			}
			if !near(fast.Value, dense.Value) {
				t.Errorf("trial %d (n %d, m %d) %s: GUB %v, dense %v", trial, n, m, anchor, fast.Value, dense.Value)
			}
			in, err := moldable.NewInstance(w)
			if err != nil {
				t.Fatal(err)
			}
			opts := moldable.DefaultDEMTOptions()
			opts.Anchor = anchor
			for _, alg := range moldable.Algorithms() {
				s, err := in.Run(alg, opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := enginetest.CheckMoldable(w, s); err != nil {
					t.Fatalf("trial %d %s: %v", trial, alg, err)
				}
				if sum := s.WeightedCompletion(w); sum < fast.Value*(1-1e-9) {
					t.Errorf("trial %d %s: sum wC %v below the LP bound %v", trial, alg, sum, fast.Value)
				}
			}
		}
	}
}

func BenchmarkSolve400(b *testing.B) {
	for _, c := range []struct {
		name   string
		lo, hi float64
	}{{"weak", 0, 0.3}, {"high", 0.7, 1}} {
		w := randomWorkload(rand.New(rand.NewPCG(400, 200)), 400, 200, c.lo, c.hi)
		p := problem(b, w, moldable.AnchorCmax)
		b.Run(c.name, func(b *testing.B) {
			pivots := 0
			for b.Loop() {
				sol, err := p.Solve()
				if err != nil {
					b.Fatal(err)
				}
				pivots = sol.Iterations
			}
			b.ReportMetric(float64(pivots), "pivots/op")
		})
	}
}

// BenchmarkSolveDense400 is the cross-check's cost at the same size (run
// with -benchtime 1x: one solve takes seconds).
func BenchmarkSolveDense400(b *testing.B) {
	w := randomWorkload(rand.New(rand.NewPCG(400, 200)), 400, 200, 0.7, 1)
	p := problem(b, w, moldable.AnchorCmax)
	for b.Loop() {
		if _, err := p.SolveDense(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMidSizeFastEqualsDense compares the two solvers where the GUB
// simplex needs hundreds of pivots, weakly and highly parallel.
func TestMidSizeFastEqualsDense(t *testing.T) {
	if testing.Short() {
		t.Skip("dense simplex at n = 120")
	}
	rng := rand.New(rand.NewPCG(2004, 4))
	for _, c := range []struct{ lo, hi float64 }{{0, 0.3}, {0.7, 1}} {
		w := randomWorkload(rng, 120, 64, c.lo, c.hi)
		p := problem(t, w, moldable.AnchorCmax)
		fast, err := p.Solve()
		if err != nil {
			t.Fatal(err)
		}
		dense, err := p.SolveDense()
		if err != nil {
			t.Fatal(err)
		}
		if !near(fast.Value, dense.Value) {
			t.Errorf("X in [%v, %v]: GUB %v (%d iterations), dense %v", c.lo, c.hi, fast.Value, fast.Iterations, dense.Value)
		}
	}
}
