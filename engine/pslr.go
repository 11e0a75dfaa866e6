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
//
// A node's fields, and a slot's, sit side by side: a comparison reads
// both children and both slots, one cache line each rather than three.
type pslrOrder struct {
	view  *View
	now   int64
	size  int           // number of leaf slots, a power of two
	nodes []kineticNode // 1-based heap layout
	slots []pslrSlot    // leaf slots
	free  []int32
	n     int
}

// kineticNode is one node of the tournament.
type kineticNode struct {
	fail   int64 // tick at which the node's comparison fails
	sub    int64 // earliest fail in the node's subtree
	winner int32 // winner slot, -1 if none
}

// pslrSlot is one leaf slot of the tournament.
type pslrSlot struct {
	c    int64 // rank + 1 - arrival
	cp   int64 // critical path of the task's job
	task int32 // -1 if free
}

func newPSLROrder(v *View) *pslrOrder {
	o := &pslrOrder{view: v}
	// 32 leaves: the tree doubles as the queue grows, and a small tree
	// keeps the path of every push and pop short (the fan-chain queue of
	// BenchmarkSimulate holds 26 tasks on average).
	o.grow(32)
	return o
}

func (o *pslrOrder) Len() int { return o.n }

func (o *pslrOrder) grow(size int) {
	old := o.slots
	o.size = size
	o.nodes = make([]kineticNode, 2*size)
	o.slots = make([]pslrSlot, size)
	o.free = o.free[:0]
	for i := size - 1; i >= 0; i-- {
		if i < len(old) && old[i].task >= 0 {
			o.slots[i] = old[i]
		} else {
			o.slots[i].task = -1
			o.free = append(o.free, int32(i))
		}
	}
	for i := 0; i < size; i++ {
		leaf := &o.nodes[size+i]
		leaf.winner = -1
		if o.slots[i].task >= 0 {
			leaf.winner = int32(i)
		}
		leaf.fail, leaf.sub = never, never
	}
	for n := size - 1; n >= 1; n-- {
		o.recompute(n)
	}
}

// precedes reports whether slot a comes before slot b at tick t.
func (o *pslrOrder) precedes(a, b int32, t int64) bool {
	// Both numerators are >= 2: t >= the task's ready tick >= its job's
	// arrival, and rank >= 1.
	sa, sb := &o.slots[a], &o.slots[b]
	ah, al := bits.Mul64(uint64(t+sa.c), uint64(sb.cp))
	bh, bl := bits.Mul64(uint64(t+sb.c), uint64(sa.cp))
	if ah != bh {
		return ah > bh
	}
	if al != bl {
		return al > bl
	}
	return sa.task < sb.task
}

// overtakes returns the first tick after now at which loser precedes
// winner, or never. Only a loser whose value grows faster (smaller CP) can
// overtake, and once it does it stays ahead, so the predicate is monotone
// in t and a galloping search from a floating-point estimate finds the
// exact tick.
func (o *pslrOrder) overtakes(loser, winner int32) int64 {
	sl, sw := &o.slots[loser], &o.slots[winner]
	if sl.cp >= sw.cp {
		return never
	}
	// Crossing where (t + cl) x CPw = (t + cw) x CPl; the estimate only
	// seeds the search, the exact predicate decides.
	cl, cw := float64(sl.c), float64(sw.c)
	pl, pw := float64(sl.cp), float64(sw.cp)
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
	left, right := &o.nodes[2*n], &o.nodes[2*n+1]
	a, b := left.winner, right.winner
	node := &o.nodes[n]
	switch {
	case a < 0:
		node.winner, node.fail = b, never
	case b < 0:
		node.winner, node.fail = a, never
	case o.precedes(a, b, o.now):
		node.winner, node.fail = a, o.overtakes(b, a)
	default:
		node.winner, node.fail = b, o.overtakes(a, b)
	}
	node.sub = min(node.fail, left.sub, right.sub)
}

// advance moves the tournament to tick t, replaying the comparisons that
// failed since the last tick it was at.
func (o *pslrOrder) advance(t int64) {
	o.now = t
	if o.nodes[1].sub <= t {
		o.repair(1, t)
	}
}

func (o *pslrOrder) repair(n int, t int64) {
	if n >= o.size {
		return
	}
	if o.nodes[2*n].sub <= t {
		o.repair(2*n, t)
	}
	if o.nodes[2*n+1].sub <= t {
		o.repair(2*n+1, t)
	}
	o.recompute(n)
}

// update recomputes the ancestors of a slot whose task changed. It stops
// at the first ancestor that comes out as it was: a node is a function of
// its children and of comparisons that hold until their failure ticks
// (advance has replayed every failure up to now), so the nodes above it
// would come out as they were too.
func (o *pslrOrder) update(slot int32) {
	for n := (o.size + int(slot)) / 2; n >= 1; n /= 2 {
		was := o.nodes[n]
		o.recompute(n)
		if o.nodes[n] == was {
			return
		}
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
	j := in.task[g].job
	o.slots[slot] = pslrSlot{c: in.rank[g] + 1 - o.view.s.arrival[j], cp: in.jobCP[j], task: g}
	o.nodes[o.size+int(slot)].winner = slot
	o.update(slot)
	o.n++
}

func (o *pslrOrder) BeginPass(now int64) { o.advance(now) }

func (o *pslrOrder) Head() (int32, bool) {
	if o.n == 0 {
		return 0, false
	}
	return o.slots[o.nodes[1].winner].task, true
}

func (o *pslrOrder) Pop() int32 {
	slot := o.nodes[1].winner
	g := o.slots[slot].task
	o.slots[slot].task = -1
	o.nodes[o.size+int(slot)].winner = -1
	o.free = append(o.free, slot)
	o.update(slot)
	o.n--
	return g
}
