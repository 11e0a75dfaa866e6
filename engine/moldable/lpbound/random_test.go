package lpbound_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/moldabletest"
	"github.com/sweep-sched/sweep/engine/verify"
)

// TestRandomFastEqualsDense: on random small instances of all parallelism
// levels the GUB simplex and gonum's dense simplex agree, both pass their
// certificates, and the bound is below every algorithm's sum w C.
func TestRandomFastEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(2004, 2))
	for trial := range 60 {
		n, m := 2+rng.IntN(25), 1+rng.IntN(16)
		lo := rng.Float64()
		w := moldabletest.RandomWorkload(rng, n, m, lo, lo+(1-lo)*rng.Float64())
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
			if !moldabletest.Near(fast.Value, dense.Value) {
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
				if err := verify.Moldable(w, s); err != nil {
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
		w := moldabletest.RandomWorkload(rand.New(rand.NewPCG(400, 200)), 400, 200, c.lo, c.hi)
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
	w := moldabletest.RandomWorkload(rand.New(rand.NewPCG(400, 200)), 400, 200, 0.7, 1)
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
		w := moldabletest.RandomWorkload(rng, 120, 64, c.lo, c.hi)
		p := problem(t, w, moldable.AnchorCmax)
		fast, err := p.Solve()
		if err != nil {
			t.Fatal(err)
		}
		dense, err := p.SolveDense()
		if err != nil {
			t.Fatal(err)
		}
		if !moldabletest.Near(fast.Value, dense.Value) {
			t.Errorf("X in [%v, %v]: GUB %v (%d iterations), dense %v", c.lo, c.hi, fast.Value, fast.Iterations, dense.Value)
		}
	}
}
