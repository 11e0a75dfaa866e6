package backfill

import "slices"

// Conservative backfilling on a machine of nodes: every waiting job, in
// priority order, is given the earliest start at which nodes it may use
// hold it for its whole estimate, beside the running jobs (until their
// estimated ends) and the jobs placed before it; the jobs whose start is
// now start. A job's earliest start is now or the end of some placement,
// as free resources only grow at those.

// nodeHold is a running job's or a placed job's hold on one node, from
// startSeconds to endSeconds (excluded).
type nodeHold struct {
	startSeconds, endSeconds int64
	held                     amounts
}

// nodePlan is conservative's state during one pass.
type nodePlan struct {
	holds   [][]nodeHold // per node
	touched []int32      // nodes with holds, to clear
	times   []int64      // candidate starts, ascending, distinct
	// fromSeconds and toSeconds are the interval probed (availPlan).
	fromSeconds, toSeconds int64
}

func (n *nodes) hold(shares []NodeShare, from, to int64) {
	p := &n.plan
	for _, sh := range shares {
		if len(p.holds[sh.Node]) == 0 {
			p.touched = append(p.touched, sh.Node)
		}
		p.holds[sh.Node] = append(p.holds[sh.Node], nodeHold{from, to, shareAmounts(sh)})
	}
	if i, found := slices.BinarySearch(p.times, to); !found {
		p.times = slices.Insert(p.times, i, to)
	}
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

// conservative runs one pass over s.order.
func (n *nodes) conservative() {
	s := n.s
	p := &n.plan
	if p.holds == nil {
		p.holds = make([][]nodeHold, len(n.cap))
	}
	for _, i := range p.touched {
		p.holds[i] = p.holds[i][:0]
	}
	p.touched = p.touched[:0]
	p.times = append(p.times[:0], s.now)
	for _, j := range s.running {
		// A job that outlived its estimate holds its nodes a second more.
		n.hold(s.sched.Nodes[j], s.now, max(s.sched.StartSeconds[j]+s.est[j], s.now+1))
	}
	n.pending = n.pending[:0]
	var starts []int
	for _, j := range s.order {
		for k := 0; k < len(p.times); k++ {
			t := p.times[k]
			p.fromSeconds, p.toSeconds = t, t+s.est[j]
			if t == s.now {
				if n.place(j, availPlan) {
					n.hold(n.pending[len(n.pending)-1], t, p.toSeconds)
					starts = append(starts, j)
					break
				}
				continue
			}
			if shares, ok := n.choose(j, availPlan, n.cands2[:0]); ok {
				n.cands2 = shares
				n.hold(shares, t, p.toSeconds)
				break
			}
		}
	}
	n.commit(s, starts)
}
