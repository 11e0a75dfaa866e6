package backfill

import "slices"

// conservative runs one pass of conservative backfilling: it places the
// waiting jobs in priority order, each at its earliest slot in the profile
// of the running jobs and the jobs placed before it, and starts those
// whose slot is now.
//
// Only the jobs whose slot is now start, and the placements only fill the
// profile: once no job left fits from now for its estimate, the rest of
// the plan cannot start anything, and the pass stops (on the synthetic
// month of the benchmarks, after half the placements). Whether some job
// left fits now is asked of the few jobs left that no other job left
// beats in both estimate and processors (their staircase: a job that fits
// now beats every job as long or longer and as wide or wider, which then
// fits too), and only after a placement that could have changed the
// answer: one that took a job off the staircase (which is then worked
// out again), or took processors before the longest estimate on it runs
// out.
func (p *planner) conservative() {
	s := p.s
	// A job wider than the processors free now never fits now: those only
	// shrink. The others are the staircase's candidates.
	p.candidates = p.candidates[:0]
	for c := range p.m {
		if p.waiting[c].procs <= p.work.steps[0].free {
			p.candidates = append(p.candidates, c)
		}
	}
	p.stairFrom(0)
	check := true
	placed := 0
	for ; placed < p.m; placed++ {
		if check && !p.fitsNow() {
			break
		}
		p.place(placed, placed)
		check = false
		for _, st := range p.stair {
			if st.job == placed {
				check = true
				p.stairFrom(placed + 1)
				break
			}
		}
		if n := len(p.stair); n > 0 && p.startAt[placed] < s.now+p.stair[n-1].estSeconds {
			check = true
		}
	}
	for d := range placed {
		if p.startAt[d] == s.now {
			s.start(p.queue[p.chosen[d]])
		}
	}
}

// stairStep is a job on the staircase: its queue position, estimate and
// processors.
type stairStep struct {
	job        int
	estSeconds int64
	procs      int32
}

// stairFrom works out the staircase of the jobs from queue position d on
// that the processors free now hold: the jobs no other of them beats in
// both estimate and processors (ties to the first in queue order), by
// estimate ascending, so processors descending.
func (p *planner) stairFrom(d int) {
	stair := p.stair[:0]
	from, _ := slices.BinarySearch(p.candidates, d)
	free := p.work.steps[0].free
	for _, c := range p.candidates[from:] {
		w := &p.waiting[c]
		if w.procs > free {
			continue
		}
		i := 0
		for i < len(stair) && stair[i].estSeconds <= w.estSeconds {
			i++
		}
		if i > 0 && stair[i-1].procs <= w.procs {
			continue // beaten by a job as short or shorter and no wider
		}
		// The job beats those after it (longer) as wide or wider.
		k := i
		for k < len(stair) && stair[k].procs >= w.procs {
			k++
		}
		job := stairStep{c, w.estSeconds, w.procs}
		if k > i {
			stair[i] = job
			stair = append(stair[:i+1], stair[k:]...)
		} else {
			stair = append(stair, stairStep{})
			copy(stair[i+1:], stair[i:])
			stair[i] = job
		}
	}
	p.stair = stair
}

// fitsNow reports whether some job on the staircase fits the profile from
// now for its estimate.
func (p *planner) fitsNow() bool {
	steps := p.work.steps
	now := steps[0].seconds
	i, least := 0, steps[0].free
	for _, st := range p.stair {
		for end := now + st.estSeconds; i < len(steps) && steps[i].seconds < end; i++ {
			least = min(least, steps[i].free)
		}
		if least >= st.procs {
			return true
		}
	}
	return false
}
