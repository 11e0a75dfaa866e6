package rigid

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// pybatsim's easyBackfill on a machine of nodes, one Batsim resource per
// node, by hand: 4 nodes of 4 cores and 8 GiB. J0 (2 nodes, 10 s) starts
// at 0 on nodes 0-1; J1 (3 nodes, 5 s) waits for it (shadow 10 s); J2 (1
// node, 3 s, at 1 s) ends by the shadow and is backfilled at 1 s on node
// 2; J1 starts at 10 on nodes 0-2. Each job holds its per-node request.
// On two partitions the scheduler, which sees no partitions, puts a GPU
// job on a CPU node and the cell fails saying so; a pooled job is refused.
func TestBatsimOnNodes(t *testing.T) {
	launcher := enginetest.Pybatsim(t)
	entry := model.PolicyEntry{Name: "pyb-easy", Argv: []string{launcher, "-v", "warning", "easyBackfill"}, Batsim: []string{launcher}}
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 4, Cores: 4, MemoryMiB: 8192}}}
	w := &rigid.Workload{Name: "nodes", Procs: m.Cores(), Machine: m,
		Jobs: []rigid.Job{{Number: 1, SubmitSeconds: 0, Procs: 4, RunSeconds: 10, RequestedSeconds: 10},
			{Number: 2, SubmitSeconds: 0, Procs: 6, RunSeconds: 5, RequestedSeconds: 5},
			{Number: 3, SubmitSeconds: 1, Procs: 1, RunSeconds: 3, RequestedSeconds: 3}},
		Requests: []rigid.Request{{Nodes: 2, CoresPerNode: 2, MemoryPerNodeMiB: 1024, Partition: 0},
			{Nodes: 3, CoresPerNode: 2, MemoryPerNodeMiB: 4096, Partition: 0},
			{Nodes: 1, CoresPerNode: 1, MemoryPerNodeMiB: 512, Partition: rigid.AnyPartition}}}
	sched, procs, err := batsimSchedule(context.Background(), entry, w, rigid.EstimateExact)
	if err != nil {
		t.Fatal(err)
	}
	nodes := enginetest.NodeIDs(sched)
	if want, wantNodes := []int64{0, 10, 1}, [][]int32{{0, 1}, {0, 1, 2}, {2}}; !slices.Equal(sched.StartSeconds, want) || !slices.EqualFunc(nodes, wantNodes, slices.Equal) || procs != nil {
		t.Errorf("starts %v on nodes %v (processors %v), want %v on %v", sched.StartSeconds, nodes, procs, want, wantNodes)
	}
	if sh := sched.Nodes[1][0]; sh.Cores != 2 || sh.MemoryMiB != 4096 {
		t.Errorf("J1 holds %+v of node 0, want its 2 cores and 4096 MiB", sh)
	}

	// A GPU partition after the CPU one: J0 asks for a GPU node and is put
	// on node 0.
	gm := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	gw := &rigid.Workload{Name: "gpu", Procs: gm.Cores(), Machine: gm, Jobs: w.Jobs[:1],
		Requests: []rigid.Request{{Nodes: 1, CoresPerNode: 4, GPUsPerNode: 1, Partition: 1}}}
	_, _, err = batsimSchedule(context.Background(), entry, gw, rigid.EstimateExact)
	if want := "the Batsim scheduler started job 0 (SWF job 1) on nodes [0]: node 0 is in partition cpu; the job asks for gpu"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	gw.Requests[0] = rigid.Request{MemoryPerCoreMiB: 1024, Partition: 1}
	_, _, err = batsimSchedule(context.Background(), entry, gw, rigid.EstimateExact)
	if want := "job 0 (SWF job 1) asks for pooled cores; a Batsim scheduler places whole nodes"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
