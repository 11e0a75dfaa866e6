package moldable_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/moldabletest"
	"github.com/sweep-sched/sweep/engine/verify"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// TestRandomSchedules: on random small instances every algorithm, list
// mode and DEMT variant yields a valid schedule whose makespan is at least
// lambda*, and DEMT's shuffles never lose to the natural batch order.
func TestRandomSchedules(t *testing.T) {
	rng := rand.New(rand.NewPCG(2004, 1))
	for trial := range 200 {
		n, m := 1+rng.IntN(30), 1+rng.IntN(20)
		lo := rng.Float64()
		w := moldabletest.RandomWorkload(rng, n, m, lo, lo+(1-lo)*rng.Float64())
		in, err := moldable.NewInstance(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []moldable.ListMode{moldable.ListOvertake, moldable.ListStrict} {
			for _, anchor := range []moldable.Anchor{moldable.AnchorCmax, moldable.AnchorPmin} {
				for _, variant := range []moldable.Variant{moldable.VariantList, moldable.VariantShelf, moldable.VariantCompact} {
					opts := moldable.DEMTOptions{Anchor: anchor, Tail: moldable.TailRepeat, Variant: variant, List: mode, Shuffles: 5, Seed: uint64(trial)}
					if trial%2 == 1 {
						opts.Tail = moldable.TailDouble
					}
					r, err := in.DEMT(opts)
					if err != nil {
						t.Fatal(err)
					}
					what := fmt.Sprintf("trial %d (n %d, m %d) DEMT %+v", trial, n, m, opts)
					check(t, what, in, r.Schedule)
					natural := make([]int, len(r.Selection.Batches))
					for j := range natural {
						natural[j] = j
					}
					first := r.Selection.Schedule(w, natural, variant, mode)
					if r.Schedule.WeightedCompletion(w) > first.WeightedCompletion(w) {
						t.Errorf("%s: kept sum wC %v, natural order has %v", what, r.Schedule.WeightedCompletion(w), first.WeightedCompletion(w))
					}
				}
			}
			opts := moldable.DefaultDEMTOptions()
			opts.List = mode
			for _, alg := range moldable.Algorithms()[1:] {
				s, err := in.Run(alg, opts)
				if err != nil {
					t.Fatal(err)
				}
				check(t, fmt.Sprintf("trial %d %s %s", trial, alg, mode), in, s)
			}
		}
	}
}

func check(t *testing.T, what string, in *moldable.Instance, s moldable.Schedule) {
	t.Helper()
	if err := verify.Moldable(in.Workload, s); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if c := s.Makespan(); c < in.LambdaStar*(1-1e-12) {
		t.Errorf("%s: C_max %v below lambda* %v", what, c, in.LambdaStar)
	}
}

func benchmarkWorkload(lo, hi float64) *workload.Workload {
	return moldabletest.RandomWorkload(rand.New(rand.NewPCG(400, 200)), 400, 200, lo, hi)
}

// BenchmarkDEMT400 is DEMT at the paper's largest size, lambda* included
// (the paper: under 2 s).
func BenchmarkDEMT400(b *testing.B) {
	for _, c := range []struct {
		name   string
		lo, hi float64
	}{{"weak", 0, 0.3}, {"high", 0.7, 1}} {
		w := benchmarkWorkload(c.lo, c.hi)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				in, err := moldable.NewInstance(w)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := in.DEMT(moldable.DefaultDEMTOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
