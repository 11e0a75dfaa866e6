package moldable

import (
	"fmt"
	"math"
	"slices"
	"strings"

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

const (
	demt, gang, seq = emoldable.AlgDEMT, emoldable.AlgGang, emoldable.AlgSequential
	listMRT         = emoldable.AlgListMRT
	listWLPTF       = emoldable.AlgListWLPTF
	listSAF         = emoldable.AlgListSAF
)

// A workloadClaim is a family of the paper's claims about one workload:
// checked when the run has the workload and every algorithm it needs.
type workloadClaim struct {
	workload string // the generator's short name
	needs    []string
	check    func(d claimData, generator, workload string) []analysis.Claim
}

// workloadClaims are the claims about one workload, in the order the
// claims table lists them.
var workloadClaims = []workloadClaim{
	{"uniform-weak", []string{demt, gang}, demtSecondWorst},
	{"uniform-weak", []string{demt, gang}, demtCmaxAtMostTwo},
	{"uniform-high", []string{demt}, demtBestOnMinsum},
	{"uniform-high", []string{gang, seq}, gangSequentialOpposite},
	{"uniform-high", []string{listMRT, listWLPTF, listSAF}, listsCmaxBelowTwo},
	{"mixed", []string{demt}, demtAroundTwo},
	{"mixed", []string{demt, listSAF}, listSAFBeatsDEMT},
	{"mixed", []string{listMRT, listWLPTF}, listsDegrade},
	{"cirne-berman", []string{demt}, demtBestOnMinsum},
	{"cirne-berman", []string{demt}, demtStablest},
}

// checkClaims evaluates every claim whose workload and algorithms the run
// has; a claim about a workload the run lacks is left out.
func checkClaims(r *Result, cells []Cell) []analysis.Claim {
	d := claimData{r}
	var claims []analysis.Claim
	for _, w := range workloadClaims {
		if g := d.generator(w.workload); g != "" && d.has(w.needs...) {
			claims = append(claims, w.check(d, g, w.workload)...)
		}
	}
	if d.has(demt) {
		claims = append(claims, demtOverallClaims(cells)...)
	}
	return claims
}

// claimData answers the questions the claims ask of a result.
type claimData struct{ r *Result }

// generator returns the run's generator whose short name is short, or "".
func (d claimData) generator(short string) string {
	for _, g := range d.r.Generators {
		if ShortWorkload(g) == short {
			return g
		}
	}
	return ""
}

// has reports whether the run has every one of algs.
func (d claimData) has(algs ...string) bool {
	for _, a := range algs {
		if !slices.Contains(d.r.Algorithms, a) {
			return false
		}
	}
	return true
}

// avg is alg's average ratio on criterion c at n, NaN when the run has
// no such point.
func (d claimData) avg(g string, n int64, alg string, c Criterion) float64 {
	p, ok := d.r.Point(g, n, alg)
	if !ok {
		return math.NaN()
	}
	return c.Of(p).Average
}

// everyN counts the n of g at which holds is true, and returns the count
// with the number of n.
func (d claimData) everyN(g string, holds func(n int64) bool) (count, total int) {
	sizes := d.r.Sizes(g)
	for _, n := range sizes {
		if holds(n) {
			count++
		}
	}
	return count, len(sizes)
}

// others returns the run's algorithms but except.
func (d claimData) others(except ...string) []string {
	var out []string
	for _, a := range d.r.Algorithms {
		if !slices.Contains(except, a) {
			out = append(out, a)
		}
	}
	return out
}

// best reports whether alg's average is below every other one's at n.
func (d claimData) best(g string, n int64, alg string, c Criterion) bool {
	for _, o := range d.others(alg) {
		if !(d.avg(g, n, alg, c) < d.avg(g, n, o, c)) {
			return false
		}
	}
	return true
}

// atEveryN is a claim that holds when it holds at every n of the
// workload (and there is one); detail follows the count in the evidence.
func atEveryN(workload, text string, count, total int, detail string) analysis.Claim {
	return analysis.Claim{Workload: workload, Text: text, Holds: total > 0 && count == total,
		Evidence: fmt.Sprintf("at %d of %d n%s", count, total, detail)}
}

// demtSecondWorst: on both criteria DEMT's average is worse than every
// algorithm's but Gang's, and better than Gang's.
func demtSecondWorst(d claimData, g, workload string) []analysis.Claim {
	var claims []analysis.Claim
	for _, c := range Criteria {
		count, total := d.everyN(g, func(n int64) bool {
			for _, o := range d.others(demt, gang) {
				if !(d.avg(g, n, demt, c) > d.avg(g, n, o, c)) {
					return false
				}
			}
			return d.avg(g, n, demt, c) < d.avg(g, n, gang, c)
		})
		claims = append(claims, atEveryN(workload,
			fmt.Sprintf("DEMT's average %s ratio is worse than every algorithm's but Gang's", c.Name), count, total, ""))
	}
	return claims
}

// demtCmaxAtMostTwo: DEMT's average C_max ratio is at most 2 at every n.
func demtCmaxAtMostTwo(d claimData, g, workload string) []analysis.Claim {
	worst := 0.0
	count, total := d.everyN(g, func(n int64) bool {
		a := d.avg(g, n, demt, ByCmax)
		worst = max(worst, a)
		return a <= 2
	})
	return []analysis.Claim{atEveryN(workload, "DEMT's average C_max ratio is no more than 2", count, total,
		fmt.Sprintf("; largest %.3f", worst))}
}

// demtBestOnMinsum: DEMT's average minsum ratio is the lowest at every n.
func demtBestOnMinsum(d claimData, g, workload string) []analysis.Claim {
	count, total := d.everyN(g, func(n int64) bool { return d.best(g, n, demt, ByMinsum) })
	return []analysis.Claim{atEveryN(workload, "DEMT is the best on minsum", count, total, "")}
}

// gangSequentialOpposite compares Gang and Sequential at the smallest
// and the largest n; it needs two n.
func gangSequentialOpposite(d claimData, g, workload string) []analysis.Claim {
	sizes := d.r.Sizes(g)
	if len(sizes) < 2 {
		return nil
	}
	lo, hi := sizes[0], sizes[len(sizes)-1]
	gl, gh := d.avg(g, lo, gang, ByMinsum), d.avg(g, hi, gang, ByMinsum)
	sl, sh := d.avg(g, lo, seq, ByMinsum), d.avg(g, hi, seq, ByMinsum)
	holds := gl < sl && sh < gh && gl < gh && sh < sl
	return []analysis.Claim{{Workload: workload, Holds: holds,
		Text:     "Gang and Sequential behave oppositely on minsum: Gang good at small n, Sequential at large n",
		Evidence: fmt.Sprintf("n=%d: Gang %.3f, Sequential %.3f; n=%d: Gang %.3f, Sequential %.3f", lo, gl, sl, hi, gh, sh)}}
}

// listsCmaxBelowTwo: every list algorithm's largest per-instance C_max
// ratio is below 2 at every n.
func listsCmaxBelowTwo(d claimData, g, workload string) []analysis.Claim {
	worst := 0.0
	count, total := d.everyN(g, func(n int64) bool {
		ok := true
		for _, a := range []string{listMRT, listWLPTF, listSAF} {
			p, _ := d.r.Point(g, n, a)
			worst = max(worst, p.Cmax.Max)
			ok = ok && p.Cmax.Max < 2
		}
		return ok
	})
	return []analysis.Claim{atEveryN(workload, "the list algorithms' C_max ratio is always below 2 (the MRT allotment is good)",
		count, total, fmt.Sprintf("; largest per-instance ratio %.3f", worst))}
}

// demtAroundTwo: DEMT's averages on both criteria are within
// aroundTwoTolerance of 2 at every n.
func demtAroundTwo(d claimData, g, workload string) []analysis.Claim {
	lo, hi := math.Inf(1), math.Inf(-1)
	count, total := d.everyN(g, func(n int64) bool {
		a, b := d.avg(g, n, demt, ByCmax), d.avg(g, n, demt, ByMinsum)
		lo, hi = min(lo, a, b), max(hi, a, b)
		return math.Abs(a-2) <= aroundTwoTolerance && math.Abs(b-2) <= aroundTwoTolerance
	})
	return []analysis.Claim{atEveryN(workload,
		fmt.Sprintf("DEMT is stable around 2 on both criteria (average within 2 ± %v)", aroundTwoTolerance), count, total,
		fmt.Sprintf("; averages range over [%.3f, %.3f]", lo, hi))}
}

// listSAFBeatsDEMT: on each criterion List-SAF's average is below
// DEMT's at every n.
func listSAFBeatsDEMT(d claimData, g, workload string) []analysis.Claim {
	var claims []analysis.Claim
	for _, c := range Criteria {
		count, total := d.everyN(g, func(n int64) bool {
			return d.avg(g, n, listSAF, c) < d.avg(g, n, demt, c)
		})
		claims = append(claims, atEveryN(workload, fmt.Sprintf("List-SAF is better than DEMT on %s", c.Name), count, total, ""))
	}
	return claims
}

// listsDegrade: List-MRT's and List-wLPTF's minsum averages at the
// largest n are at least degradeFactor times those at the smallest; it
// needs two n.
func listsDegrade(d claimData, g, workload string) []analysis.Claim {
	sizes := d.r.Sizes(g)
	if len(sizes) < 2 {
		return nil
	}
	lo, hi := sizes[0], sizes[len(sizes)-1]
	holds := true
	var evidence []string
	for _, a := range []string{listMRT, listWLPTF} {
		l, h := d.avg(g, lo, a, ByMinsum), d.avg(g, hi, a, ByMinsum)
		holds = holds && h >= degradeFactor*l
		evidence = append(evidence, fmt.Sprintf("%s %.3f at n=%d, %.3f at n=%d", a, l, lo, h, hi))
	}
	return []analysis.Claim{{Workload: workload, Holds: holds,
		Text:     fmt.Sprintf("List-MRT and List-wLPTF degrade as n grows (minsum ratio at the largest n >= %v x at the smallest)", degradeFactor),
		Evidence: strings.Join(evidence, "; ")}}
}

// demtStablest: DEMT's minsum average varies least over n (largest over
// smallest average) of all the algorithms.
func demtStablest(d claimData, g, workload string) []analysis.Claim {
	spread := func(alg string) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, n := range d.r.Sizes(g) {
			a := d.avg(g, n, alg, ByMinsum)
			lo, hi = min(lo, a), max(hi, a)
		}
		return hi / lo
	}
	stablest := true
	var evidence []string
	for _, a := range d.r.Algorithms {
		evidence = append(evidence, fmt.Sprintf("%s %.2f", a, spread(a)))
		if a != demt && spread(a) <= spread(demt) {
			stablest = false
		}
	}
	return []analysis.Claim{{Workload: workload, Holds: stablest,
		Text:     "DEMT is the only algorithm with a stable minsum ratio (smallest largest/smallest average over n)",
		Evidence: "largest/smallest average over n: " + strings.Join(evidence, ", ")}}
}

// demtOverallClaims are the claims about DEMT over every cell of the run,
// whatever its workload.
func demtOverallClaims(cells []Cell) []analysis.Claim {
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
	return []analysis.Claim{
		{Workload: "all", Holds: math.Abs(avgAll-2) <= aroundTwoTolerance,
			Text:     fmt.Sprintf("DEMT's minsum ratio is about 2 on average (within 2 ± %v)", aroundTwoTolerance),
			Evidence: fmt.Sprintf("average over every DEMT cell %.3f", avgAll)},
		{Workload: "all", Holds: float64(below) >= almostAlwaysShare*float64(all),
			Text:     fmt.Sprintf("DEMT's C_max ratio is almost always below 2 (in >= %v%% of the cells)", 100*almostAlwaysShare),
			Evidence: fmt.Sprintf("%d of %d cells (%.1f%%)", below, all, 100*float64(below)/float64(all))},
		demtRunTime(cells),
	}
}

// demtRunTime: DEMT's slowest cell at the largest n runs in under the
// paper's time.
func demtRunTime(cells []Cell) analysis.Claim {
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
	return analysis.Claim{Workload: "all", Holds: slowest < paperSecondsLimit,
		Text:     fmt.Sprintf("DEMT runs in under %v s at the largest n", paperSecondsLimit),
		Evidence: fmt.Sprintf("slowest DEMT cell at n=%d: %.3f s (lambda* included; machine-dependent)", largest, slowest)}
}
