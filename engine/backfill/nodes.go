package backfill

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Nodes (issue 34): on a workload with a Machine, jobs are placed on
// nodes of partitions, each node with cores, memory and GPUs, by the
// nodes allocator below, behind the same allocator and easyPlacement
// seams as counted processors; EASY is the one easyPass over it, strict
// allocation its fit, conservative backfilling a plan over the nodes'
// reservations (nodesplan.go). (A machine whose jobs all take whole
// nodes is scheduled on counts of free nodes instead: nodewhole.go.)
// Its rules:
//
//   - A job asking for N nodes fits when N nodes of one partition it
//     allows (its own, or any, tried in platform order) each have its
//     cores, memory and GPUs per node free; an exclusive job takes
//     whole, entirely free nodes. A pooled job (cores, memory per core)
//     takes cores wherever a node of the partition has cores and their
//     memory free, node by node, until it has them all.
//   - Selection is first-fit (the lowest node ids) or best-fit (the
//     nodes its take leaves the least free, each resource's leftover
//     counted as a fraction of the node's, ties to the lowest id).
//   - EASY's shadow is the first instant, releasing the running jobs by
//     estimated end (every end at that second counted), at which the
//     head fits: every resource it needs free on nodes it may use. Its
//     nodes are chosen then by the selection rule; a job estimated to
//     outlive the shadow may use only what the head leaves spare of
//     those nodes, so the head's nodes are protected.

// NodeSelection is how the nodes allocator chooses among fitting nodes.
type NodeSelection uint8

// The selections.
const (
	// SelectFirstFit takes the fitting nodes of lowest id. The default.
	SelectFirstFit NodeSelection = iota
	// SelectBestFit takes the fitting nodes the job leaves least free.
	SelectBestFit
)

var selectionNames = []string{"first-fit", "best-fit"}

func (n NodeSelection) String() string { return enumName(selectionNames, int(n)) }

// ParseNodeSelection reads first-fit or best-fit.
func ParseNodeSelection(name string) (NodeSelection, error) {
	if i := slices.Index(selectionNames, name); i >= 0 {
		return NodeSelection(i), nil
	}
	return 0, fmt.Errorf("node selection %q: want first-fit (the fitting nodes of lowest id, the default) or best-fit (the nodes a job leaves least free)", name)
}

// NodeShare is what one job holds of one node (node ids count across
// the machine's partitions in order).
type NodeShare struct {
	Node      int32
	Cores     int32
	GPUs      int32
	MemoryMiB int64
}

// amounts are cores, GPUs and memory of one node: free, held or asked.
type amounts struct {
	cores, gpus int32
	mem         int64
}

func (a amounts) covers(b amounts) bool {
	return a.cores >= b.cores && a.gpus >= b.gpus && a.mem >= b.mem
}

func (a amounts) minus(b amounts) amounts {
	return amounts{a.cores - b.cores, a.gpus - b.gpus, a.mem - b.mem}
}

func (a amounts) plus(b amounts) amounts {
	return amounts{a.cores + b.cores, a.gpus + b.gpus, a.mem + b.mem}
}

func least(a, b amounts) amounts {
	return amounts{min(a.cores, b.cores), min(a.gpus, b.gpus), min(a.mem, b.mem)}
}

func shareAmounts(s NodeShare) amounts { return amounts{s.Cores, s.GPUs, s.MemoryMiB} }

// partRange is a partition's nodes, first to end (excluded).
type partRange struct {
	first, end int
	capacity   amounts
}

// availMode is which free resources a choice sees.
type availMode uint8

const (
	availNow      availMode = iota // free now
	availNowShort                  // free now, for a job ending by the head's shadow
	availNowLong                   // free now, on the head's nodes only what it leaves spare
	availFuture                    // free at the instant reserve is probing
	availPlan                      // free throughout the interval conservative is probing
)

// nodes is the allocator of a machine of nodes (see above).
type nodes struct {
	s     *sim
	reqs  []rigid.Request
	parts []partRange
	cap   []amounts // per node
	free  []amounts // per node, now
	// partCores is the cores free per partition, a quick refusal.
	partCores []int
	partOf    []int32  // per node
	withCores []uint64 // bit i: node i has a core free now
	headNodes []uint64 // bit i: node i is the head's (held[i] == headGen)
	// scratchSet is withCoresOfHead's.
	scratchSet []uint64
	// futureCores is withCores and the nodes reserve released: those
	// that may have something free at the instant it probes; marked
	// lists the latter.
	futureCores []uint64
	marked      []uint64
	sel         NodeSelection

	// pending holds the shares of each job a pass placed, in the order
	// of its starts; arena backs them and the jobs' recorded shares.
	pending [][]NodeShare
	arena   []NodeShare

	// reserve's state: future[n] is node n's free resources at the
	// instant probed, valid where mark[n] == gen; spare[n] what the
	// head of the last reservation built leaves of its node n at the
	// shadow, valid where held[n] == headGen. Only a pass's backfill
	// reads the head's nodes, after its reserve built or reused them.
	gen, headGen uint32
	future       []amounts
	mark         []uint32
	spare        []amounts
	held         []uint32
	ends         []endEvent

	have      []int // reserve's units per partition
	gains     []int // keepThroughEnd's units per partition
	fullUnits []int // reserve's units of an entirely free node per partition
	// locked is, per partition, the cores free now on the head's nodes
	// that a job outliving the shadow may not take: a quick refusal,
	// kept up to date as shares are taken and given.
	locked  []int
	headBuf []NodeShare // reserve's choice for the head
	cands   []nodeCand  // scratch of best-fit
	cands2  []NodeShare // scratch of conservative's future placements
	plan    nodePlan

	// changes counts what may move a reservation: every take and give
	// of shares (a completion's release gives).
	changes uint64
	kept    keptReservation
}

type nodeCand struct {
	node, rank int
	score      float64
}

func newNodes(s *sim, sel NodeSelection) *nodes {
	m := s.w.Machine
	n := &nodes{s: s, reqs: s.w.Requests, sel: sel}
	for _, p := range m.Partitions {
		first := len(n.cap)
		c := amounts{int32(p.Cores), int32(p.GPUs), p.MemoryMiB}
		for range p.Nodes {
			n.cap = append(n.cap, c)
			n.partOf = append(n.partOf, int32(len(n.parts)))
		}
		n.parts = append(n.parts, partRange{first: first, end: len(n.cap), capacity: c})
		n.partCores = append(n.partCores, p.Nodes*p.Cores)

	}
	n.free = slices.Clone(n.cap)
	k := len(n.cap)
	n.withCores, n.marked, n.headNodes = make([]uint64, (k+63)/64), make([]uint64, (k+63)/64), make([]uint64, (k+63)/64)
	for i := range k {
		n.withCores[i/64] |= 1 << (i % 64)
	}
	n.future, n.mark, n.spare, n.held = make([]amounts, k), make([]uint32, k), make([]amounts, k), make([]uint32, k)
	n.headGen = 1 // no node is a head's
	n.locked = make([]int, len(n.parts))
	s.sched.Nodes = make([][]NodeShare, len(s.jobs))
	return n
}

// avail returns what node i has free in mode m.
func (n *nodes) avail(i int, m availMode) amounts {
	switch m {
	case availPlan:
		return n.freeOver(i)
	case availFuture:
		if n.mark[i] == n.gen {
			return n.future[i]
		}
	case availNowLong:
		if n.held[i] == n.headGen {
			return least(n.free[i], n.spare[i])
		}
	}
	return n.free[i]
}

// perNode returns what a node request takes of each of its nodes.
func perNode(r *rigid.Request, capacity amounts) amounts {
	if r.Exclusive {
		return capacity
	}
	return amounts{int32(r.CoresPerNode), int32(r.GPUsPerNode), r.MemoryPerNodeMiB}
}

// units returns what a node with free resources a offers the request:
// 1 or 0 nodes for a node request, the cores it can take for a pooled one.
func units(r *rigid.Request, a, capacity amounts) int {
	if r.Exclusive && a != capacity {
		return 0
	}
	if !r.Pooled() {
		if a.covers(perNode(r, capacity)) {
			return 1
		}
		return 0
	}
	c := int(a.cores)
	if r.MemoryPerCoreMiB > 0 {
		c = min(c, int(a.mem/r.MemoryPerCoreMiB))
	}
	return c
}

// target is the units a job needs: nodes, or pooled cores.
func target(r *rigid.Request, procs int) int {
	if r.Pooled() {
		return procs
	}
	return r.Nodes
}

// shareOf returns what job r takes of node i, offering u units, when it
// still needs left of them.
func shareOf(r *rigid.Request, i int, capacity amounts, u, left int) NodeShare {
	var a amounts
	switch {
	case r.Exclusive:
		a = capacity
	case r.Pooled():
		c := min(u, left)
		a = amounts{cores: int32(c), mem: int64(c) * r.MemoryPerCoreMiB}
	default:
		a = perNode(r, capacity)
	}
	return NodeShare{Node: int32(i), Cores: a.cores, GPUs: a.gpus, MemoryMiB: a.mem}
}

// choose appends to out job j's shares of nodes in mode m, trying its
// partitions in order, and reports whether it fits.
func (n *nodes) choose(j int, m availMode, out []NodeShare) ([]NodeShare, bool) {
	r := &n.reqs[j]
	procs := n.s.jobs[j].Procs
	if r.Partition != rigid.AnyPartition {
		return n.chooseIn(r, procs, r.Partition, m, out)
	}
	for p := range n.parts {
		if shares, ok := n.chooseIn(r, procs, p, m, out); ok {
			return shares, true
		}
	}
	return out, false
}

// chooseIn is choose on partition p.
func (n *nodes) chooseIn(r *rigid.Request, procs, p int, m availMode, out []NodeShare) ([]NodeShare, bool) {
	if m <= availNowShort && n.partCores[p] < procs || m == availNowLong && n.partCores[p]-n.locked[p] < procs {
		return out, false
	}
	if n.sel == SelectFirstFit {
		return n.firstFit(r, &n.parts[p], target(r, procs), m, out)
	}
	return n.bestFit(r, &n.parts[p], target(r, procs), m, out)
}

// firstFit takes the fitting nodes of lowest id, those of the first rank
// first where the mode ranks them (see rank).
func (n *nodes) firstFit(r *rigid.Request, pr *partRange, left int, m availMode, out []NodeShare) ([]NodeShare, bool) {
	base := len(out)
	switch m {
	case availFuture:
		// The nodes that cannot hold the head now but can at the
		// probed instant are among those released since; those that
		// can hold it now have a core free now.
		out, left = n.takeReleased(r, pr, out, left)
		out, left = n.takeHoldingNow(r, pr, out, left)
	case availNowShort:
		for _, head := range [2]bool{true, false} {
			out, left = n.takeIn(r, pr, n.withCoresOfHead(pr, head), m, out, left)
		}
	default:
		out, left = n.takeIn(r, pr, n.candidates(m), m, out, left)
	}
	return out, left == 0 || n.undo(&out, base)
}

// takeIn takes, in id order, the nodes of pr in set (every node when set
// is nil) that offer r units in mode m, until it has left of them.
func (n *nodes) takeIn(r *rigid.Request, pr *partRange, set []uint64, m availMode, out []NodeShare, left int) ([]NodeShare, int) {
	if !r.Pooled() && set != nil {
		return n.takeNodesIn(perNode(r, pr.capacity), pr, set, m, out, left)
	}
	for i := pr.first; left > 0; i++ {
		if set != nil {
			i = nextIn(set, i, pr.end)
		}
		if i >= pr.end {
			break
		}
		if u := units(r, n.avail(i, m), pr.capacity); u > 0 {
			out = append(out, shareOf(r, i, pr.capacity, u, left))
			left -= min(u, left)
		}
	}
	return out, left
}

// takeNodesIn is takeIn for a request of nodes, each taking need: the
// placements' inner loop, over set's words.
func (n *nodes) takeNodesIn(need amounts, pr *partRange, set []uint64, m availMode, out []NodeShare, left int) ([]NodeShare, int) {
	share := NodeShare{Cores: need.cores, GPUs: need.gpus, MemoryMiB: need.mem}
	for w := pr.first / 64; w*64 < pr.end && left > 0; w++ {
		word := set[w]
		if w == pr.first/64 {
			word &^= 1<<(pr.first%64) - 1
		}
		for ; word != 0 && left > 0; word &= word - 1 {
			i := w*64 + tz(word)
			if i >= pr.end {
				return out, left
			}
			a := n.free[i]
			if m > availNowShort {
				a = n.avail(i, m)
			}
			if a.covers(need) {
				share.Node = int32(i)
				out = append(out, share)
				left--
			}
		}
	}
	return out, left
}

// withCoresOfHead returns, over pr's words, the nodes with a core free
// now that are (head) or are not the head's.
func (n *nodes) withCoresOfHead(pr *partRange, head bool) []uint64 {
	n.scratchSet = slices.Grow(n.scratchSet[:0], len(n.withCores))[:len(n.withCores)]
	for w := pr.first / 64; w*64 < pr.end; w++ {
		if head {
			n.scratchSet[w] = n.withCores[w] & n.headNodes[w]
		} else {
			n.scratchSet[w] = n.withCores[w] &^ n.headNodes[w]
		}
	}
	return n.scratchSet
}

// bestFit takes the fitting nodes the job leaves least free, by rank
// first where the mode ranks them.
func (n *nodes) bestFit(r *rigid.Request, pr *partRange, left int, m availMode, out []NodeShare) ([]NodeShare, bool) {
	ranked := m == availFuture || m == availNowShort
	cands := n.cands[:0]
	total := 0
	for i := n.next(pr.first, pr.end, m); i < pr.end; i = n.next(i+1, pr.end, m) {
		a := n.avail(i, m)
		if u := units(r, a, pr.capacity); u > 0 {
			total += u
			c := nodeCand{node: i, score: leftover(a.minus(shareAmounts(shareOf(r, i, pr.capacity, u, left))), pr.capacity)}
			if ranked {
				c.rank = n.rank(r, i, m, pr.capacity)
			}
			cands = append(cands, c)
		}
	}
	n.cands = cands
	if total < left {
		return out, false
	}
	slices.SortFunc(cands, func(a, b nodeCand) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.score, b.score), cmp.Compare(a.node, b.node))
	})
	for _, c := range cands {
		if left == 0 {
			break
		}
		u := units(r, n.avail(c.node, m), pr.capacity)
		out = append(out, shareOf(r, c.node, pr.capacity, u, left))
		left -= min(u, left)
	}
	return out, true
}

// takeReleased is first-fit's first rank at the probed instant: the
// nodes of pr released by reserve (n.marked, in id order) that cannot
// hold the head now.
func (n *nodes) takeReleased(r *rigid.Request, pr *partRange, out []NodeShare, left int) ([]NodeShare, int) {
	for i := nextIn(n.marked, pr.first, pr.end); i < pr.end && left > 0; i = nextIn(n.marked, i+1, pr.end) {
		if units(r, n.free[i], pr.capacity) > 0 {
			continue
		}
		if u := units(r, n.future[i], pr.capacity); u > 0 {
			out = append(out, shareOf(r, i, pr.capacity, u, left))
			left -= min(u, left)
		}
	}
	return out, left
}

// takeHoldingNow is first-fit's second rank at the probed instant: the
// nodes of pr that hold the head now, given what they have free then.
func (n *nodes) takeHoldingNow(r *rigid.Request, pr *partRange, out []NodeShare, left int) ([]NodeShare, int) {
	for i := nextIn(n.withCores, pr.first, pr.end); i < pr.end && left > 0; i = nextIn(n.withCores, i+1, pr.end) {
		u := units(r, n.free[i], pr.capacity)
		if u == 0 {
			continue
		}
		if n.mark[i] == n.gen {
			u = units(r, n.future[i], pr.capacity)
		}
		out = append(out, shareOf(r, i, pr.capacity, u, left))
		left -= min(u, left)
	}
	return out, left
}

// rank orders the nodes a choice prefers, 0 before 1, so that the nodes
// free now stay to the jobs that can use them: the head is given, among
// the nodes that hold it at the shadow, those that cannot hold it now
// first, which leaves the nodes free now to backfilling (the extra
// processors of EASY on counted processors, which it is on one-core
// nodes); a job ending by the shadow takes the head's nodes first, which
// leaves the others to the jobs that outlive it.
func (n *nodes) rank(r *rigid.Request, i int, m availMode, capacity amounts) int {
	switch {
	case m == availFuture && units(r, n.free[i], capacity) > 0:
		return 1
	case m == availNowShort && n.held[i] != n.headGen:
		return 1
	}
	return 0
}

// undo drops the shares appended past base and returns false.
func (n *nodes) undo(out *[]NodeShare, base int) bool {
	*out = (*out)[:base]
	return false
}

// leftover is best-fit's score: what a node keeps free, each resource as
// a fraction of the node's.
func leftover(a, capacity amounts) float64 {
	f := float64(a.cores) / float64(capacity.cores)
	if capacity.gpus > 0 {
		f += float64(a.gpus) / float64(capacity.gpus)
	}
	if capacity.mem > 0 {
		f += float64(a.mem) / float64(capacity.mem)
	}
	return f
}

// take holds shares of the free resources now.
func (n *nodes) take(shares []NodeShare) {
	n.changes++
	for _, sh := range shares {
		was := n.free[sh.Node]
		n.changed(sh.Node, was, was.minus(shareAmounts(sh)))
	}
}

// give frees shares of the free resources now.
func (n *nodes) give(shares []NodeShare) {
	n.changes++
	for _, sh := range shares {
		was := n.free[sh.Node]
		n.changed(sh.Node, was, was.plus(shareAmounts(sh)))
	}
}

// changed sets node i's free resources, which were was, to now, and what
// is kept of them.
func (n *nodes) changed(i int32, was, now amounts) {
	n.free[i] = now
	p := n.partOf[i]
	n.partCores[p] += int(now.cores - was.cores)
	switch {
	case now.cores == 0:
		n.withCores[i/64] &^= 1 << (i % 64)
	case was.cores == 0:
		n.withCores[i/64] |= 1 << (i % 64)
	}
	if n.held[i] == n.headGen {
		n.locked[p] += lockedOf(now, n.spare[i]) - lockedOf(was, n.spare[i])
	}
}

// relock updates locked for a change of node i's free resources or
// spare from was and spareWas, when it is one of the head's nodes.
func (n *nodes) relock(i int32, was, spareWas amounts) {
	if n.held[i] == n.headGen {
		n.locked[n.partOf[i]] += lockedOf(n.free[i], n.spare[i]) - lockedOf(was, spareWas)
	}
}

// candidates returns the bit set of the nodes a choice in mode m may
// take, nil for every node: now, only nodes with a core free (every
// request takes a core of each of its nodes); at the instant reserve
// probes, those and the nodes released since.
func (n *nodes) candidates(m availMode) []uint64 {
	switch m {
	case availFuture:
		return n.futureCores
	case availPlan:
		return nil
	}
	return n.withCores
}

// next returns the first node from i on, before end, that a choice in
// mode m may take (see candidates); end if none.
func (n *nodes) next(i, end int, m availMode) int {
	if set := n.candidates(m); set != nil {
		return nextIn(set, i, end)
	}
	return min(i, end)
}

// nextIn returns the first node of bit set set from i on, before end;
// end if none.
func nextIn(set []uint64, i, end int) int {
	if i >= end {
		return end
	}
	w := i / 64
	bits := set[w] &^ (1<<(i%64) - 1)
	for bits == 0 {
		w++
		if w*64 >= end {
			return end
		}
		bits = set[w]
	}
	return min(w*64+tz(bits), end)
}

func (n *nodes) ready(s *sim) bool {
	if len(s.queue) == 0 || s.free == 0 {
		return false
	}
	for _, j := range s.queue {
		r := &n.reqs[j]
		if r.Partition == rigid.AnyPartition && s.jobs[j].Procs <= s.free ||
			r.Partition != rigid.AnyPartition && s.jobs[j].Procs <= n.partCores[r.Partition] {
			return true
		}
	}
	return false
}

func (n *nodes) snapshot(*sim) easyPlacement {
	n.pending = n.pending[:0]
	n.kept.swaps = n.kept.swaps[:0]
	return n
}

func (n *nodes) release(s *sim, j int) {
	n.give(s.sched.Nodes[j])
	n.keepThroughEnd(j)
}

// roomInArena starts a new arena when the current one might not hold a
// job's shares (one per node at most): the shares recorded keep the old
// one, which is never copied.
func (n *nodes) roomInArena() {
	if cap(n.arena)-len(n.arena) < len(n.cap) {
		n.arena = make([]NodeShare, 0, max(1<<14, 4*len(n.cap)))
	}
}

// place chooses job j's nodes in mode m and, when it fits, holds them and
// keeps its shares for commit.
func (n *nodes) place(j int, m availMode) bool {
	n.roomInArena()
	base := len(n.arena)
	shares, ok := n.choose(j, m, n.arena)
	if !ok {
		n.arena = shares[:base]
		return false
	}
	n.arena = shares
	mine := shares[base:len(shares):len(shares)]
	n.take(mine)
	n.pending = append(n.pending, mine)
	return true
}

func (n *nodes) fit(order, starts []int) []int {
	for _, j := range order {
		if !n.place(j, availNow) {
			break
		}
		starts = append(starts, j)
	}
	return starts
}

// reserve releases, on the future copy, the running jobs and the starts
// of this pass by estimated end until the head fits, and keeps what the
// head leaves spare of the nodes it would take then. It counts, per
// partition the head may use, the units (nodes, or pooled cores) the
// nodes offer it as they are released, and chooses its nodes only once
// they suffice.
func (n *nodes) reserve(head int, starts []int) int64 {
	if !n.reuse(head, starts) {
		return n.build(head, starts)
	}
	if n.s.policy.checkKept {
		n.checkKept(head, starts)
	}
	return n.kept.shadow
}

// build is reserve without the kept reservation.
func (n *nodes) build(head int, starts []int) int64 {
	s := n.s
	r := &n.reqs[head]
	ends := s.estimatedEnds(n.ends, starts)
	if r.Partition != rigid.AnyPartition {
		// The jobs of other partitions give the head nothing.
		ends = slices.DeleteFunc(ends, func(e endEvent) bool { return !n.mayUse(r, n.sharesOf(e.job)) })
	}
	n.ends = ends
	n.gen++
	want := target(r, s.jobs[head].Procs)
	n.countUnits(r)
	n.lacked(s.now, true)
	n.futureCores = append(n.futureCores[:0], n.withCores...)
	clear(n.marked)
	for i := 0; i < len(ends); {
		shadow := ends[i].seconds
		for ; i < len(ends) && ends[i].seconds == shadow; i++ {
			n.releaseFuture(r, n.sharesOf(ends[i].job))
		}
		if slices.Max(n.have) < want {
			n.lacked(shadow, false)
			continue
		}
		held, ok := n.choose(head, availFuture, n.headBuf[:0])
		n.headBuf = held
		if !ok {
			n.lacked(shadow, false)
			continue
		}
		n.holdForHead(r, held)
		n.keep(head, shadow, want)
		return shadow
	}
	panic("backfill: a job fits no node with every running job ended") // the workload is cut to the machine
}

// holdForHead marks the head's nodes, keeps what it leaves spare of each
// at the shadow, works out, per partition, the cores free now on them that
// a job outliving the shadow may not take (a quick refusal), and ranks
// them for the kept reservation: those that cannot hold the head now,
// then those that can (choose gives them in that order).
func (n *nodes) holdForHead(r *rigid.Request, held []NodeShare) {
	n.headGen++
	clear(n.locked)
	clear(n.headNodes)
	k := &n.kept
	if k.secondRank == nil {
		k.secondRank = make([]uint64, len(n.headNodes))
	}
	clear(k.secondRank)
	k.part, k.ranked, k.swaps = n.partOf[held[0].Node], 0, k.swaps[:0]
	k.req, k.exclusive, k.pooled = r, r.Exclusive, r.Pooled()
	k.need = amounts{int32(r.CoresPerNode), int32(r.GPUsPerNode), r.MemoryPerNodeMiB}
	for _, sh := range held {
		i := sh.Node
		free := n.free[i]
		future := free
		if n.mark[i] == n.gen {
			future = n.future[i]
		}
		n.held[i] = n.headGen
		n.headNodes[i/64] |= 1 << (i % 64)
		n.spare[i] = future.minus(shareAmounts(sh))
		n.locked[n.partOf[i]] += lockedOf(free, n.spare[i])
		if n.holdsNow(i, free) {
			k.secondRank[i/64] |= 1 << (i % 64)
			k.ranked++
		}
	}
}

// lockedOf returns the cores free on a head's node that a job outliving
// the shadow may not take.
func lockedOf(free, spare amounts) int {
	return int(free.cores - min(free.cores, spare.cores))
}

// countUnits sets have[p] to the units the nodes of partition p offer
// request r now, -1 for a partition it may not use.
func (n *nodes) countUnits(r *rigid.Request) {
	n.have = slices.Grow(n.have[:0], len(n.parts))[:len(n.parts)]
	n.fullUnits = slices.Grow(n.fullUnits[:0], len(n.parts))[:len(n.parts)]
	for p := range n.parts {
		n.fullUnits[p] = units(r, n.parts[p].capacity, n.parts[p].capacity)
		n.have[p] = -1
		if r.Partition != rigid.AnyPartition && r.Partition != p {
			continue
		}
		pr := &n.parts[p]
		n.have[p] = 0
		for i := n.next(pr.first, pr.end, availNow); i < pr.end; i = n.next(i+1, pr.end, availNow) {
			n.have[p] += units(r, n.free[i], pr.capacity)
		}
	}
}

// sharesOf returns a running job's shares (job >= 0) or those of the
// start of this pass at index -1 - job.
func (n *nodes) sharesOf(job int) []NodeShare {
	if job >= 0 {
		return n.s.sched.Nodes[job]
	}
	return n.pending[-1-job]
}

// releaseFuture frees shares on the future copy, counting what the nodes
// offer request r. A share of all a node's cores left it nothing to offer
// (every request takes a core of each node), and a node left entirely
// free offers fullUnits of its partition: neither needs working out.
func (n *nodes) releaseFuture(r *rigid.Request, shares []NodeShare) {
	for _, sh := range shares {
		i := sh.Node
		if n.mark[i] != n.gen {
			n.mark[i], n.future[i] = n.gen, n.free[i]
			n.futureCores[i/64] |= 1 << (i % 64)
			n.marked[i/64] |= 1 << (i % 64)
		}
		p := n.partOf[i]
		if n.have[p] < 0 {
			n.future[i] = n.future[i].plus(shareAmounts(sh))
			continue
		}
		before := 0
		if sh.Cores < n.cap[i].cores {
			before = units(r, n.future[i], n.cap[i])
		}
		n.future[i] = n.future[i].plus(shareAmounts(sh))
		after := n.fullUnits[p]
		if n.future[i] != n.cap[i] {
			after = units(r, n.future[i], n.cap[i])
		}
		n.have[p] += after - before
	}
}

func (n *nodes) backfill(order []int, shadowSeconds int64, starts []int) []int {
	s := n.s
	for _, j := range order {
		long := s.now+s.est[j] > shadowSeconds
		m := availNowShort
		if long {
			m = availNowLong
		}
		if !n.place(j, m) {
			continue
		}
		if long {
			// It takes of the head's nodes only what the head leaves.
			for _, sh := range n.pending[len(n.pending)-1] {
				if i := sh.Node; n.held[i] == n.headGen {
					spareWas := n.spare[i]
					n.spare[i] = spareWas.minus(shareAmounts(sh))
					n.relock(i, n.free[i], spareWas)
				}
			}
		}
		n.keepThrough(n.pending[len(n.pending)-1], long)
		starts = append(starts, j)
	}
	return starts
}

func (n *nodes) commit(s *sim, starts []int) {
	for i, j := range starts {
		s.sched.Nodes[j] = n.pending[i]
		s.usage.charge[j] = s.chargeOf(n.pending[i])
		s.start(j)
	}
	n.swapPending()
}

func tz(x uint64) int { return bits.TrailingZeros64(x) }
