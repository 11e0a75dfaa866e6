package backfill

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// The kept reservation. A blocked head stays blocked over many passes (a
// large head on the 10,000-job machine of memory and GPUs, through
// thousands of them), and building its reservation anew each time was
// most of EASY's time on nodes. So the nodes allocator keeps the last
// reservation it built, and follows each change of the free resources
// (a backfilled start, a completion) that leaves it what reserve would
// build anew: reuse then returns it as it is. Two facts carry the rules:
//
//   - The shadow is the first instant at which enough nodes hold the head.
//     A start only takes resources; a completion moves its release
//     earlier, so the shadow stays unless the nodes it frees give the
//     head the units it lacked before the shadow (slack counts them).
//   - The head's nodes are chosen on what is free at the shadow (future),
//     by rank (see rank): first the nodes that cannot hold it now, then
//     those that can, in id order under first-fit. A change that moves no
//     node across ranks, and frees nothing before a node first-fit
//     reached, leaves the choice; one that drops a node of the second
//     rank the head passed over into the first is followed by a swap:
//     that node takes the place of the head's last node of the second
//     rank.
//
// TestKeptReservationIsBuiltAnew checks every reuse against a build.

// keptReservation is the last reservation reserve built, kept up to date.
type keptReservation struct {
	valid       bool
	head        int
	changes     uint64 // nodes.changes it is valid at
	corrections uint64 // sim.corrections when built
	shadow      int64
	// instants are the instants before the shadow at which reserve
	// found the head lacking units, from the build's now on, and
	// slack[x*partitions+p] how many more units partition p could have
	// offered it from instants[x] on, until the next, without moving the
	// shadow (see keepThroughEnd); a partition the head may not use
	// offers none.
	instants []int64
	slack    []int
	// part is the partition of the head's nodes; bit i of secondRank is
	// set when its node i ranks second (held the head now when chosen, or
	// came to since), and ranked counts them.
	part       int32
	secondRank []uint64
	ranked     int
	// req is the head's request; need what it takes of each node unless
	// exclusive (the whole node) or pooled (see holdsNow).
	req               *rigid.Request
	need              amounts
	exclusive, pooled bool
	// swaps are the nodes this pass dropped from the second rank to the
	// first, not the head's: they join it at commit (see swapIn), since
	// the pass goes on under the reservation it began with.
	swaps []int32
}

// reuse reports whether the kept reservation is head's and nothing that
// moves it changed since: no share taken or given but by the backfilled
// starts and the completions that leave it as it was (keepThrough,
// keepThroughEnd), no estimate corrected, and no job started ahead of the
// head now. Its shadow and the head's nodes are then what reserve would
// find again, and still marked, with what they leave spare and lock.
func (n *nodes) reuse(head int, starts []int) bool {
	k := &n.kept
	return k.valid && k.head == head && len(starts) == 0 && k.changes == n.changes && k.corrections == n.s.corrections
}

// lacked records what each partition offers the head at an instant
// before the shadow, in have (first: the build's first, now).
func (n *nodes) lacked(seconds int64, first bool) {
	k := &n.kept
	if first {
		k.instants, k.slack = k.instants[:0], k.slack[:0]
	}
	k.instants = append(k.instants, seconds)
	k.slack = append(k.slack, n.have...)
}

// keep records the reservation holdForHead just made, head needing want
// units: what each partition offered at the instants before the shadow
// becomes what it could offer more.
func (n *nodes) keep(head int, shadow int64, want int) {
	k := &n.kept
	for x, have := range k.slack {
		k.slack[x] = want - 1 - have
		if have < 0 {
			k.slack[x] = 0
		}
	}
	k.valid, k.head, k.changes, k.corrections, k.shadow = true, head, n.changes, n.s.corrections, shadow
}

// spendSlack spends, at every instant from now until until (excluded),
// the units gains[p] partition p may now offer the head more, and reports
// whether it had them: else the shadow may move earlier.
func (n *nodes) spendSlack(gains []int, until int64) bool {
	k := &n.kept
	parts := len(n.parts)
	// The instant in force now is the last one at or before now.
	x, found := slices.BinarySearch(k.instants, n.s.now)
	if !found {
		x--
	}
	for ; x < len(k.instants) && k.instants[x] < until; x++ {
		for p, g := range gains {
			if k.slack[x*parts+p] -= g; k.slack[x*parts+p] < 0 {
				return false
			}
		}
	}
	return true
}

// lastHolding returns the id of the head's last node of the second rank,
// -1 if it has none (then the first rank alone holds it: no node of the
// second rank is reached).
func (n *nodes) lastHolding() int32 {
	return highest(n.kept.secondRank)
}

// highest returns the highest node of bit set set, -1 if none.
func highest(set []uint64) int32 {
	for w := len(set) - 1; w >= 0; w-- {
		if b := set[w]; b != 0 {
			return int32(w*64 + 63 - bits.LeadingZeros64(b))
		}
	}
	return -1
}

// mayUse reports whether request r may use the partition of a job's
// shares (every job is placed within one partition): a job elsewhere
// changes nothing of r's reservation.
func (n *nodes) mayUse(r *rigid.Request, shares []NodeShare) bool {
	return len(shares) > 0 && (r.Partition == rigid.AnyPartition || r.Partition == int(n.partOf[shares[0].Node]))
}

// holdsNow reports whether node i, with free resources a, holds the head
// of the reservation (its need per node worked out when it was built).
func (n *nodes) holdsNow(i int32, a amounts) bool {
	k := &n.kept
	switch {
	case k.exclusive:
		return a == n.cap[i]
	case k.pooled:
		return units(k.req, a, n.cap[i]) > 0
	}
	return a.covers(k.need)
}

// futureOf returns what node i has free at the kept shadow: what reserve
// released on it, kept up to date, or what it has free now.
func (n *nodes) futureOf(i int32) amounts {
	if n.mark[i] == n.gen {
		return n.future[i]
	}
	return n.free[i]
}

// keepThrough keeps the reservation valid through the start backfill just
// made of a job on shares, when that start leaves reserve's answer as it
// was, or as a swap at commit makes it: a job of a partition the head may
// not use; otherwise a job that ends by the shadow (what the nodes have at
// the shadow is unchanged, and before it only less) or, under first-fit,
// one that outlives it (it takes only what the head leaves spare of the
// head's nodes, which still hold it at the shadow, and leaves the nodes
// first-fit passed over less, so they still cannot). A node of the
// head's partition that held the head now and no longer does ranks first:
// one of the head's only moves ahead in its order; another, under
// first-fit on a request of whole nodes, is swapped in when it still holds
// the head at the shadow. (On another partition the head is not placed at
// the shadow: it was not reached, or could not hold the head then, and
// still cannot.)
func (n *nodes) keepThrough(shares []NodeShare, long bool) {
	k := &n.kept
	if !k.valid || k.changes != n.changes-1 {
		return
	}
	r := &n.reqs[k.head]
	if !n.mayUse(r, shares) {
		k.changes = n.changes
		return
	}
	firstFit := n.sel == SelectFirstFit
	if long && !firstFit {
		return
	}
	if !firstFit || r.Pooled() {
		// A node falling to the first rank changes a pooled head's
		// shares, and best-fit's order unless it is the head's.
		for _, sh := range shares {
			if n.partOf[sh.Node] == k.part && n.fell(sh) && (r.Pooled() || n.held[sh.Node] != n.headGen) {
				return
			}
		}
	}
	for _, sh := range shares {
		n.startFuture(sh, long)
		if i := sh.Node; n.partOf[i] == k.part && n.fell(sh) {
			if n.held[i] == n.headGen {
				n.toFirstRank(i)
			} else {
				k.swaps = append(k.swaps, i)
			}
		}
	}
	k.changes = n.changes
}

// fell reports whether the node of share sh, just taken, held the head
// now before and no longer does.
func (n *nodes) fell(sh NodeShare) bool {
	i := sh.Node
	return n.holdsNow(i, n.free[i].plus(shareAmounts(sh))) && !n.holdsNow(i, n.free[i])
}

// startFuture follows a backfilled start of share sh at the shadow: a job
// ending by it leaves what the node has then as it was, one outliving it
// takes its share of it.
func (n *nodes) startFuture(sh NodeShare, long bool) {
	i := sh.Node
	switch {
	case !long && n.mark[i] != n.gen:
		n.mark[i], n.future[i] = n.gen, n.free[i].plus(shareAmounts(sh))
	case long && n.mark[i] == n.gen:
		n.future[i] = n.future[i].minus(shareAmounts(sh))
	}
}

// keepThroughEnd keeps the reservation valid through job j's completion
// when that leaves reserve's answer as it was, or as it follows. A job of
// a partition the head may not use changes nothing. Otherwise the head
// must ask for whole units of nodes, and (endKeeps):
//
//   - The shadow stays: a node of j gives the head one more unit only if
//     it did not hold it now and holds it at the shadow, and only until
//     j's estimated end (j's share came back then before), or until the
//     shadow when j outlived it. At each instant of that time reserve
//     found the head lacking, the units it lacked (slack) must cover
//     those.
//   - The head's nodes stay, or follow. A node that held the head now
//     keeps its rank. One of the head's that comes to hold it now moves
//     to the second rank, under first-fit when no node of the second rank
//     the head passed over comes before it; another is not reached (the
//     first rank alone holds the head, or the node comes past its second
//     rank's). One that still does not hold it now keeps its rank; when j
//     was estimated to outlive the shadow (first-fit only) it has more
//     then: the head leaves more spare of its own, and another that comes
//     to hold the head then is swapped in (swapIn). A job of a partition
//     tried before the head's must have ended by the shadow.
func (n *nodes) keepThroughEnd(j int) {
	s, k := n.s, &n.kept
	if !k.valid || k.changes != n.changes-1 {
		return
	}
	r := &n.reqs[k.head]
	shares := s.sched.Nodes[j]
	if !n.mayUse(r, shares) {
		k.changes = n.changes
		return
	}
	early := s.sched.StartSeconds[j]+s.est[j] > k.shadow
	if r.Pooled() || early && n.sel != SelectFirstFit || !n.endKeeps(j, early) {
		return
	}
	for _, sh := range shares {
		i, x := sh.Node, shareAmounts(sh)
		if early && n.mark[i] == n.gen {
			n.future[i] = n.future[i].plus(x)
		}
		if n.partOf[i] != k.part {
			continue
		}
		before, after := n.holdsNow(i, n.free[i].minus(x)), n.holdsNow(i, n.free[i])
		switch {
		case n.held[i] == n.headGen:
			if early {
				spareWas := n.spare[i]
				n.spare[i] = spareWas.plus(x)
				n.relock(i, n.free[i], spareWas)
			}
			if !before && after {
				n.toSecondRankFrom(i)
			}
		case n.held[i] != n.headGen && !after && early && n.holdsNow(i, n.futureOf(i)):
			n.swapIn(i)
		}
	}
	k.changes = n.changes
}

// endKeeps is keepThroughEnd's check: whether the completion of job j
// (early: estimated to outlive the shadow) keeps the reservation.
// It spends the slack; it changes nothing else.
func (n *nodes) endKeeps(j int, early bool) bool {
	s, k := n.s, &n.kept
	shares := s.sched.Nodes[j]
	last := n.lastHolding()
	leaving, newSecond := false, false
	gains := slices.Grow(n.gains[:0], len(n.parts))[:len(n.parts)]
	n.gains = gains
	clear(gains)
	for _, sh := range shares {
		i, x := sh.Node, shareAmounts(sh)
		before, after := n.holdsNow(i, n.free[i].minus(x)), n.holdsNow(i, n.free[i])
		future := n.futureOf(i)
		if early && n.mark[i] == n.gen {
			future = future.plus(x)
		}
		atShadow := n.holdsNow(i, future)
		if !before && atShadow {
			gains[n.partOf[i]]++
		}
		switch p := n.partOf[i]; {
		case p < k.part:
			if early {
				return false
			}
			continue
		case p > k.part:
			continue
		}
		head := n.held[i] == n.headGen
		switch {
		case before:
		case after && head && last < 0:
			// The first rank alone holds the head: leaveFirstRank, once.
			if n.sel != SelectFirstFit || leaving {
				return false
			}
			leaving = true
		case after && head:
			if n.sel != SelectFirstFit || !n.noneHoldingBetween(last, i) {
				return false
			}
			last = max(last, i)
		case after:
			newSecond = true
			// Not the head's. While the head has nodes of the second
			// rank it has every node of the first: had j ended by the
			// shadow, i would be one (it holds the head then), so that
			// is refused; a new node of the second rank must come past
			// them all. Without one, the first rank alone holds the
			// head, without i too, and the second is not reached.
			if last >= 0 && (!early || i < last) {
				return false
			}
		}
	}
	if leaving && newSecond {
		return false // the second rank may be reached
	}
	// j's share came back at its estimated end; now it is back from now.
	until := int64(math.MaxInt64)
	if !early {
		until = s.sched.StartSeconds[j] + s.est[j]
	}
	return n.spendSlack(gains, until)
}

// noneHoldingBetween reports whether no node between last and i
// (excluded), not the head's, holds the head now.
func (n *nodes) noneHoldingBetween(last, i int32) bool {
	for x := nextIn(n.withCores, int(last)+1, int(i)); x < int(i); x = nextIn(n.withCores, x+1, int(i)) {
		if n.held[x] != n.headGen && n.holdsNow(int32(x), n.free[x]) {
			return false
		}
	}
	return true
}

// toFirstRank moves the head's node i from the second rank to the first.
func (n *nodes) toFirstRank(i int32) {
	n.kept.secondRank[i/64] &^= 1 << (i % 64)
	n.kept.ranked--
}

// toSecondRankFrom follows the head's node i of the first rank, which
// came to hold the head now (see keepThroughEnd).
func (n *nodes) toSecondRankFrom(i int32) {
	if n.lastHolding() < 0 {
		n.leaveFirstRank(i)
		return
	}
	n.toSecondRank(i)
}

// toSecondRank moves the head's node i from the first rank to the second
// (under first-fit, where second is in id order).
func (n *nodes) toSecondRank(i int32) {
	k := &n.kept
	k.secondRank[i/64] |= 1 << (i % 64)
	k.ranked++
}

// swapIn follows node i, not the head's, which now ranks first and holds
// the head at the shadow, under first-fit: while the head has nodes of the
// second rank it takes every node of the first, so i takes the place of
// its last node of the second rank; else it takes the first of the first
// rank by id, so i takes the place of its last node if it comes before it.
func (n *nodes) swapIn(i int32) {
	out := n.lastHolding()
	if out < 0 {
		if out = n.lastHead(); out < i {
			return
		}
	}
	n.replaceHead(out, i, false)
}

// leaveFirstRank follows the head's node i, which came to hold the head
// now while the first rank alone holds it, under first-fit: the first
// node past the head's that ranks first and holds the head at the shadow
// takes i's place; without one, the first node of the second rank by id
// does, which may be i.
func (n *nodes) leaveFirstRank(i int32) {
	pr := &n.parts[n.kept.part]
	for c := n.lastHead() + 1; int(c) < pr.end; c++ {
		if !n.holdsNow(c, n.free[c]) && n.holdsNow(c, n.futureOf(c)) {
			n.replaceHead(i, c, false)
			return
		}
	}
	for c := int32(pr.first); ; c++ {
		if c == i {
			n.toSecondRank(i)
			return
		}
		if n.held[c] != n.headGen && n.holdsNow(c, n.free[c]) {
			n.replaceHead(i, c, true)
			return
		}
	}
}

// replaceHead gives the head node in in place of node out, in the first
// or second rank.
func (n *nodes) replaceHead(out, in int32, second bool) {
	k := &n.kept
	if k.secondRank[out/64]&(1<<(out%64)) != 0 {
		n.toFirstRank(out)
	}
	n.locked[n.partOf[out]] -= lockedOf(n.free[out], n.spare[out])
	n.held[out] = 0 // never a head generation
	n.headNodes[out/64] &^= 1 << (out % 64)

	r := &n.reqs[k.head]
	n.held[in] = n.headGen
	n.headNodes[in/64] |= 1 << (in % 64)
	n.spare[in] = n.futureOf(in).minus(perNode(r, n.cap[in]))
	n.locked[n.partOf[in]] += lockedOf(n.free[in], n.spare[in])
	if second {
		n.toSecondRank(in)
	}
}

// lastHead returns the head's node of highest id.
func (n *nodes) lastHead() int32 { return highest(n.headNodes) }

// swapPending swaps in, at the end of a pass that kept the reservation,
// the nodes keepThrough found dropped to the first rank that still hold
// the head at the shadow.
func (n *nodes) swapPending() {
	k := &n.kept
	if k.valid && k.changes == n.changes {
		for _, i := range k.swaps {
			if n.held[i] != n.headGen && !n.holdsNow(i, n.free[i]) && n.holdsNow(i, n.futureOf(i)) {
				n.swapIn(i)
			}
		}
	}
	k.swaps = k.swaps[:0]
}

// checkKept builds head's reservation anew where reserve reused the kept
// one, and panics unless both have the same shadow, the head's nodes and
// shares, what it leaves spare of them, the cores it locks, and what every
// node it may use has free at the shadow (policy.checkKept, tests only).
func (n *nodes) checkKept(head int, starts []int) {
	type node struct {
		share  NodeShare
		spare  amounts
		second bool
	}
	r := &n.reqs[head]
	look := func() (out []node, future []amounts) {
		// A pooled head's reservation is kept only as built; another
		// takes the same of each of its nodes.
		for _, sh := range n.headBuf {
			if !r.Pooled() {
				break
			}
			out = append(out, node{sh, n.spare[sh.Node], n.kept.secondRank[sh.Node/64]&(1<<(sh.Node%64)) != 0})
		}
		for i := nextIn(n.headNodes, 0, len(n.cap)); i < len(n.cap) && !r.Pooled(); i = nextIn(n.headNodes, i+1, len(n.cap)) {
			out = append(out, node{shareOf(r, i, n.cap[i], 1, 1), n.spare[i], n.kept.secondRank[i/64]&(1<<(i%64)) != 0})
		}
		slices.SortFunc(out, func(a, b node) int { return cmp.Compare(a.share.Node, b.share.Node) })
		for i := range n.cap {
			if r.Partition == rigid.AnyPartition || r.Partition == int(n.partOf[i]) {
				future = append(future, n.futureOf(int32(i)))
			}
		}
		return out, future
	}
	kept, keptFuture := look()
	keptLocked, keptShadow, keptRanked := slices.Clone(n.locked), n.kept.shadow, n.kept.ranked
	shadow := n.build(head, starts)
	built, builtFuture := look()
	fail := func(what string, kept, built any) {
		panic(fmt.Sprintf("backfill: at %d s the kept reservation of job %d (%+v) differs from one built anew: %s %v, built %v", n.s.now, head, *r, what, kept, built))
	}
	switch {
	case keptShadow != shadow:
		fail("shadow", keptShadow, shadow)
	case !slices.Equal(keptLocked, n.locked):
		fail("cores locked per partition", keptLocked, n.locked)
	case len(kept) != len(built):
		fail("nodes", len(kept), len(built))
	case keptRanked != n.kept.ranked:
		fail("nodes of the second rank", keptRanked, n.kept.ranked)
	}
	for i := range kept {
		if kept[i] != built[i] {
			fail("node", kept[i], built[i])
		}
	}
	for i := range keptFuture {
		if keptFuture[i] != builtFuture[i] {
			fail(fmt.Sprintf("free at the shadow on the %d-th node it may use", i), keptFuture[i], builtFuture[i])
		}
	}
}
