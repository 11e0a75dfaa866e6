package rigid

import (
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// A Batsim scheduler on a machine of nodes (issue 34, docs/batsim.md)
// sees one Batsim resource per node, numbered as sweep numbers nodes, and
// each job asking for its node count: it places jobs on whole nodes, one
// job per node at a time (exclusive nodes). A job holds on each of its
// nodes what it asked per node; the rest of the node is idle while it
// runs. Pooled requests have no node count and are refused; Batsim's
// resources carry no partition, so a start on nodes of a partition the
// job may not use, or whose nodes are too small for it, fails the cell.

// batsimNodeView returns the processor workload the Batsim scheduler
// sees for workload w on a machine of nodes: a resource per node, each
// job asking for its nodes.
func batsimNodeView(w *rigid.Workload) (*rigid.Workload, error) {
	v := *w
	v.Machine, v.Requests = nil, nil
	v.Procs = w.Machine.Nodes()
	v.Jobs = slices.Clone(w.Jobs)
	for i := range v.Jobs {
		r := &w.Requests[i]
		if r.Pooled() {
			return nil, fmt.Errorf("workload %s: job %d (SWF job %d) asks for pooled cores; a Batsim scheduler places whole nodes (one resource per node): want node requests (nodes >= 1)", w.Name, i, w.Jobs[i].Number)
		}
		v.Jobs[i].Procs = r.Nodes
	}
	return &v, nil
}

// batsimNodeShares returns what job j holds of the nodes a Batsim
// scheduler gave it, refusing nodes of a partition it may not use or
// cannot fit.
func batsimNodeShares(w *rigid.Workload, j int, nodeIDs []int) ([]backfill.NodeShare, error) {
	m, r := w.Machine, &w.Requests[j]
	partOf := func(node int) int {
		for p, q := range m.Partitions {
			if node < q.Nodes {
				return p
			}
			node -= q.Nodes
		}
		return -1
	}
	shares := make([]backfill.NodeShare, len(nodeIDs))
	for k, node := range nodeIDs {
		p := partOf(node)
		bad := func(why string) error {
			return fmt.Errorf("the Batsim scheduler started job %d (SWF job %d) on nodes %v: node %d %s (Batsim's resources carry no partitions)", j, w.Jobs[j].Number, nodeIDs, node, why)
		}
		switch {
		case p < 0:
			return nil, bad("does not exist")
		case r.Partition != rigid.AnyPartition && p != r.Partition:
			return nil, bad(fmt.Sprintf("is in partition %s; the job asks for %s", m.Partitions[p].Name, m.Partitions[r.Partition].Name))
		case p != partOf(nodeIDs[0]):
			return nil, bad("is in another partition than its first node; a job's nodes are in one partition")
		}
		if why := r.Fits(&m.Partitions[p], w.Jobs[j].Procs); why != "" {
			return nil, bad("is too small: " + why)
		}
		shares[k] = backfill.NodeShare{Node: int32(node), Cores: int32(r.CoresPerNode), GPUs: int32(r.GPUsPerNode), MemoryMiB: r.MemoryPerNodeMiB}
		if r.Exclusive {
			q := m.Partitions[p]
			shares[k] = backfill.NodeShare{Node: int32(node), Cores: int32(q.Cores), GPUs: int32(q.GPUs), MemoryMiB: q.MemoryMiB}
		}
	}
	return shares, nil
}
