package backfill

import (
	"cmp"
	"math"
	"slices"
)

// planner places the waiting jobs in a resource profile: once in priority
// order for conservative backfilling, or along many orders for
// Tradeoff-fs.
type planner struct {
	s   *sim
	cfg *Tradeoff // nil: conservative backfilling
	tw  int64

	queue []int // the waiting jobs in priority order, this pass
	m     int
	// waiting holds what a placement reads of each queue position, side
	// by side: the jobs themselves are scattered over the workload.
	waiting []waitingJob
	// work is the profile after the placements of the current path;
	// reserved[d] is what the placement at depth d took from it, released
	// before the next sibling at depth d is placed, so a prefix is placed
	// once however many paths share it.
	work     profile
	saved    profile // the profile a chain started from
	reserved []reservation
	chosen   []int   // queue position placed at each depth
	startAt  []int64 // its planned start
	// excessSeconds[d] and stretchSum[d] are the score terms of the first
	// d placements: the waits beyond Tw, and the bounded slowdowns;
	// excessTerm[d] and stretchTerm[d] those of the placement at depth d.
	excessSeconds []int64
	stretchSum    []float64
	excessTerm    []int64
	stretchTerm   []float64
	// next and prev link the queue positions not yet placed, in priority
	// order, around the sentinel m (dancing links: unlink and relink in
	// LIFO order are O(1)).
	next, prev []int

	// lbExcess[c] and lbStretch[c] are the score terms of queue position c
	// at its earliest start in the profile of a search node (lowerBounds).
	lbStart      []int64
	lbFirst      []int
	lbExcess     []int64
	lbStretch    []float64
	lbJobs       int
	lbExcessSum  int64
	lbStretchSum float64
	// chainBounds is set while the bounds are those of the node one level
	// above the chains whose child is being searched: its chain bounds
	// itself by them. boundBests is bests when the node was bounded.
	chainBounds bool
	boundBests  int
	// stair is conservative backfilling's staircase of the jobs left
	// (conservative.go).
	stair      []stairStep
	candidates []int // the queue positions that might start now

	memo chainMemo
	// nmin is the fewest processors of the waiting jobs, the memo's clamp;
	// stateHash[d] and placedHash[d] hash the profile (clamped at nmin)
	// and the jobs placed before depth d of the current path.
	nmin       int32
	stateHash  []uint64
	placedHash []uint64
	pending    []probedState // the states a chain passed, for the memo
	// probeMask selects the depths at which chains look their states up
	// and keep them: those where depth&probeMask is 0 (memoStride).
	probeMask int
	// sameState's scratch: per queue position, the start on the other
	// path, valid where mark is markGen.
	otherStart []int64
	mark       []uint32
	markGen    uint32
	edges      []edge
	edgeSums   edgeSums

	placements int
	exhausted  bool
	haveBest   bool
	bests      int // the incumbents so far, this decision
	bestExcess int64
	bestSum    float64
	bestScore  float64
	bestNow    []int // jobs the best path starts now

	// onLeaf, when set (tests), sees each complete path as queue
	// positions.
	onLeaf func(path []int)
}

// waitingJob is a queue position as the planner reads it.
type waitingJob struct {
	procs          int32
	estSeconds     int64
	submitSeconds  int64
	stretchDivisor float64 // max(estimate, 60 s), the bounded slowdown's
}

func newPlanner(s *sim, cfg *Tradeoff, twSeconds int64) *planner {
	return &planner{s: s, cfg: cfg, tw: twSeconds}
}

// baseProfile builds the profile of the running jobs' estimated ends.
func (p *planner) baseProfile() {
	s := p.s
	ends := s.endsBuf[:0]
	for _, j := range s.running {
		ends = append(ends, endEvent{seconds: s.sched.StartSeconds[j] + s.est[j], job: j})
	}
	s.endsBuf = ends
	slices.SortFunc(ends, func(a, b endEvent) int { return cmp.Compare(a.seconds, b.seconds) })
	base := append(p.work.steps[:0], step{seconds: s.now, free: int32(s.free)})
	for _, e := range ends {
		last := &base[len(base)-1]
		if last.seconds == e.seconds {
			last.free += int32(s.jobs[e.job].Procs)
			continue
		}
		base = append(base, step{seconds: e.seconds, free: last.free + int32(s.jobs[e.job].Procs)})
	}
	p.work.steps, p.work.known = base, 0
}

func (p *planner) reset() {
	p.queue = p.s.order
	p.m = len(p.queue)
	m := p.m
	p.waiting = p.waiting[:0]
	p.nmin = math.MaxInt32
	for _, j := range p.queue {
		e := p.s.est[j]
		w := waitingJob{procs: int32(p.s.jobs[j].Procs), estSeconds: e,
			submitSeconds: p.s.jobs[j].SubmitSeconds, stretchDivisor: float64(max(e, 60))}
		p.waiting = append(p.waiting, w)
		p.nmin = min(p.nmin, w.procs)
	}
	p.reserved = slices.Grow(p.reserved[:0], m)[:m]
	p.chosen = slices.Grow(p.chosen[:0], m)[:m]
	p.startAt = slices.Grow(p.startAt[:0], m)[:m]
	p.placements = 0
	p.baseProfile()
	if p.cfg == nil {
		return // conservative backfilling needs no more
	}
	p.excessSeconds = slices.Grow(p.excessSeconds[:0], m+1)[:m+1]
	p.stretchSum = slices.Grow(p.stretchSum[:0], m+1)[:m+1]
	p.excessTerm = slices.Grow(p.excessTerm[:0], m)[:m]
	p.stretchTerm = slices.Grow(p.stretchTerm[:0], m)[:m]
	p.otherStart = slices.Grow(p.otherStart[:0], m)[:m]
	if len(p.mark) < m {
		p.mark = make([]uint32, m)
		p.markGen = 0
	}
	p.memo.reset()
	p.probeMask = memoStride(m) - 1
	p.next = slices.Grow(p.next[:0], m+1)[:m+1]
	p.prev = slices.Grow(p.prev[:0], m+1)[:m+1]
	for i := range m + 1 {
		p.next[i], p.prev[i] = i+1, i-1
	}
	p.next[m], p.prev[0] = 0, m
	p.excessSeconds[0], p.stretchSum[0] = 0, 0
	p.stateHash = slices.Grow(p.stateHash[:0], m+1)[:m+1]
	p.placedHash = slices.Grow(p.placedHash[:0], m+1)[:m+1]
	p.stateHash[0], p.placedHash[0] = p.work.stateHash(p.nmin), 0
	p.exhausted = false
	p.haveBest = false
	p.bests = 0
	p.bestNow = p.bestNow[:0]
}

// plan runs one decision: conservative backfilling, or the Tradeoff-fs
// search; then starts the jobs the chosen plan starts now.
func (p *planner) plan() {
	p.reset()
	s := p.s
	if p.cfg == nil {
		p.conservative()
		return
	}
	s.sched.Stats.Plans++
	for k := 0; k < max(p.m, 1); k++ {
		if !p.visit(0, k) {
			break
		}
	}
	if p.exhausted {
		s.sched.Stats.BudgetExhausted++
	}
	s.sched.Stats.Placements += int64(p.placements)
	for _, j := range p.bestNow {
		s.start(j)
	}
}

// visit walks iteration k of the depth-bounded discrepancy search from
// depth d (0-based; the note's depth is d+1): any child above depth k, a
// non-leftmost child at depth k, the leftmost below. It returns false
// when the budget stops the search.
func (p *planner) visit(d, k int) bool {
	if d >= k {
		return p.chain(d, k)
	}
	// When no completion of the path so far can beat the incumbent, the
	// node's subtree is counted, not searched. On short queues every node
	// is bounded; on all, those one above the chains, whose bounds the
	// children's chains go on using (chain).
	above := d+1 == k
	bounded := k > 0 && p.onLeaf == nil && p.haveBest && (above || p.m < boundMaxJobs)
	p.chainBounds = bounded && above
	if bounded {
		p.lowerBounds()
		if p.cannotImprove(d) {
			return p.countTree(p.m-d, k-d)
		}
		p.boundBests = p.bests
	}
	sentinel := p.m
	c := p.next[sentinel]
	if d+1 == k {
		c = p.next[c]
	}
	for ; c != sentinel; c = p.next[c] {
		if k > 0 && p.placements >= p.cfg.BudgetPlacements {
			p.exhausted = true
			return false
		}
		if bounded && above {
			// The children's chains leave the profile as lowerBounds
			// found it, and so each child's earliest start.
			p.placeAt(d, c, p.lbStart[c], p.lbFirst[c])
		} else {
			p.place(d, c)
		}
		p.next[p.prev[c]], p.prev[p.next[c]] = p.next[c], p.prev[c]
		ok := p.visit(d+1, k)
		p.next[p.prev[c]], p.prev[p.next[c]] = c, c
		p.unplace(d)
		if !ok {
			return false
		}
		if d+1 > k {
			break // below depth k only the leftmost child
		}
	}
	return true
}

// lowerBounds works out, for each job not placed, its earliest start in
// the current profile and the score terms there (later placements only
// fill the profile, so no path below starts it earlier, and the terms
// only grow with the start), and their sums. They hold until the next
// call.
func (p *planner) lowerBounds() {
	p.lbStart = slices.Grow(p.lbStart[:0], p.m)[:p.m]
	p.lbFirst = slices.Grow(p.lbFirst[:0], p.m)[:p.m]
	p.lbExcess = slices.Grow(p.lbExcess[:0], p.m)[:p.m]
	p.lbStretch = slices.Grow(p.lbStretch[:0], p.m)[:p.m]
	p.lbJobs, p.lbExcessSum, p.lbStretchSum = 0, 0, 0
	for c := p.next[p.m]; c != p.m; c = p.next[c] {
		w := &p.waiting[c]
		start, first := p.work.earliest(w.procs, w.estSeconds)
		wait := start - w.submitSeconds
		excess, stretch := max(0, wait-p.tw), float64(wait+w.estSeconds)/w.stretchDivisor
		p.lbStart[c], p.lbFirst[c] = start, first
		p.lbExcess[c], p.lbStretch[c] = excess, stretch
		p.lbJobs++
		p.lbExcessSum += excess
		p.lbStretchSum += stretch
	}
}

// cannotImprove reports whether no completion of the current path from
// depth d can beat the incumbent, by the lower bounds of the jobs not
// placed.
func (p *planner) cannotImprove(d int) bool {
	return p.cannotComplete(d, p.lbExcessSum, p.lbStretchSum)
}

// cannotComplete reports whether no completion of the current path from
// depth d can beat the incumbent, when the bounds of the jobs left sum to
// restExcess and restStretch: the sums of lowerBounds less the bounds of
// the jobs placed since, one subtraction each. The stretch bounds are
// summed in another order than a path would sum its terms, and taken off
// one by one; each of the lbJobs additions and at most lbJobs
// subtractions errs by at most one unit in the last place of the bounds'
// sum, and the path's own sum of its rest by at most r+1 of its total
// (cannotBeat): the margin, 8(lbJobs+2) units in the last place of the
// prefix and every bound, covers them all.
func (p *planner) cannotComplete(d int, restExcess int64, restStretch float64) bool {
	margin := (p.stretchSum[d] + p.lbStretchSum) * float64(p.lbJobs+2) * 0x1p-50
	return !p.better(p.excessSeconds[d]+restExcess, p.stretchSum[d]+restStretch-margin)
}

// countRest counts the rest placements of a path that cannot beat the
// incumbent as if they were placed: as far as the budget lets them, and
// the path if complete. It returns false when the budget stops it.
func (p *planner) countRest(rest int) bool {
	if p.placements+rest > p.cfg.BudgetPlacements {
		p.placements = max(p.placements, p.cfg.BudgetPlacements)
		p.exhausted = true
		return false
	}
	p.placements += rest
	p.s.sched.Stats.Paths++
	return true
}

// countTree counts the subtree of a node of iteration k with r jobs left
// and j = k - d >= 1 levels above the chains, none of whose paths can beat
// the incumbent, as visit would search it: its placements, as far as the
// budget lets them, and its complete paths. It returns false when the
// budget stops it. The counts depend only on r and j.
func (p *planner) countTree(r, j int) bool {
	children := r
	if j == 1 {
		children = r - 1 // a non-leftmost child at depth k-1
	}
	for range children {
		if j == 1 {
			// The child's placement and its chain.
			if !p.countRest(r) {
				return false
			}
			continue
		}
		placements, paths := treeSize(r-1, j-1)
		if placements < math.MaxInt-1 && p.placements+1+placements <= p.cfg.BudgetPlacements {
			p.placements += 1 + placements
			p.s.sched.Stats.Paths += paths
			continue
		}
		// The budget stops the search inside this child.
		if p.placements >= p.cfg.BudgetPlacements {
			p.exhausted = true
			return false
		}
		p.placements++
		return p.countTree(r-1, j-1)
	}
	return true
}

// treeSize returns the placements and complete paths of the subtree of a
// node with r jobs left and j >= 1 levels above the chains, without a
// budget; both saturate at math.MaxInt-1.
func treeSize(r, j int) (placements int, paths int64) {
	if j == 1 {
		return satMul(r-1, r), int64(max(r-1, 0))
	}
	below, belowPaths := treeSize(r-1, j-1)
	return satMul(r, satAdd(1, below)), int64(satMul(r, int(belowPaths)))
}

// satAdd and satMul add and multiply nonnegative counts, saturating at
// math.MaxInt-1.
func satAdd(a, b int) int {
	if a > math.MaxInt-1-b {
		return math.MaxInt - 1
	}
	return a + b
}

func satMul(a, b int) int {
	if a > 0 && b > (math.MaxInt-1)/a {
		return math.MaxInt - 1
	}
	return a * b
}

// chain completes the path from depth d with the leftmost child at every
// depth, the remaining jobs in priority order, as visit does below depth
// k, and scores it. A chain is never backed into, so instead of releasing
// its placements one by one it restores the profile it started from in
// one copy, saved before its first placement (about half the chains of
// the real months find their first state in the memo, or are cut by
// their bounds, and place none). Before a placement it looks its state up in the memo
// (memo.go) and, found, takes the rest of the path from there. It returns
// false when the budget stops the chain.
func (p *planner) chain(d, k int) bool {
	sentinel := p.m
	p.pending = p.pending[:0]
	// Below a node one above the chains (k > 0), the chain takes the
	// node's bounds of the jobs left along, each placement replacing its
	// job's bound by its terms, and is counted once it cannot beat the
	// incumbent. The test is made again only after the bound rose (a
	// placement later than its bound; the node's placement at depth d-1
	// is at its bound) or the incumbent changed.
	bounded := k > 0 && p.chainBounds
	var boundExcess int64
	var boundStretch float64
	if bounded {
		c := p.chosen[d-1]
		boundExcess, boundStretch = p.lbExcessSum-p.lbExcess[c], p.lbStretchSum-p.lbStretch[c]
	}
	test := bounded && p.bests != p.boundBests
	// ok is false for a path cut by the budget, or scored already.
	ok, scored := true, false
	from := -1 // the state the rest was copied from
	placed := false
	t := d
	for ; t < p.m; t++ {
		if test && p.cannotComplete(t, boundExcess, boundStretch) {
			if scored = p.countRest(p.m - t); scored {
				p.remember(d, t, -1, p.boundedRest(boundExcess, boundStretch))
			}
			ok = false
			break
		}
		test = false
		if t&p.probeMask == 0 {
			key := stateKey(p.stateHash[t], p.placedHash[t])
			if hit := p.memo.lookup(key); hit >= 0 && p.sameState(p.memo.paths[int(p.memo.states[hit].at)-t:], t) {
				st := &p.memo.states[hit]
				beaten := p.onLeaf == nil && p.cannotBeat(hit, t)
				if beaten || !st.rest.bound {
					rest := p.m - t
					if k > 0 && p.placements+rest > p.cfg.BudgetPlacements {
						// Placing, the chain would have stopped at the budget.
						p.placements = max(p.placements, p.cfg.BudgetPlacements)
						p.exhausted = true
						ok = false
						break
					}
					p.placements += rest
					if beaten {
						p.s.sched.Stats.Paths++
						p.remember(d, t, hit, st.rest)
						ok, scored = false, true
						break
					}
					p.replay(int(st.at), t)
					from = hit
					break
				}
				// A rest only bounded, and the bound does not decide:
				// the chain places it.
			} else {
				p.pending = append(p.pending, probedState{key, t})
			}
		}
		if k > 0 && p.placements >= p.cfg.BudgetPlacements {
			p.exhausted = true
			ok = false
			break
		}
		if !placed {
			p.saved.steps = append(p.saved.steps[:0], p.work.steps...)
			p.saved.known = p.work.known
			placed = true
		}
		c := p.next[sentinel]
		p.place(t, c)
		p.next[sentinel], p.prev[p.next[c]] = p.next[c], sentinel
		if bounded {
			boundExcess -= p.lbExcess[c]
			boundStretch -= p.lbStretch[c]
			test = p.excessTerm[t] != p.lbExcess[c] || p.stretchTerm[t] != p.lbStretch[c]
		}
	}
	if ok {
		p.leaf()
		var rest restSums
		if from >= 0 {
			rest = p.memo.states[from].rest
		}
		p.remember(d, t, from, rest)
	}
	for t--; t >= d; t-- {
		c := p.chosen[t]
		p.next[p.prev[c]], p.prev[p.next[c]] = c, c
	}
	if placed {
		p.work.steps = append(p.work.steps[:0], p.saved.steps...)
		p.work.known = p.saved.known
	}
	return ok || scored
}

// boundedRest is the rest of a chain cut by its bounds, as the memo keeps
// it: the bounds' sums, the stretch lowered by the margin of
// cannotComplete for the bounds' own errors, so that it is below the
// exact sum of the bounds, and so of any rest from the chain's state;
// cannotBeat then treats it as the sum of a rest of terms.
func (p *planner) boundedRest(excess int64, stretch float64) restSums {
	low := stretch - p.lbStretchSum*float64(p.lbJobs+2)*0x1p-50
	return restSums{excess: excess, stretch: max(0, low), bound: true}
}

// remember puts the current path into the memo: its depths up to own
// (the depths it placed itself, from d on, and the prefix before them),
// the rest by a link to the path of the state it copied them from (-1:
// none), and the states its chain looked up from depth d, each with the
// sums of the score terms from there on: those of its own depths plus
// rest, the sums of the rest after own (exact, or bounds for a path cut
// by its bounds or ending in a state whose rest is bounded).
func (p *planner) remember(d, own, from int, rest restSums) {
	if len(p.pending) == 0 {
		return // no state of it would be kept, so nothing would find it
	}
	m := &p.memo
	id := int32(len(m.records))
	start := len(m.paths)
	r := memoRecord{start: int32(start), own: int32(own), link: -1}
	if from >= 0 {
		r.link = m.paths[m.states[from].at].record
	}
	m.records = append(m.records, r)
	m.paths = slices.Grow(m.paths, own)[:start+own]
	for u, ps := range m.paths[start:] {
		ps.seconds, ps.job, ps.record = p.startAt[u], int32(p.chosen[u]), id
		m.paths[start+u] = ps
	}
	i := len(p.pending) - 1
	for u := own - 1; i >= 0; u-- {
		rest.excess += p.excessTerm[u]
		rest.stretch += p.stretchTerm[u]
		if ps := p.pending[i]; ps.depth == u {
			m.insert(ps.key, memoState{at: int32(start + u), rest: rest})
			i--
		}
	}
}

// cannotBeat reports whether the path completed from depth t by the
// memo's path from state hit on is no better than the incumbent, without
// summing its rest in order: the sums kept with the state bound the sum
// the path would reach. Summing r nonnegative terms after the prefix, in
// either order, errs by at most about r+1 roundings of the total (the
// bound of recursive summation, Higham 2002, 4.2); the margin taken,
// 8(r+2) units in the last place, covers both sums, the prefix's
// addition and the margin's own rounding. A path that may be better is
// completed and scored exactly. A rest only bounded (restSums.bound) is
// the terms the cut chain placed from the state on, summed as a path's,
// plus a value below the exact sum of the bounds of the jobs it left,
// each below its job's term in the rest from the chain's state (the same
// whatever path reaches it), so the same margin covers it.
func (p *planner) cannotBeat(hit, t int) bool {
	st := &p.memo.states[hit]
	r := p.m - t
	excess := p.excessSeconds[t] + st.rest.excess
	sum := p.stretchSum[t] + st.rest.stretch
	lowest := sum - sum*float64(r+2)*0x1p-50
	return !p.better(excess, lowest)
}

// replay completes the path from depth t with the memo's path from arena
// index at on, scoring it as placements would.
func (p *planner) replay(at, t int) {
	m := &p.memo
	r := m.records[m.paths[at].record]
	for {
		for _, ps := range m.paths[int(r.start)+t : int(r.start+r.own)] {
			p.chosen[t], p.startAt[t] = int(ps.job), ps.seconds
			p.addTerms(t, &p.waiting[ps.job], ps.seconds)
			t++
		}
		if r.link < 0 {
			return
		}
		r = m.records[r.link]
	}
}

// place puts queue position c at depth d of the current path.
func (p *planner) place(d, c int) {
	w := &p.waiting[c]
	start, first := p.work.earliest(w.procs, w.estSeconds)
	p.placeAt(d, c, start, first)
}

// placeAt puts queue position c at depth d of the current path, at its
// earliest start, which the profile's step first begins.
func (p *planner) placeAt(d, c int, start int64, first int) {
	w := &p.waiting[c]
	n, e := w.procs, w.estSeconds
	var r reservation
	last := d+1 == p.m
	if !last {
		r = p.work.reserve(first, e, n)
	}
	p.reserved[d] = r
	p.placements++
	p.chosen[d], p.startAt[d] = c, start
	if p.cfg == nil {
		return
	}
	p.addTerms(d, w, start)
	if !last {
		p.stateHash[d+1] = p.stateHash[d] + p.work.reservedHash(r, p.nmin)
		p.placedHash[d+1] = p.placedHash[d] + jobHash(c)
	}
}

// addTerms adds the score terms of waiting job w at depth d, starting at
// start, to the path's sums.
func (p *planner) addTerms(d int, w *waitingJob, start int64) {
	wait := start - w.submitSeconds
	excess, stretch := max(0, wait-p.tw), float64(wait+w.estSeconds)/w.stretchDivisor
	p.excessTerm[d], p.stretchTerm[d] = excess, stretch
	p.excessSeconds[d+1] = p.excessSeconds[d] + excess
	p.stretchSum[d+1] = p.stretchSum[d] + stretch
}

// unplace releases the placement at depth d, the deepest of the path.
func (p *planner) unplace(d int) {
	if r := p.reserved[d]; r.end > r.first || r.inserted {
		p.work.release(r)
	}
}

// relativeTie is the relative difference below which two scores count as
// equal: the same placements summed in another order may differ in the
// last bits, and the incumbent changes only on a strictly lower score.
const relativeTie = 1e-9

// leaf scores a complete path and keeps it if strictly better.
func (p *planner) leaf() {
	s := p.s
	s.sched.Stats.Paths++
	if p.onLeaf != nil {
		p.onLeaf(p.chosen[:p.m])
	}
	excess, sum := p.excessSeconds[p.m], p.stretchSum[p.m]
	if !p.better(excess, sum) {
		return
	}
	p.haveBest = true
	p.bests++
	p.bestExcess, p.bestSum, p.bestScore = excess, sum, p.score(excess, sum)
	p.bestNow = p.bestNow[:0]
	for d := range p.m {
		if p.startAt[d] == s.now {
			p.bestNow = append(p.bestNow, p.queue[p.chosen[d]])
		}
	}
}

// score is the objective alpha E + A of a complete path whose waits
// beyond Tw sum to excess seconds and whose bounded slowdowns sum to sum.
func (p *planner) score(excess int64, sum float64) float64 {
	return p.cfg.AlphaPerHour*float64(excess)/3600 + sum/float64(p.m)
}

// better reports whether a complete path with these sums is strictly
// better than the incumbent. As sum grows it can only turn from true to
// false: every rounding on the way is monotone.
func (p *planner) better(excess int64, sum float64) bool {
	switch {
	case !p.haveBest:
		return true
	case p.cfg.Objective == ObjectiveHier:
		return excess < p.bestExcess || excess == p.bestExcess && sum < p.bestSum-relativeTie*max(1, p.bestSum)
	}
	return p.score(excess, sum) < p.bestScore-relativeTie*max(1, p.bestScore)
}

// boundMaxJobs bounds the waiting jobs of the searches whose nodes are
// bounded (visit): a bound costs an earliest-fit search per job left at
// each node, which pays on short queues (about 30% of the CPU time of the
// KTH and SDSC months) and not on long ones, whose chains fill the budget
// with paths that differ little.
const boundMaxJobs = 24
