package moldable_test

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	"github.com/sweep-sched/sweep/engine/verify"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
)

var ratios = flag.Int("ratios", 0, "measure the average performance ratios of seed 002's algorithms over this many instances per point (m = 200)")

// TestRatios prints, per workload, n and algorithm, the average ratio
// (sum of values / sum of bounds) and the per-instance min and max, for
// C_max over lambda* and sum w C over the safe LP (anchor cmax). It runs
// only with -ratios N.
func TestRatios(t *testing.T) {
	if *ratios == 0 {
		t.Skip("run with -ratios N")
	}
	algs := emoldable.Algorithms()
	for _, name := range gmoldable.Presets() {
		preset, _ := gmoldable.Lookup(name)
		for _, n := range []int{25, 100, 200, 400} {
			p := preset.Defaults()
			if err := p.Set("tasks", fmt.Sprint(n)); err != nil {
				t.Fatal(err)
			}
			type acc struct{ sum, bound, lo, hi float64 }
			cmax := make([]acc, len(algs))
			minsum := make([]acc, len(algs))
			for i := range algs {
				cmax[i] = acc{lo: math.Inf(1)}
				minsum[i] = acc{lo: math.Inf(1)}
			}
			var demtTime, lpTime time.Duration
			// DEMT without shuffles, to measure what the shuffles gain.
			var unshuffledSum, unshuffledMax float64
			for inst := range *ratios {
				w, err := gmoldable.Generate(p, 2004, inst)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				in, err := emoldable.NewInstance(w)
				if err != nil {
					t.Fatal(err)
				}
				opts := emoldable.DefaultDEMTOptions()
				opts.Seed = uint64(inst)
				var scheds []emoldable.Schedule
				for i, alg := range algs {
					s, err := in.Run(alg, opts)
					if err != nil {
						t.Fatal(err)
					}
					if i == 0 {
						demtTime += time.Since(start)
					}
					if err := verify.Moldable(w, s); err != nil {
						t.Fatalf("%s n=%d #%d %s: %v", name, n, inst, alg, err)
					}
					scheds = append(scheds, s)
				}
				noShuffle := opts
				noShuffle.Shuffles = 0
				r0, err := in.DEMT(noShuffle)
				if err != nil {
					t.Fatal(err)
				}
				unshuffledSum += r0.Schedule.WeightedCompletion(w)
				unshuffledMax += r0.Schedule.Makespan()
				start = time.Now()
				prob, err := lpbound.New(w, emoldable.LPBoundaries(in.LambdaStar, in.PMin, emoldable.AnchorCmax))
				if err != nil {
					t.Fatal(err)
				}
				sol, err := prob.Solve()
				if err != nil {
					t.Fatal(err)
				}
				lpTime += time.Since(start)
				for i, s := range scheds {
					add := func(a *acc, v, b float64) {
						a.sum += v
						a.bound += b
						a.lo, a.hi = min(a.lo, v/b), max(a.hi, v/b)
					}
					add(&cmax[i], s.Makespan(), in.LambdaStar)
					add(&minsum[i], s.WeightedCompletion(w), sol.Value)
				}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%-26s n=%3d  DEMT %.3fs LP %.3fs per instance; 10 shuffles gain %.2f%% on sum wC, %.2f%% on C_max\n", name, n,
				demtTime.Seconds()/float64(*ratios), lpTime.Seconds()/float64(*ratios),
				100*(1-minsum[0].sum/unshuffledSum), 100*(1-cmax[0].sum/unshuffledMax))
			for i, alg := range algs {
				c, s := cmax[i], minsum[i]
				fmt.Fprintf(&b, "   %-11s Cmax %6.3f [%6.3f, %6.3f]   sumWC %6.3f [%6.3f, %6.3f]\n", alg,
					c.sum/c.bound, c.lo, c.hi, s.sum/s.bound, s.lo, s.hi)
			}
			t.Log(b.String())
		}
	}
}
