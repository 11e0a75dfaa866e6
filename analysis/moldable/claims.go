package moldable

import (
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
)

// The text's vague words, made checkable. "Around 2" is within
// aroundTwoTolerance of 2; a list that "greatly increases" has its
// ratio at the largest n at least degradeFactor times that at the
// smallest; "almost always" is at least almostAlwaysShare of the cells.
const (
	aroundTwoTolerance = 0.5
	degradeFactor      = 1.25
	almostAlwaysShare  = 0.95
	// paperSecondsLimit is the paper's run time of DEMT at the largest n.
	paperSecondsLimit = 2.0
)

// A Criterion is one of the paper's two criteria: its name, the lower
// bound its ratios are over, and how to pick its ratio summary from a
// point.
type Criterion struct {
	Name, Bound string
	Of          func(Point) RatioSummary
}

var (
	ByCmax   = Criterion{"C_max", "lambda*", func(p Point) RatioSummary { return p.Cmax }}
	ByMinsum = Criterion{"minsum", "the interval LP", func(p Point) RatioSummary { return p.SumWC }}
	// Criteria are both, in the order the tables print them.
	Criteria = []Criterion{ByCmax, ByMinsum}
)

// checkClaims evaluates every claim whose workload and algorithms the run
// has; a claim about a workload the run lacks is left out.
func checkClaims(r *Result, cells []Cell) []analysis.Claim {
	var claims []analysis.Claim
	gen := func(short string) string {
		for _, g := range r.Generators {
			if ShortWorkload(g) == short {
				return g
			}
		}
		return ""
	}
	has := func(algs ...string) bool {
		for _, a := range algs {
			if !slices.Contains(r.Algorithms, a) {
				return false
			}
		}
		return true
	}
	avg := func(g string, n int64, alg string, c Criterion) float64 {
		p, ok := r.Point(g, n, alg)
		if !ok {
			return math.NaN()
		}
		return c.Of(p).Average
	}
	// everyN counts the n at which holds is true.
	everyN := func(g string, holds func(n int64) bool) (int, int) {
		count := 0
		sizes := r.Sizes(g)
		for _, n := range sizes {
			if holds(n) {
				count++
			}
		}
		return count, len(sizes)
	}
	const demt, gang, seq = emoldable.AlgDEMT, emoldable.AlgGang, emoldable.AlgSequential
	lists := []string{emoldable.AlgListMRT, emoldable.AlgListWLPTF, emoldable.AlgListSAF}
	others := func(except ...string) []string {
		var out []string
		for _, a := range r.Algorithms {
			if !slices.Contains(except, a) {
				out = append(out, a)
			}
		}
		return out
	}
	// best reports whether alg's average is below every other one's at n.
	best := func(g string, n int64, alg string, c Criterion) bool {
		for _, o := range others(alg) {
			if !(avg(g, n, alg, c) < avg(g, n, o, c)) {
				return false
			}
		}
		return true
	}
	add := func(workload, text string, count, total int, detail string) {
		claims = append(claims, analysis.Claim{Workload: workload, Text: text, Holds: total > 0 && count == total,
			Evidence: fmt.Sprintf("at %d of %d n%s", count, total, detail)})
	}

	if g := gen("uniform-weak"); g != "" && has(demt, gang) {
		for _, c := range []Criterion{ByCmax, ByMinsum} {
			count, total := everyN(g, func(n int64) bool {
				for _, o := range others(demt, gang) {
					if !(avg(g, n, demt, c) > avg(g, n, o, c)) {
						return false
					}
				}
				return avg(g, n, demt, c) < avg(g, n, gang, c)
			})
			add("uniform-weak", fmt.Sprintf("DEMT's average %s ratio is worse than every algorithm's but Gang's", c.Name), count, total, "")
		}
		worst := 0.0
		count, total := everyN(g, func(n int64) bool {
			a := avg(g, n, demt, ByCmax)
			worst = max(worst, a)
			return a <= 2
		})
		add("uniform-weak", "DEMT's average C_max ratio is no more than 2", count, total, fmt.Sprintf("; largest %.3f", worst))
	}
	if g := gen("uniform-high"); g != "" && has(demt) {
		count, total := everyN(g, func(n int64) bool { return best(g, n, demt, ByMinsum) })
		add("uniform-high", "DEMT is the best on minsum", count, total, "")
	}
	if g := gen("uniform-high"); g != "" && has(gang, seq) {
		sizes := r.Sizes(g)
		if len(sizes) >= 2 {
			lo, hi := sizes[0], sizes[len(sizes)-1]
			gl, gh := avg(g, lo, gang, ByMinsum), avg(g, hi, gang, ByMinsum)
			sl, sh := avg(g, lo, seq, ByMinsum), avg(g, hi, seq, ByMinsum)
			holds := gl < sl && sh < gh && gl < gh && sh < sl
			claims = append(claims, analysis.Claim{Workload: "uniform-high", Holds: holds,
				Text:     "Gang and Sequential behave oppositely on minsum: Gang good at small n, Sequential at large n",
				Evidence: fmt.Sprintf("n=%d: Gang %.3f, Sequential %.3f; n=%d: Gang %.3f, Sequential %.3f", lo, gl, sl, hi, gh, sh)})
		}
	}
	if g := gen("uniform-high"); g != "" && has(lists...) {
		worst := 0.0
		count, total := everyN(g, func(n int64) bool {
			ok := true
			for _, a := range lists {
				p, _ := r.Point(g, n, a)
				worst = max(worst, p.Cmax.Max)
				ok = ok && p.Cmax.Max < 2
			}
			return ok
		})
		add("uniform-high", "the list algorithms' C_max ratio is always below 2 (the MRT allotment is good)", count, total,
			fmt.Sprintf("; largest per-instance ratio %.3f", worst))
	}
	if g := gen("mixed"); g != "" && has(demt) {
		lo, hi := math.Inf(1), math.Inf(-1)
		count, total := everyN(g, func(n int64) bool {
			a, b := avg(g, n, demt, ByCmax), avg(g, n, demt, ByMinsum)
			lo, hi = min(lo, a, b), max(hi, a, b)
			return math.Abs(a-2) <= aroundTwoTolerance && math.Abs(b-2) <= aroundTwoTolerance
		})
		add("mixed", fmt.Sprintf("DEMT is stable around 2 on both criteria (average within 2 ± %v)", aroundTwoTolerance), count, total,
			fmt.Sprintf("; averages range over [%.3f, %.3f]", lo, hi))
	}
	if g := gen("mixed"); g != "" && has(demt, emoldable.AlgListSAF) {
		for _, c := range []Criterion{ByCmax, ByMinsum} {
			count, total := everyN(g, func(n int64) bool {
				return avg(g, n, emoldable.AlgListSAF, c) < avg(g, n, demt, c)
			})
			add("mixed", fmt.Sprintf("List-SAF is better than DEMT on %s", c.Name), count, total, "")
		}
	}
	if g := gen("mixed"); g != "" && has(emoldable.AlgListMRT, emoldable.AlgListWLPTF) {
		sizes := r.Sizes(g)
		if len(sizes) >= 2 {
			lo, hi := sizes[0], sizes[len(sizes)-1]
			holds := true
			evidence := ""
			for _, a := range []string{emoldable.AlgListMRT, emoldable.AlgListWLPTF} {
				l, h := avg(g, lo, a, ByMinsum), avg(g, hi, a, ByMinsum)
				holds = holds && h >= degradeFactor*l
				evidence += fmt.Sprintf("%s %.3f at n=%d, %.3f at n=%d; ", a, l, lo, h, hi)
			}
			claims = append(claims, analysis.Claim{Workload: "mixed", Holds: holds,
				Text:     fmt.Sprintf("List-MRT and List-wLPTF degrade as n grows (minsum ratio at the largest n >= %v x at the smallest)", degradeFactor),
				Evidence: evidence[:len(evidence)-2]})
		}
	}
	if g := gen("cirne-berman"); g != "" && has(demt) {
		count, total := everyN(g, func(n int64) bool { return best(g, n, demt, ByMinsum) })
		add("cirne-berman", "DEMT is the best on minsum", count, total, "")
		spread := func(alg string) float64 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, n := range r.Sizes(g) {
				a := avg(g, n, alg, ByMinsum)
				lo, hi = min(lo, a), max(hi, a)
			}
			return hi / lo
		}
		stablest := true
		evidence := ""
		for _, a := range r.Algorithms {
			evidence += fmt.Sprintf("%s %.2f, ", a, spread(a))
			if a != demt && spread(a) <= spread(demt) {
				stablest = false
			}
		}
		claims = append(claims, analysis.Claim{Workload: "cirne-berman", Holds: stablest,
			Text:     "DEMT is the only algorithm with a stable minsum ratio (smallest largest/smallest average over n)",
			Evidence: "largest/smallest average over n: " + evidence[:len(evidence)-2]})
	}
	if has(demt) {
		var sum, bound float64
		below, all := 0, 0
		for _, c := range cells {
			if c.Algorithm != demt {
				continue
			}
			sum, bound = sum+c.SumWC, bound+c.SumWCBound
			all++
			if c.Cmax/c.CmaxBound < 2 {
				below++
			}
		}
		avgAll := sum / bound
		claims = append(claims, analysis.Claim{Workload: "all", Holds: math.Abs(avgAll-2) <= aroundTwoTolerance,
			Text:     fmt.Sprintf("DEMT's minsum ratio is about 2 on average (within 2 ± %v)", aroundTwoTolerance),
			Evidence: fmt.Sprintf("average over every DEMT cell %.3f", avgAll)})
		claims = append(claims, analysis.Claim{Workload: "all", Holds: float64(below) >= almostAlwaysShare*float64(all),
			Text:     fmt.Sprintf("DEMT's C_max ratio is almost always below 2 (in >= %v%% of the cells)", 100*almostAlwaysShare),
			Evidence: fmt.Sprintf("%d of %d cells (%.1f%%)", below, all, 100*float64(below)/float64(all))})
		largest := int64(0)
		for _, c := range cells {
			largest = max(largest, c.Tasks)
		}
		slowest := 0.0
		for _, c := range cells {
			if c.Algorithm == demt && c.Tasks == largest {
				slowest = max(slowest, c.RunSeconds)
			}
		}
		claims = append(claims, analysis.Claim{Workload: "all", Holds: slowest < paperSecondsLimit,
			Text:     fmt.Sprintf("DEMT runs in under %v s at the largest n", paperSecondsLimit),
			Evidence: fmt.Sprintf("slowest DEMT cell at n=%d: %.3f s (lambda* included; machine-dependent)", largest, slowest)})
	}
	return claims
}
