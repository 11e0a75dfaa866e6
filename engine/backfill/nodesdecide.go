package backfill

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// A Decider on a machine of nodes (issue 34) answers with the jobs to
// start as on processors; it may name a start's nodes (State.OnNodes,
// State.OnNodeCores),
// else the simulator places it: where State.EASY placed it in this
// decision when that is still free, otherwise by the policy's node
// selection (first-fit or best-fit). Every start is checked: it waits,
// and it fits the named nodes, or some nodes it may use, after the starts
// before it.

// Resources are cores, memory and GPUs: what a node has, or has free.
type Resources struct {
	Cores     int
	MemoryMiB int64
	GPUs      int
}

// Request returns what job j asks of the machine of nodes (the zero
// Request on processors).
func (st *State) Request(j int) rigid.Request {
	if st.Machine == nil {
		return rigid.Request{}
	}
	return st.s.w.Requests[j]
}

// FreeOn returns what node i (numbered across the machine's partitions
// in order) has free now. It is for a machine of nodes (st.Machine not
// nil) only.
func (st *State) FreeOn(i int) Resources {
	n, ok := st.s.alloc.(*nodes)
	if !ok {
		panic("backfill: State.FreeOn on processors: nodes exist only when State.Machine is not nil")
	}
	a := n.free[i]
	return Resources{Cores: int(a.cores), MemoryMiB: a.mem, GPUs: int(a.gpus)}
}

// OnNodes names the nodes job j starts on if the Decider starts it in
// this decision: a node request's nodes (each taking its per-node share,
// or the whole node when exclusive), or a pooled request's nodes, whose
// free cores it takes in the order named. All in one partition it may
// use.
func (st *State) OnNodes(j int, nodeIDs []int) {
	st.onNodes(j, nodeIDs, nil)
}

// OnNodeCores names, for job j of a pooled request, its nodes and the
// cores it takes of each (with their memory), so that a policy may leave
// a node's other free cores to others.
func (st *State) OnNodeCores(j int, nodeIDs, cores []int) {
	st.onNodes(j, nodeIDs, slices.Clone(cores))
}

func (st *State) onNodes(j int, nodeIDs, cores []int) {
	if st.named == nil {
		st.named = map[int]namedNodes{}
	}
	st.named[j] = namedNodes{ids: slices.Clone(nodeIDs), cores: cores}
}

// namedNodes are the nodes a Decider named for a start and, for a pooled
// request, the cores of each (nil: all it can take, in order).
type namedNodes struct {
	ids, cores []int
}

// Check places starts as the simulator will when the Decider returns
// them, and frees everything again: the error is the one the simulator
// would fail the run with, so a decision process can be faulted with its
// own stderr.
func (st *State) Check(starts []int) error {
	if st.Machine == nil {
		return st.s.checkOnProcessors(starts)
	}
	return st.s.startOnNodes(st, starts, false)
}

// checkOnProcessors is startOnProcessors without starting.
func (s *sim) checkOnProcessors(starts []int) error {
	free := s.free
	defer func() { s.free = free }()
	for k, j := range starts {
		if err := s.canWait(j, starts[:k]); err != nil {
			return err
		}
		if err := s.canStart(j); err != nil {
			return err
		}
		s.free -= s.jobs[j].Procs
	}
	return nil
}

// canWait checks that job j exists, is submitted, has not started and is
// not among earlier, the starts of this decision before it.
func (s *sim) canWait(j int, earlier []int) error {
	switch {
	case j < 0 || j >= len(s.jobs):
		return fmt.Errorf("job %d, which does not exist (jobs are 0 to %d)", j, len(s.jobs)-1)
	case j >= s.nextArrive:
		return fmt.Errorf("job %d before it is submitted (at %d s)", j, s.jobs[j].SubmitSeconds)
	case s.sched.StartSeconds[j] >= 0:
		return fmt.Errorf("job %d, already started at %d s", j, s.sched.StartSeconds[j])
	case slices.Contains(earlier, j):
		return fmt.Errorf("job %d twice", j)
	}
	return nil
}

// easyPlaced is where State.EASY placed a job in the current decision.
type easyPlaced struct {
	job    int
	shares []NodeShare
}

// easyNodes is State.EASY on a machine of nodes: the one easyPass over
// the nodes placement, whose placements are kept for the starts the
// Decider returns and then given back (nothing changes until decide).
func (st *State) easyNodes(n *nodes, order []int) easyResult {
	s := st.s
	r := easyPass(n.snapshot(s), st.NowSeconds, order, nil)
	s.eased = s.eased[:0]
	for i, j := range r.starts {
		s.eased = append(s.eased, easyPlaced{job: j, shares: n.pending[i]})
	}
	n.giveAll()
	return r
}

// startOnNodes places the Decider's starts in order, each on its named
// nodes or by the rule above, and starts them when commit (else frees
// them again). It fails at the first start that does not wait or fit.
func (s *sim) startOnNodes(st *State, starts []int, commit bool) error {
	n := s.alloc.(*nodes)
	n.snapshot(s)
	for k, j := range starts {
		err := s.canWait(j, starts[:k])
		if err == nil {
			err = n.placeDecided(j, st.named[j], s.eased)
		}
		if err != nil {
			if !commit {
				n.giveAll()
			}
			return err
		}
		if commit {
			n.commit(s, starts[k:k+1])
			n.pending = n.pending[:0]
		}
	}
	if !commit {
		n.giveAll()
	}
	return nil
}

// giveAll frees what the placed but not started jobs hold.
func (n *nodes) giveAll() {
	for _, sh := range n.pending {
		n.give(sh)
	}
	n.pending = n.pending[:0]
}

// placeDecided places job j on the named nodes, or (none named) where
// State.EASY placed it if that is free, or by the node selection.
func (n *nodes) placeDecided(j int, named namedNodes, eased []easyPlaced) error {
	if named.ids != nil {
		return n.placeOn(j, named)
	}
	for _, e := range eased {
		if e.job == j && n.holds(e.shares) {
			n.take(e.shares)
			n.pending = append(n.pending, e.shares)
			return nil
		}
	}
	if n.place(j, availNow) {
		return nil
	}
	return fmt.Errorf("job %d, which does not fit: it asks for %s and no partition it may use has that free", j, n.describe(j))
}

// holds reports whether the free resources now cover shares.
func (n *nodes) holds(shares []NodeShare) bool {
	for _, sh := range shares {
		if !n.free[sh.Node].covers(shareAmounts(sh)) {
			return false
		}
	}
	return true
}

// placeOn places job j on the nodes named, refusing nodes that do not
// exist, are named twice, lie outside the one partition it may use or
// lack its share, and too few or too many nodes (or cores).
func (n *nodes) placeOn(j int, nn namedNodes) error {
	named := nn.ids
	r := &n.reqs[j]
	left := target(r, n.s.jobs[j].Procs)
	n.roomInArena()
	base := len(n.arena)
	out := n.arena
	fail := func(format string, args ...any) error {
		n.arena = out[:base]
		return fmt.Errorf("job %d (asking for %s) on nodes %v: %s", j, n.describe(j), named, fmt.Sprintf(format, args...))
	}
	switch {
	case len(named) == 0:
		return fail("no node named")
	case nn.cores != nil && !r.Pooled():
		return fail("cores per node are named for pooled requests only; a node request takes its cores per node")
	case nn.cores != nil && len(nn.cores) != len(named):
		return fail("%d core counts for %d nodes: want one per node", len(nn.cores), len(named))
	}
	part := -1
	for k, id := range named {
		if id < 0 || id >= len(n.cap) {
			return fail("node %d does not exist (nodes are 0 to %d)", id, len(n.cap)-1)
		}
		p := int(n.partOf[id])
		switch {
		case slices.Contains(named[:k], id):
			return fail("node %d is named twice", id)
		case r.Partition != rigid.AnyPartition && p != r.Partition:
			return fail("node %d is in partition %s; the job asks for %s", id, n.partName(p), n.partName(r.Partition))
		case part >= 0 && p != part:
			return fail("nodes of partitions %s and %s: a job's nodes are in one partition", n.partName(part), n.partName(p))
		case left == 0:
			return fail("more nodes than it needs")
		}
		part = p
		pr := &n.parts[p]
		u := units(r, n.free[id], pr.capacity)
		if u == 0 {
			a := n.free[id]
			whole := ""
			if r.Exclusive {
				whole = " (the job holds whole nodes)"
			}
			return fail("node %d has %d cores, %d MiB and %d GPUs free%s", id, a.cores, a.mem, a.gpus, whole)
		}
		take := min(u, left)
		if nn.cores != nil {
			if c := nn.cores[k]; c < 1 || c > u || c > left {
				return fail("%d cores named of node %d, which offers %d to the %d cores it still needs", c, id, u, left)
			}
			take = nn.cores[k]
		}
		out = append(out, shareOf(r, id, pr.capacity, take, left))
		left -= take
	}
	if left > 0 {
		unit := "nodes"
		if r.Pooled() {
			unit = "cores"
		}
		return fail("%d %s short", left, unit)
	}
	n.arena = out
	mine := out[base:len(out):len(out)]
	n.take(mine)
	n.pending = append(n.pending, mine)
	return nil
}

func (n *nodes) partName(p int) string { return n.s.w.Machine.Partitions[p].Name }

// describe says what job j asks, for messages.
func (n *nodes) describe(j int) string {
	r := &n.reqs[j]
	var b strings.Builder
	if r.Pooled() {
		fmt.Fprintf(&b, "%d cores with %d MiB each", n.s.jobs[j].Procs, r.MemoryPerCoreMiB)
	} else {
		fmt.Fprintf(&b, "%d nodes of %d cores, %d MiB and %d GPUs", r.Nodes, r.CoresPerNode, r.MemoryPerNodeMiB, r.GPUsPerNode)
	}
	if r.Partition != rigid.AnyPartition {
		fmt.Fprintf(&b, " in %s", n.partName(r.Partition))
	}
	if r.Exclusive {
		b.WriteString(", exclusive")
	}
	return b.String()
}
