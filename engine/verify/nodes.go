package verify

import (
	"cmp"
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// machine is what the node checks know of a rigid.Machine: each node's
// partition and capacity.
type machine struct {
	partOf   []int
	capacity []backfill.NodeShare // Node unused
}

func newMachine(m *rigid.Machine) machine {
	var out machine
	for p, part := range m.Partitions {
		for range part.Nodes {
			out.partOf = append(out.partOf, p)
			out.capacity = append(out.capacity, backfill.NodeShare{Cores: int32(part.Cores), GPUs: int32(part.GPUs), MemoryMiB: part.MemoryMiB})
		}
	}
	return out
}

// checkNodes checks a schedule on a machine of nodes: each started job
// holds what it asked on nodes of one partition it allows (whole nodes
// when exclusive), no node ever holds more cores, memory or GPUs than it
// has or another job beside an exclusive one, and every EASY reservation
// leaves the head nodes it fits at its shadow.
func checkNodes(w *rigid.Workload, sched *backfill.Schedule, est []int64, fail func(string, ...any)) {
	if len(sched.Nodes) != len(w.Jobs) {
		fail("schedule has node shares for %d jobs of %d", len(sched.Nodes), len(w.Jobs))
		return
	}
	m := newMachine(w.Machine)
	for i := range w.Jobs {
		if sched.StartSeconds[i] < 0 {
			if len(sched.Nodes[i]) > 0 {
				fail("job %d never started but holds nodes", i)
			}
			continue
		}
		checkRequest(i, &w.Jobs[i], &w.Requests[i], sched.Nodes[i], m, fail)
	}
	checkNodeCapacity(w, sched, m, fail)
	for _, r := range sched.Reservations {
		checkNodePromise(w, sched, est, m, r, fail)
	}
}

// checkRequest checks that job i's shares are its request.
func checkRequest(i int, j *rigid.Job, r *rigid.Request, shares []backfill.NodeShare, m machine, fail func(string, ...any)) {
	if len(shares) == 0 {
		fail("job %d (SWF %d) started on no node", i, j.Number)
		return
	}
	seen := map[int32]bool{}
	cores := 0
	for _, sh := range shares {
		if sh.Node < 0 || int(sh.Node) >= len(m.partOf) || seen[sh.Node] {
			fail("job %d (SWF %d): node %d out of the machine or held twice", i, j.Number, sh.Node)
			return
		}
		seen[sh.Node] = true
		p := m.partOf[sh.Node]
		if p != m.partOf[shares[0].Node] || r.Partition != rigid.AnyPartition && p != r.Partition {
			fail("job %d (SWF %d): node %d is in partition %d; want all in one partition it allows (%d, -1 any)", i, j.Number, sh.Node, p, r.Partition)
		}
		c := m.capacity[sh.Node]
		c.Node = sh.Node
		var want backfill.NodeShare
		switch {
		case r.Exclusive:
			want = c
		case r.Pooled():
			want = backfill.NodeShare{Node: sh.Node, Cores: sh.Cores, MemoryMiB: int64(sh.Cores) * r.MemoryPerCoreMiB}
		default:
			want = backfill.NodeShare{Node: sh.Node, Cores: int32(r.CoresPerNode), GPUs: int32(r.GPUsPerNode), MemoryMiB: r.MemoryPerNodeMiB}
		}
		if sh != want || sh.Cores < 1 {
			fail("job %d (SWF %d) holds %+v of node %d; its request %+v wants %+v", i, j.Number, sh, sh.Node, *r, want)
		}
		cores += int(sh.Cores)
	}
	switch {
	case !r.Pooled() && len(shares) != r.Nodes:
		fail("job %d (SWF %d) holds %d nodes; it asked %d", i, j.Number, len(shares), r.Nodes)
	case r.Pooled() && (cores < j.Procs || !r.Exclusive && cores != j.Procs):
		fail("job %d (SWF %d) holds %d cores; it asked %d", i, j.Number, cores, j.Procs)
	}
}

// nodeEdge is a job starting (sign 1) or ending (-1) on a node.
type nodeEdge struct {
	seconds int64
	sign    int
	job     int
	share   backfill.NodeShare
}

// checkNodeCapacity sweeps each node's starts and ends in time order,
// ends first at an instant.
func checkNodeCapacity(w *rigid.Workload, sched *backfill.Schedule, m machine, fail func(string, ...any)) {
	perNode := make([][]nodeEdge, len(m.partOf))
	for i, shares := range sched.Nodes {
		if sched.StartSeconds[i] < 0 {
			continue
		}
		for _, sh := range shares {
			if sh.Node >= 0 && int(sh.Node) < len(perNode) {
				perNode[sh.Node] = append(perNode[sh.Node], nodeEdge{sched.StartSeconds[i], 1, i, sh}, nodeEdge{sched.EndSeconds[i], -1, i, sh})
			}
		}
	}
	for node, edges := range perNode {
		slices.SortFunc(edges, func(a, b nodeEdge) int { return cmp.Or(cmp.Compare(a.seconds, b.seconds), cmp.Compare(a.sign, b.sign)) })
		var cores, gpus, jobs, exclusive int
		var mem int64
		c := m.capacity[node]
		for _, e := range edges {
			cores += e.sign * int(e.share.Cores)
			gpus += e.sign * int(e.share.GPUs)
			mem += int64(e.sign) * e.share.MemoryMiB
			jobs += e.sign
			if w.Requests[e.job].Exclusive {
				exclusive += e.sign
			}
			if e.sign < 0 {
				continue
			}
			if cores > int(c.Cores) || gpus > int(c.GPUs) || mem > c.MemoryMiB {
				fail("at %d s node %d holds %d cores, %d GPUs, %d MiB of %d, %d, %d", e.seconds, node, cores, gpus, mem, c.Cores, c.GPUs, c.MemoryMiB)
			}
			if exclusive > 0 && jobs > 1 {
				fail("at %d s node %d holds %d jobs beside an exclusive one", e.seconds, node, jobs-1)
			}
		}
	}
}

// checkNodePromise checks one EASY reservation on nodes: the jobs running
// at its pass and estimated (corrected for the time run) to outlive the
// shadow leave the head enough nodes of a partition it allows.
func checkNodePromise(w *rigid.Workload, sched *backfill.Schedule, est []int64, m machine, r backfill.Reservation, fail func(string, ...any)) {
	if r.Head < 0 || r.Head >= len(w.Jobs) {
		return // Rigid's check says so
	}
	left := slices.Clone(m.capacity)
	for i := range w.Jobs {
		start := sched.StartSeconds[i]
		if start < 0 || start > r.AtSeconds || sched.EndSeconds[i] <= r.AtSeconds {
			continue
		}
		e := rigid.CorrectedSeconds(est[i], r.AtSeconds-start, w.Jobs[i].EstimateBoundSeconds(sched.Kill))
		if start+e <= r.ShadowSeconds {
			continue
		}
		for _, sh := range sched.Nodes[i] {
			l := &left[sh.Node]
			l.Cores, l.GPUs, l.MemoryMiB = l.Cores-sh.Cores, l.GPUs-sh.GPUs, l.MemoryMiB-sh.MemoryMiB
		}
	}
	if !headFits(&w.Requests[r.Head], w.Jobs[r.Head].Procs, left, m) {
		fail("reservation at %d s: head job %d (SWF %d) fits no nodes at its shadow time %d s: jobs running then are estimated to hold them past it",
			r.AtSeconds, r.Head, w.Jobs[r.Head].Number, r.ShadowSeconds)
	}
}

// headFits reports whether the request fits nodes with left free: its
// nodes, or its cores, in one partition it allows.
func headFits(r *rigid.Request, procs int, left []backfill.NodeShare, m machine) bool {
	got := map[int]int{} // per partition: nodes or cores it offers
	for node, l := range left {
		p := m.partOf[node]
		if r.Partition != rigid.AnyPartition && p != r.Partition {
			continue
		}
		c := m.capacity[node]
		whole := l.Cores == c.Cores && l.GPUs == c.GPUs && l.MemoryMiB == c.MemoryMiB
		switch {
		case r.Exclusive && !whole:
		case r.Pooled():
			n := int(l.Cores)
			if r.MemoryPerCoreMiB > 0 {
				n = min(n, int(l.MemoryMiB/r.MemoryPerCoreMiB))
			}
			got[p] += n
		case int(l.Cores) >= r.CoresPerNode && int(l.GPUs) >= r.GPUsPerNode && l.MemoryMiB >= r.MemoryPerNodeMiB:
			got[p]++
		}
	}
	want := r.Nodes
	if r.Pooled() {
		want = procs
	}
	for _, n := range got {
		if n >= want {
			return true
		}
	}
	return false
}
