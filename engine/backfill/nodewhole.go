package backfill

import (
	"math/bits"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Whole nodes: when every job takes whole nodes of every partition it
// can use (an exclusive job; a job asking all of a node's cores; a pooled
// job on one-core nodes whose memory per core the node holds), a node is
// either entirely free or entirely held, and the nodes of a partition are
// interchangeable: which ones a job holds never changes when another can
// start. Such a machine is scheduled by the wholeNodes allocator on
// counts of free nodes per partition, as counted processors are on counts
// of processors, with a bit set of the free nodes from which a starting
// job takes the first it needs (first-fit; best-fit is the same, every
// fitting node being left empty): EASY's shadow and its spare nodes are
// counts, and conservative backfilling plans with a profile of free
// nodes per partition, naming nodes only when a job starts. Planning on
// counts is exact there: a plan feasible in counts is always realised by
// giving each starting job any free nodes, since every node a job could
// be given is as good as another. On one-core nodes without memory the
// schedules are those of counted processors, under every order and
// allocation (TestNodesMatchProcessors). A machine where some job shares
// a node with others keeps the nodes allocator (nodes.go), whose plans
// name nodes.

// wholeNodesOf reports whether every job of w takes whole nodes of every
// partition it can use: on one-core nodes, every job.
func wholeNodesOf(w *rigid.Workload) bool {
	m := w.Machine
	if oneCore(m) {
		return true
	}
	for i := range w.Requests {
		r := &w.Requests[i]
		for p := range m.Partitions {
			part := &m.Partitions[p]
			if r.Partition != rigid.AnyPartition && r.Partition != p || takesWholeNodes(r, part) {
				continue
			}
			if r.Fits(part, w.Jobs[i].Procs) == "" {
				return false // it can share a node of p
			}
		}
	}
	return true
}

// oneCore reports whether every node of m has one core (the
// single-resource model on nodes, where a job holds whole nodes and its
// processors' cores).
func oneCore(m *rigid.Machine) bool {
	for _, p := range m.Partitions {
		if p.Cores != 1 {
			return false
		}
	}
	return true
}

// takesWholeNodes reports whether request r leaves nothing of the nodes
// of partition part it holds to another job (every job takes a core of
// each of its nodes).
func takesWholeNodes(r *rigid.Request, part *rigid.Partition) bool {
	switch {
	case r.Exclusive:
		return true
	case r.Pooled():
		return part.Cores == 1
	}
	return r.CoresPerNode == part.Cores
}

// wholeNodes is the allocator of a machine whose jobs take whole nodes
// (see above).
type wholeNodes struct {
	s     *sim
	reqs  []rigid.Request
	parts []partRange
	// needs[j*len(parts)+p] is one more than the nodes job j takes on
	// partition p (0 when it cannot use p), worked out on first use: 0
	// when not yet; nil on a machine of one partition (leastNeeds then).
	needs []int32
	// leastNeeds[j] is the fewest nodes job j takes on a partition, 0
	// when not worked out yet.
	leastNeeds []int32
	// freeBits has bit i set when node i is free; freeNodes counts them
	// per partition.
	freeBits  []uint64
	freeNodes []int
	// free is the free nodes of the machine: when none, nothing fits.
	free int

	// pending holds the shares of each job a pass placed, in the order
	// of its starts; arena backs them and the jobs' recorded shares.
	pending [][]NodeShare
	arena   []NodeShare

	// EASY's reservation: the head's partition and the nodes it leaves
	// spare there at the shadow, which jobs outliving the shadow may
	// take.
	headPart, extra int
	have            []int
	ends            []endEvent

	// profile is conservative's free nodes per partition.
	profile [][]coreStep
}

func newWholeNodes(s *sim) *wholeNodes {
	n := &wholeNodes{s: s, reqs: s.w.Requests}
	k := 0
	for _, p := range s.w.Machine.Partitions {
		c := amounts{int32(p.Cores), int32(p.GPUs), p.MemoryMiB}
		n.parts = append(n.parts, partRange{first: k, end: k + p.Nodes, capacity: c})
		n.freeNodes = append(n.freeNodes, p.Nodes)
		k += p.Nodes
		n.free += p.Nodes
	}
	n.freeBits = make([]uint64, (k+63)/64)
	for i := range k {
		n.freeBits[i/64] |= 1 << (i % 64)
	}
	if len(n.parts) > 1 {
		n.needs = make([]int32, len(s.jobs)*len(n.parts))
	}
	n.leastNeeds = make([]int32, len(s.jobs))
	n.have = make([]int, len(n.parts))
	n.profile = make([][]coreStep, len(n.parts))
	s.sched.Nodes = make([][]NodeShare, len(s.jobs))
	return n
}

// need returns the nodes job j takes on partition p, 0 when it cannot
// use p.
func (n *wholeNodes) need(j, p int) int {
	if n.needs == nil {
		return n.leastNeed(j) // one partition, which holds every job
	}
	if k := n.needs[j*len(n.parts)+p]; k != 0 {
		return int(k) - 1
	}
	return n.workOutNeeds(j, p)
}

// workOutNeeds fills job j's needs and its least need, and returns its
// need on partition p.
func (n *wholeNodes) workOutNeeds(j, p int) int {
	least := int32(1<<31 - 1)
	var on int32
	for q := range n.parts {
		k := int32(n.nodesOn(j, q, &n.s.w.Machine.Partitions[q]))
		if n.needs != nil {
			n.needs[j*len(n.parts)+q] = k + 1
		}
		if k > 0 {
			least = min(least, k)
		}
		if q == p {
			on = k
		}
	}
	n.leastNeeds[j] = least
	return int(on)
}

// leastNeed returns the fewest nodes job j takes on a partition it can
// use: a job needing more than the free nodes fits nowhere.
func (n *wholeNodes) leastNeed(j int) int {
	k := n.leastNeeds[j]
	if k == 0 {
		n.workOutNeeds(j, 0)
		k = n.leastNeeds[j]
	}
	return int(k)
}

// nodesOn works out need.
func (n *wholeNodes) nodesOn(j, p int, part *rigid.Partition) int {
	r := &n.reqs[j]
	if r.Partition != rigid.AnyPartition && r.Partition != p || r.Fits(part, n.s.jobs[j].Procs) != "" {
		return 0
	}
	pr := &n.parts[p]
	if !r.Pooled() {
		return r.Nodes
	}
	u := units(r, pr.capacity, pr.capacity)
	if u == 0 {
		return 0
	}
	return (n.s.jobs[j].Procs + u - 1) / u
}

// partFor returns the first partition, in platform order, where job j
// fits now, within limit nodes on partition limitPart; -1 if none.
func (n *wholeNodes) partFor(j, limitPart, limit int) int {
	if n.leastNeed(j) > n.free {
		return -1
	}
	for p := range n.parts {
		k := n.need(j, p)
		if k > 0 && k <= n.freeNodes[p] && (p != limitPart || k <= limit) {
			return p
		}
	}
	return -1
}

func (n *wholeNodes) ready(s *sim) bool {
	if n.free == 0 {
		return false
	}
	for _, j := range s.queue {
		// leastNeeds is 0 until worked out (by partFor): read here, it
		// refuses the jobs known too wide without a call.
		if n.leastNeeds[j] <= int32(n.free) && n.partFor(j, -1, 0) >= 0 {
			return true
		}
	}
	return false
}

func (n *wholeNodes) snapshot(*sim) easyPlacement {
	n.pending = n.pending[:0]
	return n
}

func (n *wholeNodes) release(s *sim, j int) {
	shares := s.sched.Nodes[j]
	for _, sh := range shares {
		n.freeBits[sh.Node/64] |= 1 << (sh.Node % 64)
	}
	n.freeNodes[n.partOfShares(shares)] += len(shares)
	n.free += len(shares)
}

// partOfShares returns the partition of a job's nodes.
func (n *wholeNodes) partOfShares(shares []NodeShare) int {
	i := int(shares[0].Node)
	for p := range n.parts {
		if i < n.parts[p].end {
			return p
		}
	}
	panic("backfill: a node beyond the machine")
}

// take holds, for job j, the first k free nodes of partition p, and
// keeps its shares for commit. Every node gives a whole-node job the same
// share (a pooled job on one-core nodes takes one core of each), so the
// shares are one template with the nodes' ids.
func (n *wholeNodes) take(j, p, k int) {
	if cap(n.arena)-len(n.arena) < k {
		n.arena = make([]NodeShare, 0, max(1<<14, 4*k))
	}
	r, pr := &n.reqs[j], &n.parts[p]
	sh := shareOf(r, 0, pr.capacity, units(r, pr.capacity, pr.capacity), target(r, n.s.jobs[j].Procs))
	base := len(n.arena)
	for w := pr.first / 64; k > 0; w++ {
		word := n.freeBits[w] & rangeMask(w, pr.first, pr.end)
		if c := bits.OnesCount64(word); c > k {
			// Keep the lowest k bits only.
			for range c - k {
				word &^= 1 << (63 - bits.LeadingZeros64(word))
			}
		}
		n.freeBits[w] &^= word
		for ; word != 0; word &= word - 1 {
			sh.Node = int32(w*64 + bits.TrailingZeros64(word))
			n.arena = append(n.arena, sh)
			k--
		}
	}
	mine := n.arena[base:len(n.arena):len(n.arena)]
	n.freeNodes[p] -= len(mine)
	n.free -= len(mine)
	n.pending = append(n.pending, mine)
}

// rangeMask returns the bits of word w that are nodes first to end
// (excluded).
func rangeMask(w, first, end int) uint64 {
	m := ^uint64(0)
	if lo := first - w*64; lo > 0 {
		m <<= lo
	}
	if hi := end - w*64; hi < 64 {
		m &= 1<<hi - 1
	}
	return m
}

func (n *wholeNodes) fit(order, starts []int) []int {
	for _, j := range order {
		p := n.partFor(j, -1, 0)
		if p < 0 {
			break
		}
		n.take(j, p, n.need(j, p))
		starts = append(starts, j)
	}
	return starts
}

// reserve releases the running jobs and the starts of this pass by
// estimated end, counting free nodes per partition, until a partition
// the head may use holds it (every end at that second counted); the
// nodes it leaves spare there are extra.
func (n *wholeNodes) reserve(head int, starts []int) int64 {
	s := n.s
	ends := s.estimatedEnds(n.ends, starts)
	n.ends = ends
	copy(n.have, n.freeNodes)
	for i := 0; i < len(ends); {
		shadow := ends[i].seconds
		for ; i < len(ends) && ends[i].seconds == shadow; i++ {
			shares := n.pendingOr(ends[i].job)
			n.have[n.partOfShares(shares)] += len(shares)
		}
		for p := range n.parts {
			if k := n.need(head, p); k > 0 && k <= n.have[p] {
				n.headPart, n.extra = p, n.have[p]-k
				return shadow
			}
		}
	}
	panic("backfill: a job fits no node with every running job ended") // the workload is cut to the machine
}

// pendingOr returns a running job's shares (job >= 0) or those of the
// start of this pass at index -1 - job.
func (n *wholeNodes) pendingOr(job int) []NodeShare {
	if job >= 0 {
		return n.s.sched.Nodes[job]
	}
	return n.pending[-1-job]
}

func (n *wholeNodes) backfill(order []int, shadowSeconds int64, starts []int) []int {
	s := n.s
	for _, j := range order {
		if n.leastNeeds[j] > int32(n.free) { // as in ready
			continue
		}
		long := s.now+s.est[j] > shadowSeconds
		limitPart := -1
		if long {
			limitPart = n.headPart
		}
		p := n.partFor(j, limitPart, n.extra)
		if p < 0 {
			continue
		}
		k := n.need(j, p)
		if long && p == n.headPart {
			n.extra -= k
		}
		n.take(j, p, k)
		starts = append(starts, j)
	}
	return starts
}

func (n *wholeNodes) commit(s *sim, starts []int) {
	for i, j := range starts {
		shares := n.pending[i]
		s.sched.Nodes[j] = shares
		if s.usage.charge != nil {
			k := int64(len(shares))
			sh := shares[0] // every node gives a whole-node job the same share
			s.usage.charge[j] = s.chargeOfHeld(amounts{sh.Cores * int32(k), sh.GPUs * int32(k), sh.MemoryMiB * k})
		}
		s.start(j)
	}
}

// chargesProcessors reports whether every job of w is charged its
// processors: charged by cores, a job that is not exclusive holds its
// processors' cores (its Procs) and no more, and so does one on one-core
// nodes.
func chargesProcessors(w *rigid.Workload, c Charge) bool {
	if c != ChargeCores {
		return false
	}
	if oneCore(w.Machine) {
		return true
	}
	for i := range w.Requests {
		if w.Requests[i].Exclusive {
			return false
		}
	}
	return true
}

// conservative runs one pass of conservative backfilling on counts of
// free nodes: every waiting job, in order, is placed at its earliest
// start in the profile of its partitions' free nodes (the first partition
// in platform order on a tie), beside the running jobs until their
// estimated ends and the jobs placed before it; those placed now start,
// on the first free nodes.
func (n *wholeNodes) conservative() {
	s := n.s
	for p := range n.parts {
		n.profile[p] = append(n.profile[p][:0], coreStep{s.now, n.parts[p].end - n.parts[p].first})
	}
	for _, j := range s.running {
		// A job that outlived its estimate holds its nodes a second more.
		shares := s.sched.Nodes[j]
		p := n.partOfShares(shares)
		n.profile[p] = takeCores(n.profile[p], s.now, max(s.sched.StartSeconds[j]+s.est[j], s.now+1), len(shares))
	}
	n.pending = n.pending[:0]
	starts := s.starts[:0]
	for _, j := range s.order {
		best, bestPart := int64(1<<62-1), -1
		for p := range n.parts {
			k := n.need(j, p)
			if k == 0 {
				continue
			}
			if t := nextCoreFit(n.profile[p], s.now, k, s.est[j]); t < best {
				best, bestPart = t, p
			}
		}
		k := n.need(j, bestPart)
		n.profile[bestPart] = takeCores(n.profile[bestPart], best, best+s.est[j], k)
		if best == s.now {
			n.take(j, bestPart, k)
			starts = append(starts, j)
		}
	}
	s.starts = starts
	n.commit(s, starts)
}
