package backfill

import "slices"

// Conservative backfilling on a machine of nodes: every waiting job, in
// priority order, is given the earliest start at which nodes it may use
// hold it for its whole estimate, beside the running jobs (until their
// estimated ends) and the jobs placed before it; the jobs whose start is
// now start. A job's earliest start is now or the end of some placement,
// as free resources only grow at those. A profile of each partition's
// free cores gives the candidate starts (those where enough cores are
// free throughout, a necessary condition), and the nodes are looked at
// only there.

// nodeHold is a running job's or a placed job's hold on one node, from
// startSeconds to endSeconds (excluded).
type nodeHold struct {
	startSeconds, endSeconds int64
	held                     amounts
}

// coreStep is a partition's free cores from seconds to the next step.
type coreStep struct {
	seconds int64
	free    int
}

// nodePlan is conservative's state during one pass.
type nodePlan struct {
	holds   [][]nodeHold // per node
	touched []int32      // nodes with holds, to clear
	cores   [][]coreStep // per partition
	// fromSeconds and toSeconds are the interval probed (availPlan).
	fromSeconds, toSeconds int64
	// shares is the best placement of the job being placed so far, try
	// the scratch of the next.
	shares, try []NodeShare
}

// hold records shares held from to to, on their nodes and in their
// partitions' profiles.
func (n *nodes) hold(shares []NodeShare, from, to int64) {
	p := &n.plan
	for _, sh := range shares {
		if len(p.holds[sh.Node]) == 0 {
			p.touched = append(p.touched, sh.Node)
		}
		p.holds[sh.Node] = append(p.holds[sh.Node], nodeHold{from, to, shareAmounts(sh)})
		q := n.partOf[sh.Node]
		p.cores[q] = takeCores(p.cores[q], from, to, int(sh.Cores))
	}
}

// takeCores takes cores from a profile over [from, to).
func takeCores(steps []coreStep, from, to int64, cores int) []coreStep {
	steps = splitAt(steps, from)
	steps = splitAt(steps, to)
	for i := range steps {
		if steps[i].seconds >= from && steps[i].seconds < to {
			steps[i].free -= cores
		}
	}
	return steps
}

// splitAt makes t a step boundary (t at or after the first step).
func splitAt(steps []coreStep, t int64) []coreStep {
	i, found := slices.BinarySearchFunc(steps, t, func(s coreStep, t int64) int {
		switch {
		case s.seconds < t:
			return -1
		case s.seconds > t:
			return 1
		}
		return 0
	})
	if found {
		return steps
	}
	return slices.Insert(steps, i, coreStep{t, steps[i-1].free})
}

// nextCoreFit returns the first step start at or after from where procs
// cores are free throughout [start, start+durSeconds).
func nextCoreFit(steps []coreStep, from int64, procs int, durSeconds int64) int64 {
	for k := range steps {
		t := steps[k].seconds
		if t < from {
			continue
		}
		ok := true
		for i := k; i < len(steps) && steps[i].seconds < t+durSeconds; i++ {
			if steps[i].free < procs {
				ok = false
				break
			}
		}
		if ok {
			return t
		}
	}
	panic("backfill: a job fits no partition's cores with every hold ended")
}

// freeOver returns what node i has free throughout the probed interval:
// its capacity less the most its holds take at once in it (the holds
// only change at their starts, so those in the interval and its own
// start are the instants to look at).
func (n *nodes) freeOver(i int) amounts {
	p := &n.plan
	hs := p.holds[i]
	worst := n.usedAt(hs, p.fromSeconds)
	for _, h := range hs {
		if h.startSeconds > p.fromSeconds && h.startSeconds < p.toSeconds {
			u := n.usedAt(hs, h.startSeconds)
			worst = amounts{max(worst.cores, u.cores), max(worst.gpus, u.gpus), max(worst.mem, u.mem)}
		}
	}
	return n.cap[i].minus(worst)
}

func (n *nodes) usedAt(hs []nodeHold, t int64) amounts {
	var u amounts
	for _, h := range hs {
		if h.startSeconds <= t && t < h.endSeconds {
			u = u.plus(h.held)
		}
	}
	return u
}

// resetPlan clears the holds and starts each partition's profile with
// its cores, then holds the running jobs' nodes until their estimated
// ends.
func (n *nodes) resetPlan() {
	s := n.s
	p := &n.plan
	if p.holds == nil {
		p.holds = make([][]nodeHold, len(n.cap))
		p.cores = make([][]coreStep, len(n.parts))
	}
	for _, i := range p.touched {
		p.holds[i] = p.holds[i][:0]
	}
	p.touched = p.touched[:0]
	for q, pr := range n.parts {
		p.cores[q] = append(p.cores[q][:0], coreStep{s.now, (pr.end - pr.first) * int(pr.capacity.cores)})
	}
	for _, j := range s.running {
		// A job that outlived its estimate holds its nodes a second more.
		n.hold(s.sched.Nodes[j], s.now, max(s.sched.StartSeconds[j]+s.est[j], s.now+1))
	}
}

// earliest returns job j's earliest start on partition q at or after
// from, before limit, and its shares there appended to out; ok is false
// when it has none before limit.
func (n *nodes) earliest(j, q int, limit int64, out []NodeShare) (int64, []NodeShare, bool) {
	s := n.s
	p := &n.plan
	r := &n.reqs[j]
	procs, est := s.jobs[j].Procs, s.est[j]
	for t := s.now; t < limit; {
		t = nextCoreFit(p.cores[q], t, procs, est)
		if t >= limit {
			break
		}
		p.fromSeconds, p.toSeconds = t, t+est
		if shares, ok := n.chooseIn(r, procs, q, availPlan, out); ok {
			return t, shares, true
		}
		t++ // the next step start after t
	}
	return 0, out, false
}

// conservative runs one pass over s.order.
func (n *nodes) conservative() {
	s := n.s
	p := &n.plan
	n.resetPlan()
	n.pending = n.pending[:0]
	var starts []int
	for _, j := range s.order {
		r := &n.reqs[j]
		best := int64(1<<62 - 1)
		for q := range n.parts {
			if r.Partition != q && r.Partition != -1 {
				continue
			}
			if t, shares, ok := n.earliest(j, q, best, p.try[:0]); ok {
				best, p.shares, p.try = t, shares, p.shares
			}
		}
		if best > s.now {
			n.hold(p.shares, best, best+s.est[j])
			continue
		}
		n.roomInArena()
		base := len(n.arena)
		n.arena = append(n.arena, p.shares...)
		mine := n.arena[base:len(n.arena):len(n.arena)]
		n.take(mine)
		n.pending = append(n.pending, mine)
		n.hold(mine, best, best+s.est[j])
		starts = append(starts, j)
	}
	n.commit(s, starts)
}
