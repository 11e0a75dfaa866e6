package backfill

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// The oracle is the Tradeoff-fs search of the design note's section 4
// written as plainly as it reads: the depth-bounded discrepancy search by
// recursion, a fresh copy of the profile at every depth, the earliest
// slot by trying every step, the budget checked before every placement
// but those of iteration 0, and the score summed along the path. The
// planner's shortcuts (one profile changed in place, chains restored by a
// copy, the memo of chain states) must give the same placements, paths,
// budget stops and jobs started.

// oracleStep is a piece of the oracle's profile.
type oracleStep struct {
	seconds int64
	free    int
}

// oracleSearch is one decision point's search by the oracle.
type oracleSearch struct {
	cfg       *Tradeoff
	tw        int64
	now       int64
	m         int
	procs     []int
	est       []int64
	submit    []int64
	jobs      []int // queue position to job index
	budget    int
	placed    int
	paths     int64
	exhausted bool

	haveBest           bool
	bestExcess         int64
	bestSum, bestScore float64
	bestNow            []int
	pathJobs           []int
	pathStarts         []int64
}

// oracleEarliest tries every step as the start of a job of n processors
// for dur seconds.
func oracleEarliest(prof []oracleStep, n int, dur int64) int64 {
	for i := range prof {
		fits := true
		for j := i; j < len(prof) && prof[j].seconds < prof[i].seconds+dur; j++ {
			if prof[j].free < n {
				fits = false
				break
			}
		}
		if fits {
			return prof[i].seconds
		}
	}
	panic("oracle: no slot")
}

// oracleReserve returns a copy of prof with n processors taken from start
// (a step's start) for dur seconds.
func oracleReserve(prof []oracleStep, start, dur int64, n int) []oracleStep {
	end := start + dur
	var out []oracleStep
	for i, st := range prof {
		to := int64(math.MaxInt64)
		if i+1 < len(prof) {
			to = prof[i+1].seconds
		}
		covered := st.seconds >= start && st.seconds < end
		free := st.free
		if covered {
			free -= n
		}
		out = append(out, oracleStep{st.seconds, free})
		if covered && end < to {
			out = append(out, oracleStep{end, st.free})
		}
	}
	return out
}

func (o *oracleSearch) visit(prof []oracleStep, left []int, k int) bool {
	d := len(o.pathJobs)
	if d == o.m {
		o.leaf()
		return true
	}
	children := left
	switch {
	case d >= k:
		children = left[:1]
	case d+1 == k:
		children = left[1:]
	}
	for _, c := range children {
		if k > 0 && o.placed >= o.budget {
			o.exhausted = true
			return false
		}
		start := oracleEarliest(prof, o.procs[c], o.est[c])
		o.placed++
		rest := slices.DeleteFunc(slices.Clone(left), func(x int) bool { return x == c })
		o.pathJobs = append(o.pathJobs, c)
		o.pathStarts = append(o.pathStarts, start)
		ok := o.visit(oracleReserve(prof, start, o.est[c], o.procs[c]), rest, k)
		o.pathJobs = o.pathJobs[:d]
		o.pathStarts = o.pathStarts[:d]
		if !ok {
			return false
		}
	}
	return true
}

func (o *oracleSearch) leaf() {
	o.paths++
	var excess int64
	var sum float64
	for d, c := range o.pathJobs {
		wait := o.pathStarts[d] - o.submit[c]
		excess += max(0, wait-o.tw)
		sum += float64(wait+o.est[c]) / float64(max(o.est[c], 60))
	}
	score := o.cfg.AlphaPerHour*float64(excess)/3600 + sum/float64(o.m)
	if o.haveBest {
		var better bool
		if o.cfg.Objective == ObjectiveHier {
			better = excess < o.bestExcess || excess == o.bestExcess && sum < o.bestSum-relativeTie*max(1, o.bestSum)
		} else {
			better = score < o.bestScore-relativeTie*max(1, o.bestScore)
		}
		if !better {
			return
		}
	}
	o.haveBest = true
	o.bestExcess, o.bestSum, o.bestScore = excess, sum, score
	o.bestNow = o.bestNow[:0]
	for d, c := range o.pathJobs {
		if o.pathStarts[d] == o.now {
			o.bestNow = append(o.bestNow, o.jobs[c])
		}
	}
}

// oraclePlan runs the oracle at the simulation's decision point, with the
// waiting jobs in s.order.
func oraclePlan(s *sim, cfg *Tradeoff, tw int64) *oracleSearch {
	o := &oracleSearch{cfg: cfg, tw: tw, now: s.now, m: len(s.order), budget: cfg.BudgetPlacements, jobs: s.order}
	for _, j := range s.order {
		o.procs = append(o.procs, s.jobs[j].Procs)
		o.est = append(o.est, s.est[j])
		o.submit = append(o.submit, s.jobs[j].SubmitSeconds)
	}
	prof := []oracleStep{{s.now, s.free}}
	for _, j := range s.running {
		prof = oracleRelease(prof, s.sched.StartSeconds[j]+s.est[j], s.jobs[j].Procs)
	}
	left := make([]int, o.m)
	for i := range left {
		left[i] = i
	}
	for k := 0; k < max(o.m, 1); k++ {
		if !o.visit(prof, left, k) {
			break
		}
	}
	return o
}

// oracleRelease returns prof with n more processors free from at (later
// than the first step) on.
func oracleRelease(prof []oracleStep, at int64, n int) []oracleStep {
	var out []oracleStep
	split := true
	for i, st := range prof {
		if split && st.seconds > at {
			out = append(out, oracleStep{at, prof[i-1].free + n})
			split = false
		}
		if st.seconds == at {
			split = false
		}
		if st.seconds >= at {
			st.free += n
		}
		out = append(out, st)
	}
	if split {
		out = append(out, oracleStep{at, prof[len(prof)-1].free + n})
	}
	return out
}

// randomDecision builds a decision point: procs processors, some running
// jobs and m waiting ones in the RelShare order of the queue. Sizes and
// estimates come from small sets, wide jobs (more than half the cluster)
// among them, so that orders tie, slots coincide and chains meet states
// of earlier paths, clamped or not.
func randomDecision(rng *rand.Rand, procs, m int, cfg Tradeoff) *sim {
	const h = 3600
	sizes := []int{1, 2, procs / 4, procs/2 + 1, procs}
	if rng.IntN(3) == 0 {
		sizes = sizes[1:] // no job of one processor: counts below 2 clamp
	}
	estimates := []int64{30, 10 * 60, h, 2 * h, 5 * h, 24 * h}
	now := int64(100 * h)
	w := &rigid.Workload{Name: "random decision", Procs: procs}
	running := rng.IntN(4)
	for i := range running + m {
		n := max(1, sizes[rng.IntN(len(sizes))])
		est := estimates[rng.IntN(len(estimates))]
		if rng.IntN(3) == 0 {
			est = 1 + rng.Int64N(30*h)
		}
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(rng.IntN(4)),
			SubmitSeconds: now - rng.Int64N(80*h), Procs: n, RunSeconds: est, RequestedSeconds: est})
	}
	s := newSim(w, rigid.EstimateExact, Policy{Planner: &cfg}, cfg.TwSeconds)
	free := procs
	for j := range running {
		if w.Jobs[j].Procs > free {
			continue
		}
		free -= w.Jobs[j].Procs
		s.now = now - rng.Int64N(w.Jobs[j].RunSeconds)
		s.start(j)
	}
	s.now = now
	for j := running; j < running+m; j++ {
		s.queue = append(s.queue, j)
	}
	s.order = slices.Clone(s.queue)
	rng.Shuffle(len(s.order), func(a, b int) { s.order[a], s.order[b] = s.order[b], s.order[a] })
	return s
}

// TestPlannerMatchesOracle runs the planner and the oracle on thousands of
// random decision points, whole trees and budget stops anywhere, both
// objectives, and compares every count and the jobs started.
func TestPlannerMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	budgets := []int{0, 1, 3, 10, 40, 150, 700, 3000, 10000}
	for trial := range 3000 {
		m := 1 + rng.IntN(8)
		if trial%10 == 0 {
			m = 10 + rng.IntN(80)
		}
		if trial%10 == 1 {
			m = 9 + rng.IntN(20)
		}
		cfg := Tradeoff{TwSeconds: []int64{0, 3600, 48 * 3600}[rng.IntN(3)], AlphaPerHour: []float64{0, 1, 2.5}[rng.IntN(3)],
			Objective: Objective(rng.IntN(2)), BudgetPlacements: budgets[rng.IntN(len(budgets))]}
		procs := []int{4, 8, 100}[rng.IntN(3)]
		s := randomDecision(rng, procs, m, cfg)
		o := oraclePlan(s, &cfg, cfg.TwSeconds)
		p := s.planner
		p.plan()
		name := fmt.Sprintf("trial %d (m %d, %d procs, %+v)", trial, m, procs, cfg)
		if got, want := p.placements, o.placed; got != want {
			t.Fatalf("%s: %d placements, want %d", name, got, want)
		}
		st := s.sched.Stats
		if st.Paths != o.paths || (st.BudgetExhausted == 1) != o.exhausted || st.Placements != int64(o.placed) {
			t.Fatalf("%s: stats %+v, want %d paths, exhausted %v", name, st, o.paths, o.exhausted)
		}
		if p.bestExcess != o.bestExcess || math.Float64bits(p.bestSum) != math.Float64bits(o.bestSum) {
			t.Fatalf("%s: best excess %d, sum %v; want %d, %v", name, p.bestExcess, p.bestSum, o.bestExcess, o.bestSum)
		}
		var started []int
		for _, j := range s.order {
			if s.sched.StartSeconds[j] == s.now {
				started = append(started, j)
			}
		}
		want := slices.Clone(o.bestNow)
		slices.Sort(want)
		slices.Sort(started)
		if !slices.Equal(started, want) {
			t.Fatalf("%s: started %v, want %v", name, started, want)
		}
	}
}

// oracleDecider is the oracle as a policy: the RelShare order, then the
// oracle's search, with its counts kept beside.
type oracleDecider struct {
	cfg   *Tradeoff
	stats Stats
}

func (d *oracleDecider) Decide(st *State) ([]int, error) {
	s := st.s
	s.sortQueue()
	o := oraclePlan(s, d.cfg, d.cfg.TwSeconds)
	d.stats.Plans++
	d.stats.Placements += int64(o.placed)
	d.stats.Paths += o.paths
	if o.exhausted {
		d.stats.BudgetExhausted++
	}
	return slices.Clone(o.bestNow), nil
}

// TestTradeoffMonthsMatchOracle simulates small random months with
// Tradeoff-fs and with the oracle as the policy: the schedules and the
// counts of the search must agree at every decision point.
func TestTradeoffMonthsMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	for trial := range 6 {
		const procs = 16
		w := &rigid.Workload{Name: fmt.Sprintf("month %d", trial), Procs: procs}
		for i := range 120 {
			run := 60 + rng.Int64N(8*3600)
			w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(rng.IntN(6)),
				SubmitSeconds: rng.Int64N(4 * DaySeconds), Procs: []int{1, 2, 4, 9, 16}[rng.IntN(5)],
				RunSeconds: run, RequestedSeconds: run + rng.Int64N(3*run)})
		}
		w.SortJobs()
		cfg := &Tradeoff{TwSeconds: []int64{3600, 12 * 3600}[trial%2], AlphaPerHour: 1, Objective: Objective(trial / 2 % 2),
			BudgetPlacements: []int{300, 2000, 10000}[trial%3]}
		got, err := Simulate(context.Background(), w, rigid.EstimateRequested, Policy{Order: OrderRelShare, Planner: cfg})
		if err != nil {
			t.Fatal(err)
		}
		d := &oracleDecider{cfg: cfg}
		want, err := Simulate(context.Background(), w, rigid.EstimateRequested, Policy{Decider: d})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.StartSeconds, want.StartSeconds) {
			t.Fatalf("%s: the starts differ from the oracle's", w.Name)
		}
		g := got.Stats
		if g.Plans != d.stats.Plans || g.Placements != d.stats.Placements || g.Paths != d.stats.Paths || g.BudgetExhausted != d.stats.BudgetExhausted {
			t.Fatalf("%s: stats %+v, oracle's %+v", w.Name, g, d.stats)
		}
		if g.Placements == 0 || g.BudgetExhausted == 0 {
			t.Fatalf("%s: stats %+v: the month does not exercise the budget", w.Name, g)
		}
	}
}

// TestSameStateMatchesBruteForce compares sameState with the definition it
// decides: two paths leave the same jobs and profiles equal where either
// holds nmin processors or more. The paths place random orders of random
// sets of jobs, wide ones among them, on a random profile; the
// definition is checked at every step of either profile. The same states
// must hash alike, or the memo would miss them.
func TestSameStateMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 6))
	const procs = 8
	counts := map[string]int{}
	for trial := range 20000 {
		m := 2 + rng.IntN(6)
		p := &planner{m: m, waiting: make([]waitingJob, m), chosen: make([]int, m), startAt: make([]int64, m),
			otherStart: make([]int64, m), mark: make([]uint32, m)}
		for c := range m {
			p.waiting[c] = waitingJob{procs: int32([]int{1, 2, 3, 5, 8}[rng.IntN(5)]), estSeconds: []int64{1, 2, 3, 5}[rng.IntN(4)]}
		}
		base := []oracleStep{{0, rng.IntN(procs + 1)}}
		for at := int64(1); base[len(base)-1].free < procs; at += 1 + rng.Int64N(3) {
			base = append(base, oracleStep{at, min(procs, base[len(base)-1].free+rng.IntN(4))})
		}
		t1 := 1 + rng.IntN(m-1)
		// Path X on the planner's profile, path Y by the oracle.
		p.work.steps = p.work.steps[:0]
		for _, st := range base {
			p.work.steps = append(p.work.steps, step{seconds: st.seconds, free: int32(st.free)})
		}
		p.work.known = 0
		for u, c := range rng.Perm(m)[:t1] {
			w := p.waiting[c]
			start, first := p.work.earliest(w.procs, w.estSeconds)
			p.work.reserve(first, w.estSeconds, w.procs)
			p.chosen[u], p.startAt[u] = c, start
		}
		ySet := rng.Perm(m)[:t1]
		if rng.IntN(2) == 0 {
			ySet = slices.Clone(p.chosen[:t1])
			rng.Shuffle(t1, func(a, b int) { ySet[a], ySet[b] = ySet[b], ySet[a] })
		}
		other := base
		var rec []pathStep
		for _, c := range ySet {
			w := p.waiting[c]
			start := oracleEarliest(other, int(w.procs), w.estSeconds)
			other = oracleReserve(other, start, w.estSeconds, int(w.procs))
			rec = append(rec, pathStep{seconds: start, job: int32(c)})
		}
		nmin := int32(1 + rng.IntN(4))
		p.nmin = nmin
		here := make([]oracleStep, len(p.work.steps))
		for i, st := range p.work.steps {
			here[i] = oracleStep{st.seconds, int(st.free)}
		}
		want := sameJobs(p.chosen[:t1], ySet) && sameClamped(here, other, int(nmin))
		if want {
			var o profile
			for _, st := range other {
				o.steps = append(o.steps, step{seconds: st.seconds, free: int32(st.free)})
			}
			if h, oh := p.work.stateHash(nmin), o.stateHash(nmin); h != oh {
				t.Fatalf("trial %d: the same states hash to %x and %x: %v, %v", trial, h, oh, here, other)
			}
		}
		if got := p.sameState(rec, t1); got != want {
			t.Fatalf("trial %d: sameState %v, want %v: X %v at %v on %v, Y %v, nmin %d", trial, got, want, p.chosen[:t1], p.startAt[:t1], here, rec, nmin)
		}
		moved := false
		for u := range t1 {
			i := slices.IndexFunc(rec, func(ps pathStep) bool { return int(ps.job) == p.chosen[u] })
			moved = moved || i >= 0 && rec[i].seconds != p.startAt[u]
		}
		counts[fmt.Sprintf("same %v, moved %v", want, moved)]++
	}
	for _, c := range []string{"same true, moved true", "same false, moved true", "same true, moved false", "same false, moved false"} {
		if counts[c] < 100 {
			t.Errorf("%d cases of %s: %v", counts[c], c, counts)
		}
	}
}

func sameJobs(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// sameClamped reports whether two profiles agree wherever either has nmin
// processors free or more.
func sameClamped(a, b []oracleStep, nmin int) bool {
	at := func(prof []oracleStep, x int64) int {
		i, _ := slices.BinarySearchFunc(prof, x+1, func(st oracleStep, t int64) int { return cmp.Compare(st.seconds, t) })
		return prof[i-1].free
	}
	for _, prof := range [][]oracleStep{a, b} {
		for _, st := range prof {
			fa, fb := at(a, st.seconds), at(b, st.seconds)
			if fa != fb && (fa >= nmin || fb >= nmin) {
				return false
			}
		}
	}
	return true
}

// TestConservativeMatchesPlain compares conservative backfilling's pass,
// which stops once no job left fits now, with the pass that places every
// waiting job, on random decision points: the same jobs must start.
func TestConservativeMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	stopped := 0
	for trial := range 3000 {
		m := 1 + rng.IntN(60)
		procs := []int{4, 8, 100}[rng.IntN(3)]
		s := randomDecision(rng, procs, m, Tradeoff{})
		s.planner = newPlanner(s, nil, 0)
		prof := []oracleStep{{s.now, s.free}}
		for _, j := range s.running {
			prof = oracleRelease(prof, s.sched.StartSeconds[j]+s.est[j], s.jobs[j].Procs)
		}
		var want []int
		for _, j := range s.order {
			n, e := s.jobs[j].Procs, s.est[j]
			start := oracleEarliest(prof, n, e)
			prof = oracleReserve(prof, start, e, n)
			if start == s.now {
				want = append(want, j)
			}
		}
		s.planner.plan()
		var got []int
		for _, j := range s.order {
			if s.sched.StartSeconds[j] == s.now {
				got = append(got, j)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (m %d, %d procs): started %v, want %v", trial, m, procs, got, want)
		}
		if s.planner.placements < m {
			stopped++
		}
	}
	if stopped < 1000 {
		t.Errorf("the pass stopped early in %d of 3000 decisions", stopped)
	}
}

// treeSize counts the subtrees of the design note's 3- and 4-job orders:
// iteration k from the root is the subtree with k levels above the chains.
func TestTreeSize(t *testing.T) {
	tests := []struct {
		r, j       int
		placements int
		paths      int64
	}{
		{3, 1, 6, 2},   // 213 312
		{3, 2, 9, 3},   // 132 231 321
		{4, 1, 12, 3},  // 2134 3124 4123
		{4, 2, 28, 8},  // 1324 ... 4312
		{4, 3, 40, 12}, // 1243 ... 4321
	}
	for _, tt := range tests {
		if placements, paths := treeSize(tt.r, tt.j); placements != tt.placements || paths != tt.paths {
			t.Errorf("treeSize(%d, %d) = %d, %d; want %d, %d", tt.r, tt.j, placements, paths, tt.placements, tt.paths)
		}
	}
	if placements, paths := treeSize(1000, 40); placements != math.MaxInt-1 || paths != math.MaxInt-1 {
		t.Errorf("treeSize(1000, 40) = %d, %d; want both saturated", placements, paths)
	}
}
