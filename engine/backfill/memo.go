package backfill

import (
	"cmp"
	"slices"
)

// A chain (planner.chain) places the jobs left in priority order, so what
// it does from some depth on depends only on the profile there and on the
// jobs left, and many paths of one search reach the same such state: on a
// long queue of jobs too wide to run side by side, a job moved to the
// front delays each wide job before it by its own length, and once the
// chain is past them the profile is the heuristic path's again. The memo
// remembers the states of the complete paths of one decision point (every
// 1, 2 or 4 depths, memoStride), and a chain that reaches one of them
// takes the rest of that path instead of placing it again: its placements
// are counted, and the path is scored from the sums of the rest's score
// terms when that provably cannot beat the incumbent (cannotBeat), else
// from the rest's starts copied and scored in the same order. A chain cut
// by its bounds leaves its states too, with the bounds' sums for the
// rest: a chain that reaches one is counted when even those cannot beat
// the incumbent, and otherwise places on.
//
// Two profiles count as the same state when they agree wherever a job
// left could use them: free counts below nmin, the fewest processors of
// the decision's waiting jobs, hold none of the jobs left, now or after
// any of their placements, and are all read as 0. A job of n >= nmin
// processors fits where one profile has n free exactly where the other
// does, so both place it at the same start; the slot it takes was read
// alike in both, and the counts below nmin stay below it. (The fewest
// processors of the jobs left would clamp more, but the hash would have
// to follow it along every path.) A state is found by a hash (of the step
// times weighted by the changes of the clamped counts, so that steps that
// change nothing weigh nothing and a reservation updates it in the steps
// it covers; plus a hash of the jobs placed) and then compared exactly
// (sameState): a hash collision costs a comparison, never a wrong
// schedule.

// pathStep is one depth of a path in the memo: the job (queue position)
// and its start.
type pathStep struct {
	seconds int64
	job     int32
	// record is the path the step belongs to.
	record int32
}

// memoState is a state in the memo: the arena index of the step a path
// placed after it, and the sums of the score terms from there to the end
// of the path.
type memoState struct {
	at   int32
	slot int32 // in the table
	rest restSums
}

// restSums are the sums of the score terms of a path's rest: the waits
// beyond Tw and the bounded slowdowns.
type restSums struct {
	excess  int64
	stretch float64
	// bound marks sums that only bound the rest from below: the path was
	// cut by its bounds (planner.chain) before it was complete, so there
	// is no rest to copy, only to count when it cannot beat the
	// incumbent.
	bound bool
}

// memoRecord is one path in the memo: depths 0 to own-1 are in the arena
// from start; the rest, for a chain that found a state of an earlier
// path, is that path's from depth own (link), or nothing (link -1).
type memoRecord struct {
	start, own, link int32
}

// probedState is a state a chain looked up: its key, and the depth placed
// next.
type probedState struct {
	key   uint64
	depth int
}

// chainMemo maps the hash of a state to the path that passed through it:
// an open-addressing table over the states, which point into an arena of
// paths.
type chainMemo struct {
	keys []uint64
	// at is the state's index plus one; 0 marks an empty slot.
	at      []int32
	states  []memoState
	paths   []pathStep
	records []memoRecord
}

// reset empties the memo for a new decision point.
func (m *chainMemo) reset() {
	if m.keys == nil {
		m.keys, m.at = make([]uint64, 1024), make([]int32, 1024)
	}
	for _, st := range m.states {
		m.at[st.slot] = 0
	}
	m.states = m.states[:0]
	m.paths = m.paths[:0]
	m.records = m.records[:0]
}

// lookup returns the index of the state stored under key, or -1.
func (m *chainMemo) lookup(key uint64) int {
	mask := uint64(len(m.keys) - 1)
	for i := key & mask; m.at[i] != 0; i = (i + 1) & mask {
		if m.keys[i] == key {
			return int(m.at[i]) - 1
		}
	}
	return -1
}

// insert stores a state under key unless the key is there already (a
// state seen before, which lookup would have found, or a collision).
func (m *chainMemo) insert(key uint64, st memoState) {
	if 2*(len(m.states)+1) > len(m.keys) {
		m.grow()
	}
	mask := uint64(len(m.keys) - 1)
	i := key & mask
	for ; m.at[i] != 0; i = (i + 1) & mask {
		if m.keys[i] == key {
			return
		}
	}
	st.slot = int32(i)
	m.states = append(m.states, st)
	m.keys[i], m.at[i] = key, int32(len(m.states))
}

func (m *chainMemo) grow() {
	keys, at := m.keys, m.at
	m.keys, m.at = make([]uint64, 2*len(keys)), make([]int32, 2*len(keys))
	mask := uint64(len(m.keys) - 1)
	for s, a := range at {
		if a == 0 {
			continue
		}
		i := keys[s] & mask
		for m.at[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.at[i] = keys[s], a
		m.states[a-1].slot = int32(i)
	}
}

// mix64 is the SplitMix64 finalizer: it spreads its input over all 64
// bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func timeHash(seconds int64) uint64 { return mix64(uint64(seconds)) }
func jobHash(c int) uint64          { return mix64(uint64(c) + 0x9e3779b97f4a7c15) }

// stateKey combines the hashes of a profile and of the jobs placed.
func stateKey(profileHash, placedHash uint64) uint64 {
	return profileHash ^ placedHash*0x9e3779b97f4a7c15
}

// clampFree is a free count as the jobs left read it: below nmin, none of
// them fits, whatever it is.
func clampFree(free, nmin int32) int32 {
	if free < nmin {
		return 0
	}
	return free
}

// stateHash hashes the profile clamped at nmin: the sum over steps of the
// hash of the step's time times the change of the clamped count there.
func (p *profile) stateHash(nmin int32) uint64 {
	var h uint64
	var prev int32
	for _, s := range p.steps {
		c := clampFree(s.free, nmin)
		h += timeHash(s.seconds) * uint64(int64(c-prev))
		prev = c
	}
	return h
}

// reservedHash is what reservation r changed in stateHash(nmin). Summed
// by parts, the hash is the sum over steps of the clamped count times
// (the hash of the step's time minus that of the next step's), and r
// took procs from each step it covers (a step it inserted split a step
// without changing the clamped function): the differences telescope to
// the hashes of the first step and of the job's end, but for the steps
// that end below nmin, which clamp to 0 and lose their count (or nothing
// if they were below nmin already), not procs.
func (p *profile) reservedHash(r reservation, nmin int32) uint64 {
	steps := p.steps
	h := uint64(int64(r.procs)) * (timeHash(steps[r.end].seconds) - timeHash(steps[r.first].seconds))
	if nmin <= 1 {
		return h // no step falls below 1 and stays above 0
	}
	for i := r.first; i < r.end; i++ {
		if free := steps[i].free; free < nmin {
			lost := free
			if free+r.procs < nmin {
				lost = -r.procs
			}
			h -= uint64(int64(lost)) * (timeHash(steps[i].seconds) - timeHash(steps[i+1].seconds))
		}
	}
	return h
}

// edge is a change of the difference between two profiles at a time.
type edge struct {
	seconds int64
	procs   int32
}

// edgeSums adds up the edges of a difference of profiles by time, so
// that the edges of slots that cancel (a wide job moved later by as much
// as another moved earlier) are found without sorting every edge.
type edgeSums struct {
	seconds []int64
	procs   []int32
	stamp   []uint32
	gen     uint32
	used    []int32 // the slots in use, in order of first use
}

// reset prepares the table for up to n distinct times.
func (e *edgeSums) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(e.stamp) < size {
		e.seconds, e.procs, e.stamp = make([]int64, size), make([]int32, size), make([]uint32, size)
		e.gen = 0
	}
	e.gen++
	if e.gen == 0 {
		clear(e.stamp)
		e.gen = 1
	}
	e.used = e.used[:0]
}

func (e *edgeSums) add(seconds int64, procs int32, mask uint64) {
	i := (uint64(seconds) * 0x9e3779b97f4a7c15 >> 32) & mask
	for ; e.stamp[i] == e.gen; i = (i + 1) & mask {
		if e.seconds[i] == seconds {
			e.procs[i] += procs
			return
		}
	}
	e.stamp[i], e.seconds[i], e.procs[i] = e.gen, seconds, procs
	e.used = append(e.used, int32(i))
}

// sameState reports whether the state before depth t of the current path
// (the current profile, the jobs at depths below t placed) is the state
// before depth t of the memo's path rec (rec[:t] placed), read with the
// clamp nmin. Both profiles are the decision's base profile
// minus the slots of the jobs placed, so they differ by the slots of the
// jobs the paths placed at different starts; wherever that difference is
// not zero, both must hold fewer than nmin.
func (p *planner) sameState(rec []pathStep, t int) bool {
	nmin := p.nmin
	p.markGen++
	if p.markGen == 0 {
		clear(p.mark)
		p.markGen = 1
	}
	moved := 0
	for _, ps := range rec[:t] {
		p.mark[ps.job] = p.markGen
		p.otherStart[ps.job] = ps.seconds
	}
	for u := range t {
		c := p.chosen[u]
		if p.mark[c] != p.markGen {
			return false // another set of jobs left
		}
		if p.otherStart[c] != p.startAt[u] {
			moved++
		}
	}
	if moved == 0 {
		return true
	}
	sums := &p.edgeSums
	sums.reset(4 * moved)
	mask := uint64(len(sums.stamp) - 1)
	for u := range t {
		c := p.chosen[u]
		if other, here := p.otherStart[c], p.startAt[u]; other != here {
			w := &p.waiting[c]
			// The other profile has the job's processors free here and
			// holds them there.
			sums.add(here, w.procs, mask)
			sums.add(here+w.estSeconds, -w.procs, mask)
			sums.add(other, -w.procs, mask)
			sums.add(other+w.estSeconds, w.procs, mask)
		}
	}
	edges := p.edges[:0]
	for _, i := range sums.used {
		if sums.procs[i] != 0 {
			edges = append(edges, edge{sums.seconds[i], sums.procs[i]})
		}
	}
	p.edges = edges
	if len(edges) == 0 {
		return true
	}
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Compare(a.seconds, b.seconds) })
	steps := p.work.steps
	var diff int32 // the other profile minus this one, from edges[e-1].seconds on
	k := 0         // the step holding the segment's start
	for e := 0; e+1 < len(edges); e++ {
		diff += edges[e].procs
		if diff == 0 {
			continue
		}
		from, to := edges[e].seconds, edges[e+1].seconds
		for k+1 < len(steps) && steps[k+1].seconds <= from {
			k++
		}
		for i := k; i < len(steps) && steps[i].seconds < to; i++ {
			if steps[i].free+max(diff, 0) >= nmin {
				return false
			}
		}
	}
	return true
}

// memoStride returns the depth interval at which the chains of a search
// over m waiting jobs look their states up and keep them. A chain that
// meets an earlier path's state between two looks meets it again at the
// next one, having placed what it would have copied, a few placements
// more; on long chains that is cheaper than a look-up at every depth.
func memoStride(m int) int {
	switch {
	case m < 16:
		return 1
	case m < 64:
		return 2
	}
	return 4
}
