package engine

import "math/bits"

// pslrOrder orders ready tasks by projected SLR, highest first (seed 004,
// Algorithm 1): psl(t, now) = (now + rank(t) + 1 - arrival(job)) / CP(job).
//
// The value of every task grows linearly with time at its own rate 1/CP,
// so the order changes as time passes and a heap keyed once is wrong. A
// full re-sort at every pass is O(queue) per pass, which at overload (a
// queue of thousands, a pass at every event tick) dominates the run.
// Instead this is a kinetic tournament (Basch, Guibas, Hershberger): a
// complete binary tree over slots whose internal nodes hold the winner of
// their two children together with the tick at which that comparison will
// fail (the loser's line overtakes the winner's). Each node also keeps the
// earliest failure in its subtree, so advancing time visits only the
// comparisons that failed. Push and pop cost O(log n); each certificate
// failure costs O(1) plus the recomputation of its ancestors, O(log n).
//
// Values are compared exactly: (now + c_a) x CP_b against (now + c_b) x
// CP_a in 128 bits, then job index, then task index (the global index g).
type pslrOrder struct {
	view *View
	now  int64
	size int     // number of leaf slots, a power of two
	node []int32 // winner slot per tree node (1-based heap layout), -1 if none
	fail []int64 // tick at which the node's comparison fails
	sub  []int64 // earliest fail in the node's subtree
	task []int32 // slot -> task, -1 if free
	c    []int64 // slot -> rank + 1 - arrival
	cp   []int64 // slot -> critical path of the task's job
	free []int32
	n    int
}

func newPSLROrder(v *View) *pslrOrder {
	o := &pslrOrder{view: v}
	// 256 leaves: a queue of thousands grows in a few steps, not a dozen.
	o.grow(256)
	return o
}

func (o *pslrOrder) Len() int { return o.n }

func (o *pslrOrder) grow(size int) {
	oldTask, oldC, oldCP := o.task, o.c, o.cp
	o.size = size
	o.node = make([]int32, 2*size)
	o.fail = make([]int64, 2*size)
	o.sub = make([]int64, 2*size)
	o.task = make([]int32, size)
	o.c = make([]int64, size)
	o.cp = make([]int64, size)
	o.free = o.free[:0]
	for i := size - 1; i >= 0; i-- {
		if i < len(oldTask) && oldTask[i] >= 0 {
			o.task[i], o.c[i], o.cp[i] = oldTask[i], oldC[i], oldCP[i]
		} else {
			o.task[i] = -1
			o.free = append(o.free, int32(i))
		}
	}
	for i := 0; i < size; i++ {
		leaf := size + i
		o.node[leaf] = -1
		if o.task[i] >= 0 {
			o.node[leaf] = int32(i)
		}
		o.fail[leaf], o.sub[leaf] = never, never
	}
	for n := size - 1; n >= 1; n-- {
		o.recompute(n)
	}
}

// precedes reports whether slot a comes before slot b at tick t.
func (o *pslrOrder) precedes(a, b int32, t int64) bool {
	// Both numerators are >= 2: t >= the task's ready tick >= its job's
	// arrival, and rank >= 1.
	ah, al := bits.Mul64(uint64(t+o.c[a]), uint64(o.cp[b]))
	bh, bl := bits.Mul64(uint64(t+o.c[b]), uint64(o.cp[a]))
	if ah != bh {
		return ah > bh
	}
	if al != bl {
		return al > bl
	}
	return o.task[a] < o.task[b]
}

// overtakes returns the first tick after now at which loser precedes
// winner, or never. Only a loser whose value grows faster (smaller CP) can
// overtake, and once it does it stays ahead, so the predicate is monotone
// in t and a galloping search from a floating-point estimate finds the
// exact tick.
func (o *pslrOrder) overtakes(loser, winner int32) int64 {
	if o.cp[loser] >= o.cp[winner] {
		return never
	}
	// Crossing where (t + cl) x CPw = (t + cw) x CPl; the estimate only
	// seeds the search, the exact predicate decides.
	cl, cw := float64(o.c[loser]), float64(o.c[winner])
	pl, pw := float64(o.cp[loser]), float64(o.cp[winner])
	est := (cw*pl - cl*pw) / (pw - pl)
	if est >= float64(never) {
		return never
	}
	// Invariant: precedes is false at lo and true at hi.
	lo, hi := o.now, max(o.now+1, int64(est))
	if o.precedes(loser, winner, hi) {
		for step := int64(1); ; step *= 2 {
			probe := hi - step
			if probe <= o.now {
				break
			}
			if !o.precedes(loser, winner, probe) {
				lo = probe
				break
			}
			hi = probe
		}
	} else {
		lo = hi
		for step := int64(1); ; step *= 2 {
			if step >= never-lo {
				return never // lo + step would pass every admitted tick
			}
			probe := lo + step
			if o.precedes(loser, winner, probe) {
				hi = probe
				break
			}
			lo = probe
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if o.precedes(loser, winner, mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func (o *pslrOrder) recompute(n int) {
	a, b := o.node[2*n], o.node[2*n+1]
	switch {
	case a < 0:
		o.node[n], o.fail[n] = b, never
	case b < 0:
		o.node[n], o.fail[n] = a, never
	case o.precedes(a, b, o.now):
		o.node[n], o.fail[n] = a, o.overtakes(b, a)
	default:
		o.node[n], o.fail[n] = b, o.overtakes(a, b)
	}
	o.sub[n] = min(o.fail[n], o.sub[2*n], o.sub[2*n+1])
}

// advance moves the tournament to tick t, replaying the comparisons that
// failed since the last tick it was at.
func (o *pslrOrder) advance(t int64) {
	o.now = t
	if o.sub[1] <= t {
		o.repair(1, t)
	}
}

func (o *pslrOrder) repair(n int, t int64) {
	if n >= o.size {
		return
	}
	if o.sub[2*n] <= t {
		o.repair(2*n, t)
	}
	if o.sub[2*n+1] <= t {
		o.repair(2*n+1, t)
	}
	o.recompute(n)
}

func (o *pslrOrder) update(slot int32) {
	for n := (o.size + int(slot)) / 2; n >= 1; n /= 2 {
		o.recompute(n)
	}
}

func (o *pslrOrder) Push(g int32, now int64) {
	o.advance(now)
	if len(o.free) == 0 {
		o.grow(2 * o.size)
	}
	slot := o.free[len(o.free)-1]
	o.free = o.free[:len(o.free)-1]
	in := o.view.s.in
	j := in.taskJob[g]
	o.task[slot] = g
	o.c[slot] = in.rank[g] + 1 - o.view.s.arrival[j]
	o.cp[slot] = in.jobCP[j]
	o.node[o.size+int(slot)] = slot
	o.update(slot)
	o.n++
}

func (o *pslrOrder) BeginPass(now int64) { o.advance(now) }

func (o *pslrOrder) Head() (int32, bool) {
	if o.n == 0 {
		return 0, false
	}
	return o.task[o.node[1]], true
}

func (o *pslrOrder) Pop() int32 {
	slot := o.node[1]
	g := o.task[slot]
	o.task[slot] = -1
	o.node[o.size+int(slot)] = -1
	o.free = append(o.free, slot)
	o.update(slot)
	o.n--
	return g
}
