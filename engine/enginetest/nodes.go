package enginetest

import (
	"math/rand/v2"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// RandomNodeJobs is a workload of n jobs on a machine of 4 CPU nodes (8
// cores, 16 GiB) and 2 GPU nodes (16 cores, 64 GiB, 4 GPUs): node
// requests on either partition or any, pooled cores with memory per core,
// exclusive nodes, drawn from seed.
func RandomNodeJobs(n int, seed uint64) *rigid.Workload {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 4, Cores: 8, MemoryMiB: 16384},
		{Name: "gpu", Nodes: 2, Cores: 16, MemoryMiB: 65536, GPUs: 4}}}
	rng := rand.New(rand.NewPCG(seed, 34))
	w := &rigid.Workload{Name: "random nodes", Procs: m.Cores(), Machine: m}
	submit := int64(0)
	for i := range n {
		submit += rng.Int64N(120)
		var r rigid.Request
		procs := 0
		switch k := rng.IntN(10); {
		case k < 2: // pooled, any partition
			r = rigid.Request{MemoryPerCoreMiB: int64(256 << rng.IntN(4)), Partition: rigid.AnyPartition}
			procs = 1 + rng.IntN(24)
		case k < 4: // GPUs
			r = rigid.Request{Nodes: 1 + rng.IntN(2), CoresPerNode: 1 + rng.IntN(8), MemoryPerNodeMiB: int64(1024 * (1 + rng.IntN(32))), GPUsPerNode: 1 + rng.IntN(4), Partition: 1}
		default:
			r = rigid.Request{Nodes: 1 + rng.IntN(4), CoresPerNode: 1 + rng.IntN(8), MemoryPerNodeMiB: int64(512 * (1 + rng.IntN(32))), Partition: rng.IntN(2)*2 - 1}
			if r.Partition == 1 {
				r.Partition = 0
			}
			r.Exclusive = rng.IntN(5) == 0
		}
		if !r.Pooled() {
			procs = r.Cores()
		}
		run := 1 + rng.Int64N(3600)
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(rng.IntN(5)), SubmitSeconds: submit, Procs: procs,
			RunSeconds: run, RequestedSeconds: run + rng.Int64N(3600)})
		w.Requests = append(w.Requests, r)
	}
	return w
}

// NodeIDs returns the ids of the nodes each job of s holds, in the order
// the allocator gave them (nil for a job that never started).
func NodeIDs(s *backfill.Schedule) [][]int32 {
	out := make([][]int32, len(s.Nodes))
	for j, shares := range s.Nodes {
		for _, sh := range shares {
			out[j] = append(out[j], sh.Node)
		}
	}
	return out
}
