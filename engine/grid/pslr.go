package grid

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
//
// A task takes the lowest free slot, and the tournament is played from
// top, the node over the smallest power of two of slots holding every
// task: the nodes above it are left stale until a task's slot reaches
// them. Pushes and pops then climb as many levels as the queue needs,
// not as many as it ever needed (two or three levels at load 0.8, where
// the queue holds about four tasks, rather than the five of 32 slots).
type pslrOrder struct {
	view  *View
	now   int64
	size  int           // number of leaf slots, a power of two
	nodes []kineticNode // 1-based heap layout
	slots []pslrSlot    // leaf slots
	used  []uint64      // bit i: slot i holds a task
	hi    int           // the highest slot holding a task, -1 if none
	top   int           // the node over slots [0, size/top), holding every task
	n     int           // tasks queued, in the tournament or pending
	inTop int           // tasks in the tournament

	// pending are tasks pushed at tick pendingTick and not yet in the
	// tournament: a pass compares the best of them with the tournament's
	// winner, and those it does not start join the tournament when the
	// order is next used at a later tick. Most tasks start at the tick
	// they become ready (in BenchmarkSimulate's fan-chain 61% at load 1.2,
	// 91% at 0.8), and so never climb the tournament, neither in nor out.
	pending     []pslrSlot
	pendingTick int64
	// headPending is the index in pending of the head, -1 if the head is
	// the tournament's winner or not chosen; headKnown says it is chosen.
	headPending int
	headKnown   bool
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
	o := &pslrOrder{view: v, hi: -1}
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
	o.used = append(o.used, make([]uint64, size/64+1-len(o.used))...)
	for i := range size {
		if i < len(old) && old[i].task >= 0 {
			o.slots[i] = old[i]
		} else {
			o.slots[i].task = -1
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
	o.setTop()
}

// setTop sets top from hi.
func (o *pslrOrder) setTop() {
	span := 1 // slots under top: a power of two above hi
	if o.hi > 0 {
		span = 1 << bits.Len(uint(o.hi))
	}
	o.top = o.size / span
}

// precedes reports whether slot a comes before slot b at tick t.
func (o *pslrOrder) precedes(a, b int32, t int64) bool {
	return slotPrecedes(&o.slots[a], &o.slots[b], t)
}

// slotPrecedes reports whether task sa comes before task sb at tick t.
func slotPrecedes(sa, sb *pslrSlot, t int64) bool {
	// Both numerators are >= 2: t >= the task's ready tick >= its job's
	// arrival, and rank >= 1.
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

// overtakes returns the first tick at which loser, which winner precedes
// now, precedes winner, or never. Only a loser whose value grows faster
// (smaller CP) can overtake, and once it does it stays ahead. With u = t +
// c_w (> 0 for t >= now) and e = c_w - c_l, the loser precedes when (u - e)
// CP_w > u CP_l, that is u (CP_w - CP_l) > e CP_w, so the tick follows from
// one 128-bit division: u = floor(e CP_w / (CP_w - CP_l)) + 1, or the
// quotient itself when it divides exactly and the loser wins the tie on
// task index. (e > 0: else the loser would precede now.)
func (o *pslrOrder) overtakes(loser, winner int32) int64 {
	sl, sw := &o.slots[loser], &o.slots[winner]
	if sl.cp >= sw.cp {
		return never
	}
	e := uint64(sw.c) - uint64(sl.c) // exact: the difference is in (0, 2^64)
	d := uint64(sw.cp - sl.cp)
	hi, lo := bits.Mul64(e, uint64(sw.cp))
	if hi >= d {
		return never // u >= 2^64
	}
	q, r := bits.Div64(hi, lo, d)
	u := q + 1
	if r == 0 && sl.task < sw.task {
		u = q
	}
	if u == 0 {
		return never // q + 1 wrapped
	}
	var t uint64
	if sw.c >= 0 {
		t = u - uint64(sw.c) // u > now + c_w >= c_w
	} else {
		t = u + uint64(-sw.c) // c > -2^63: arrivals are below workload.MaxTicks
		if t < u {
			return never
		}
	}
	if t >= never {
		return never
	}
	return int64(t)
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
	if o.nodes[o.top].sub <= t {
		o.repair(o.top, t)
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

// update recomputes the ancestors of a slot whose task changed. A node is
// a function of its children and of comparisons that hold until their
// failure ticks (advance has replayed every failure up to now). Up to the
// first ancestor whose winner comes out as it was, comparisons and
// certificates are recomputed; above it the winners compared are the same,
// so only the earliest failure in the subtree can change, and the walk
// stops where that does not either.
//
// It is recompute inlined by hand (a push or a pop recomputes five to
// seven nodes, the tournament's hottest code).
func (o *pslrOrder) update(slot int32) {
	nodes, top := o.nodes, o.top
	n := (o.size + int(slot)) / 2
	for ; n >= top; n /= 2 {
		left, right, node := &nodes[2*n], &nodes[2*n+1], &nodes[n]
		a, b := left.winner, right.winner
		var fail int64
		switch {
		case a < 0:
			a, fail = b, never
		case b < 0:
			fail = never
		case o.precedes(a, b, o.now):
			fail = o.overtakes(b, a)
		default:
			a, fail = b, o.overtakes(a, b)
		}
		sub := min(fail, left.sub, right.sub)
		if a == node.winner {
			if fail == node.fail && sub == node.sub {
				return
			}
			node.fail, node.sub = fail, sub
			n /= 2
			break
		}
		node.winner, node.fail, node.sub = a, fail, sub
	}
	for ; n >= top; n /= 2 {
		node := &nodes[n]
		sub := min(node.fail, nodes[2*n].sub, nodes[2*n+1].sub)
		if sub == node.sub {
			return
		}
		node.sub = sub
	}
}

func (o *pslrOrder) Push(g int32, now int64) {
	if now != o.pendingTick {
		o.settle(now)
		o.pendingTick = now
	}
	in := o.view.s.in
	j := in.task[g].job
	o.pending = append(o.pending, pslrSlot{c: in.rank[g] + 1 - o.view.s.arrival[j], cp: in.jobCP[j], task: g})
	o.n++
	o.headKnown = false
}

// settle moves the tournament to tick now and the pending tasks into it.
func (o *pslrOrder) settle(now int64) {
	o.advance(now)
	for _, p := range o.pending {
		o.insert(p)
	}
	o.pending = o.pending[:0]
}

// insert puts a task into the tournament, at o.now.
func (o *pslrOrder) insert(p pslrSlot) {
	if o.inTop == o.size {
		o.grow(2 * o.size)
	}
	o.inTop++
	w := 0
	for o.used[w] == ^uint64(0) {
		w++
	}
	slot := 64*w + bits.TrailingZeros64(^o.used[w])
	o.used[w] |= 1 << (slot % 64)
	if slot > o.hi {
		o.hi = slot
		o.setTop()
	}
	o.slots[slot] = p
	o.nodes[o.size+slot].winner = int32(slot)
	o.update(int32(slot))
}

func (o *pslrOrder) BeginPass(now int64) {
	if now != o.pendingTick {
		o.settle(now)
		o.pendingTick = now
	} else {
		o.advance(now)
	}
	o.headKnown = false
}

// steady holds until the first comparison of the tournament fails: advance
// would then change nothing. The tasks left pending by the last pass join
// the tournament first, as of that pass's tick (no push or pop since).
func (o *pslrOrder) steady(now int64) bool {
	if len(o.pending) > 0 {
		o.settle(o.now)
	}
	return o.nodes[o.top].sub > now
}

// chooseHead finds the head among the tournament's winner and the pending
// tasks.
func (o *pslrOrder) chooseHead() {
	o.headKnown, o.headPending = true, -1
	var best *pslrSlot
	if o.inTop > 0 {
		best = &o.slots[o.nodes[o.top].winner]
	}
	for i := range o.pending {
		if p := &o.pending[i]; best == nil || slotPrecedes(p, best, o.now) {
			best, o.headPending = p, i
		}
	}
}

func (o *pslrOrder) Head() (int32, bool) {
	if o.n == 0 {
		return 0, false
	}
	if !o.headKnown {
		o.chooseHead()
	}
	if o.headPending >= 0 {
		return o.pending[o.headPending].task, true
	}
	return o.slots[o.nodes[o.top].winner].task, true
}

func (o *pslrOrder) Pop() int32 {
	if !o.headKnown {
		o.chooseHead()
	}
	o.headKnown = false
	if i := o.headPending; i >= 0 {
		g := o.pending[i].task
		last := len(o.pending) - 1
		o.pending[i] = o.pending[last]
		o.pending = o.pending[:last]
		o.n--
		return g
	}
	slot := o.nodes[o.top].winner
	g := o.slots[slot].task
	o.slots[slot].task = -1
	o.nodes[o.size+int(slot)].winner = -1
	o.used[slot/64] &^= 1 << (slot % 64)
	o.update(slot)
	o.n--
	o.inTop--
	if int(slot) == o.hi {
		// The highest slot still holding a task, if any.
		o.hi = -1
		for w := int(slot) / 64; w >= 0; w-- {
			if o.used[w] != 0 {
				o.hi = 64*w + bits.Len64(o.used[w]) - 1
				break
			}
		}
		o.setTop()
	}
	return g
}
