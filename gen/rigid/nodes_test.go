package rigid

import (
	"testing"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// NodeRequests' rounding by hand on issue 34's machine (cpu: 2 nodes of
// 4 cores, 8 GiB; gpu: 1 node of 8 cores, 64 GiB, 4 GPUs), with no GPU
// job and memory per core fixed at 1 GiB: 1 processor is 1 node of 1
// core; 3 is 1 node of 3; 5 is 2 nodes of 3 cores (6 held); 16 is
// clamped to the partition's 2 nodes of 4 cores, memory 4 GiB per node.
// With every job a GPU job, 5 processors are the GPU node's 5 cores with
// 1 to 4 GPUs.
func TestNodeRequests(t *testing.T) {
	m := &workload.Machine{Partitions: []workload.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	jobs := []workload.Job{{Procs: 1}, {Procs: 3}, {Procs: 5}, {Procs: 16}}
	reqs, err := NodeRequests(jobs, m, NodeParams{GPUJobs: 0, MemPerCoreMinMiB: 1024, MemPerCoreMaxMiB: 1024}, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Request{{Nodes: 1, CoresPerNode: 1, MemoryPerNodeMiB: 1024}, {Nodes: 1, CoresPerNode: 3, MemoryPerNodeMiB: 3072},
		{Nodes: 2, CoresPerNode: 3, MemoryPerNodeMiB: 3072}, {Nodes: 2, CoresPerNode: 4, MemoryPerNodeMiB: 4096}}
	for i := range want {
		if reqs[i] != want[i] || jobs[i].Procs != want[i].Cores() {
			t.Errorf("job %d: %+v (%d procs), want %+v", i, reqs[i], jobs[i].Procs, want[i])
		}
	}
	jobs = []workload.Job{{Procs: 5}}
	reqs, _ = NodeRequests(jobs, m, NodeParams{GPUJobs: 1, MemPerCoreMinMiB: 512, MemPerCoreMaxMiB: 8192}, [2]uint64{1, 2})
	if r := reqs[0]; r.Partition != 1 || r.Nodes != 1 || r.CoresPerNode != 5 || r.GPUsPerNode < 1 || r.GPUsPerNode > 4 || r.MemoryPerNodeMiB < 5*512 || r.MemoryPerNodeMiB > 5*8192 {
		t.Errorf("GPU job %+v", r)
	}
	if _, err := NodeRequests(jobs, m, NodeParams{MemPerCoreMinMiB: 9, MemPerCoreMaxMiB: 8}, [2]uint64{}); err == nil {
		t.Error("min above max accepted")
	}
}
