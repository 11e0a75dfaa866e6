package rigid

import (
	"fmt"
	"slices"
)

// A Machine is a cluster of nodes in partitions (issue 34): each
// partition a count of identical nodes with cores, memory and GPUs. A
// workload with no Machine runs on Procs identical processors.
type Machine struct {
	Partitions []Partition
}

// A Partition is a count of identical nodes. Nodes are numbered across
// the machine in partition order: partition 0's first, and so on.
type Partition struct {
	Name      string
	Nodes     int
	Cores     int   // per node
	MemoryMiB int64 // per node
	GPUs      int   // per node
}

// Nodes returns the number of nodes of the machine.
func (m *Machine) Nodes() int {
	n := 0
	for _, p := range m.Partitions {
		n += p.Nodes
	}
	return n
}

// Cores returns the cores of the machine, the Procs of its workloads.
func (m *Machine) Cores() int {
	n := 0
	for _, p := range m.Partitions {
		n += p.Nodes * p.Cores
	}
	return n
}

// Totals returns the machine's cores, memory and GPUs.
func (m *Machine) Totals() (cores int, memoryMiB int64, gpus int) {
	for _, p := range m.Partitions {
		cores += p.Nodes * p.Cores
		memoryMiB += int64(p.Nodes) * p.MemoryMiB
		gpus += p.Nodes * p.GPUs
	}
	return cores, memoryMiB, gpus
}

// PartitionIndex returns the index of the partition named name, or -1.
func (m *Machine) PartitionIndex(name string) int {
	return slices.IndexFunc(m.Partitions, func(p Partition) bool { return p.Name == name })
}

// AnyPartition is a Request's Partition when any partition will do.
const AnyPartition = -1

// A Request is what a job asks of a machine of nodes: Nodes nodes with
// CoresPerNode cores, MemoryPerNodeMiB and GPUsPerNode each, or (Nodes 0,
// pooled) the job's Procs cores wherever they are, each with
// MemoryPerCoreMiB; on one partition or any (all its nodes in one); its
// nodes shared with other jobs or held exclusively (then whole, whatever
// it uses of them).
type Request struct {
	Nodes            int // 0: pooled cores
	CoresPerNode     int
	MemoryPerNodeMiB int64
	GPUsPerNode      int
	MemoryPerCoreMiB int64 // pooled only
	Partition        int   // index in Machine.Partitions, or AnyPartition
	Exclusive        bool
}

// Pooled reports whether the request is for cores wherever they are.
func (r *Request) Pooled() bool { return r.Nodes == 0 }

// Cores returns the cores the request holds in all: the job's Procs.
func (r *Request) Cores() int { return r.Nodes * r.CoresPerNode }

// Fits reports why no node of partition p can ever hold the request,
// or "" when one can (for pooled cores: when the partition's nodes
// together can), procs being the job's cores.
func (r *Request) Fits(p *Partition, procs int) string {
	if r.Pooled() {
		perNode := p.Cores
		if r.MemoryPerCoreMiB > 0 {
			if p.MemoryMiB == 0 {
				return "memory per core on a partition without memory"
			}
			perNode = min(perNode, int(p.MemoryMiB/r.MemoryPerCoreMiB))
		}
		if perNode*p.Nodes < procs {
			return fmt.Sprintf("%d cores with %d MiB each: the partition holds %d", procs, r.MemoryPerCoreMiB, perNode*p.Nodes)
		}
		return ""
	}
	switch {
	case r.Nodes > p.Nodes:
		return fmt.Sprintf("%d nodes: the partition has %d", r.Nodes, p.Nodes)
	case r.CoresPerNode > p.Cores:
		return fmt.Sprintf("%d cores per node: its nodes have %d", r.CoresPerNode, p.Cores)
	case r.MemoryPerNodeMiB > p.MemoryMiB:
		return fmt.Sprintf("%d MiB per node: its nodes have %d", r.MemoryPerNodeMiB, p.MemoryMiB)
	case r.GPUsPerNode > p.GPUs:
		return fmt.Sprintf("%d GPUs per node: its nodes have %d", r.GPUsPerNode, p.GPUs)
	}
	return ""
}

// Unfit returns why no partition the request allows can ever hold it,
// or "" when one can.
func (m *Machine) Unfit(r *Request, procs int) string {
	if r.Partition != AnyPartition {
		if r.Partition < 0 || r.Partition >= len(m.Partitions) {
			return fmt.Sprintf("partition %d: the machine has %d", r.Partition, len(m.Partitions))
		}
		return r.Fits(&m.Partitions[r.Partition], procs)
	}
	why := ""
	for i := range m.Partitions {
		if why = r.Fits(&m.Partitions[i], procs); why == "" {
			return ""
		}
	}
	return "no partition holds it (the last: " + why + ")"
}

// DropUnfit removes the jobs (and their requests) that no partition can
// ever hold and returns how many were dropped for each reason.
func (w *Workload) DropUnfit() map[string]int {
	dropped := map[string]int{}
	k := 0
	for i := range w.Jobs {
		if why := w.Machine.Unfit(&w.Requests[i], w.Jobs[i].Procs); why != "" {
			dropped[why]++
			continue
		}
		w.Jobs[k], w.Requests[k] = w.Jobs[i], w.Requests[i]
		k++
	}
	w.Jobs, w.Requests = w.Jobs[:k], w.Requests[:k]
	return dropped
}

// plainlyHolds reports whether r is a request of nodes, without memory
// per core, that the partition it names (or the machine's one partition)
// holds: checkRequest finds nothing wrong with it. It is validateNodes'
// common case, worked out without calls (a month of a log carries every
// later job of the log: 212,001 of them on SDSC Blue Horizon); false
// leaves the request to checkRequest.
func (m *Machine) plainlyHolds(r *Request, procs int) bool {
	p := r.Partition
	if p == AnyPartition && len(m.Partitions) == 1 {
		p = 0
	}
	if p < 0 || p >= len(m.Partitions) || r.Nodes < 1 || r.CoresPerNode < 1 || r.GPUsPerNode < 0 || r.MemoryPerNodeMiB < 0 ||
		r.MemoryPerCoreMiB != 0 || r.Nodes*r.CoresPerNode != procs {
		return false
	}
	q := &m.Partitions[p]
	return r.Nodes <= q.Nodes && r.CoresPerNode <= q.Cores && r.MemoryPerNodeMiB <= q.MemoryMiB && r.GPUsPerNode <= q.GPUs
}

// checkRequest returns what is wrong with request r of a job of procs
// cores on machine m, "" if nothing.
func checkRequest(m *Machine, r *Request, procs int) string {
	switch {
	case r.Nodes < 0 || r.GPUsPerNode < 0 || r.MemoryPerNodeMiB < 0 || r.MemoryPerCoreMiB < 0:
		return fmt.Sprintf("negative request %+v: want nodes, memory and GPUs >= 0", *r)
	case !r.Pooled() && r.CoresPerNode < 1:
		return fmt.Sprintf("cores per node %d: want at least 1", r.CoresPerNode)
	case !r.Pooled() && r.Cores() != procs:
		return fmt.Sprintf("processors %d: want the request's %d nodes x %d cores", procs, r.Nodes, r.CoresPerNode)
	case r.Pooled() && (r.GPUsPerNode != 0 || r.MemoryPerNodeMiB != 0):
		return "pooled cores with GPUs or memory per node: want nodes >= 1 for those"
	}
	if why := m.Unfit(r, procs); why != "" {
		return "no partition can hold it: " + why
	}
	return ""
}

// validateNodes checks a workload on a machine of nodes: a request per
// job, the job's Procs its cores, and a partition that can hold it.
func (w *Workload) validateNodes() error {
	m := w.Machine
	if len(m.Partitions) == 0 {
		return fmt.Errorf("workload %s: a machine of nodes without partitions: want at least one", w.Name)
	}
	for i, p := range m.Partitions {
		if p.Nodes < 1 || p.Cores < 1 || p.MemoryMiB < 0 || p.GPUs < 0 {
			return fmt.Errorf("workload %s: partition %d (%s): %d nodes of %d cores, %d MiB, %d GPUs: want at least one node of at least one core, no negative memory or GPUs",
				w.Name, i, p.Name, p.Nodes, p.Cores, p.MemoryMiB, p.GPUs)
		}
	}
	if w.Procs != m.Cores() {
		return fmt.Errorf("workload %s: processors %d: want the machine's %d cores", w.Name, w.Procs, m.Cores())
	}
	if len(w.Requests) != len(w.Jobs) {
		return fmt.Errorf("workload %s: %d requests for %d jobs: want one per job", w.Name, len(w.Requests), len(w.Jobs))
	}
	for i := range w.Jobs {
		if m.plainlyHolds(&w.Requests[i], w.Jobs[i].Procs) {
			continue
		}
		if why := checkRequest(m, &w.Requests[i], w.Jobs[i].Procs); why != "" {
			return fmt.Errorf("workload %s: job %d (SWF job %d): %s", w.Name, i, w.Jobs[i].Number, why)
		}
	}
	return nil
}
