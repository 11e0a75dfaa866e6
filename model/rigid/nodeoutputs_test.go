package rigid

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// A cell on issue 34's machine (cpu: 2 nodes of 4 cores, 8 GiB; gpu: 1
// node of 8 cores, 64 GiB, 4 GPUs), by hand: A takes a CPU node's 4
// cores and 4 GiB, B the GPU node's 8 cores, 32 GiB and 2 GPUs, both
// from 0 to 10. The machine: cores 12/16 = 0.75, memory 36 GiB of 80 =
// 0.45, GPUs 2/4 = 0.5; cpu: 4/8 cores, 4/16 GiB, no GPUs (NaN); gpu:
// 8/8, 32/64, 2/4.
func TestNodeOutputs(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	w := &rigid.Workload{Name: "w", Procs: 16, Machine: m,
		Jobs: []rigid.Job{{Number: 1, Procs: 4, RunSeconds: 10, RequestedSeconds: 10}, {Number: 2, Procs: 8, RunSeconds: 10, RequestedSeconds: 10}},
		Requests: []rigid.Request{{Nodes: 1, CoresPerNode: 4, MemoryPerNodeMiB: 4096, Partition: 0},
			{Nodes: 1, CoresPerNode: 8, MemoryPerNodeMiB: 32768, GPUsPerNode: 2, Partition: 1}}}
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, backfill.FCFSEasy())
	if err != nil {
		t.Fatal(err)
	}
	o := &Outcome{CellID: "c", Workload: w, Schedule: sched}
	if got := o.stats().utilisation; got != 0.75 {
		t.Errorf("proc_utilisation %v, want 0.75", got)
	}
	mem := o.resourceUtilisation(func(_, m, _ float64) float64 { return m })
	gpus := o.resourceUtilisation(func(_, _, g float64) float64 { return g })
	if mem != 0.45 || gpus != 0.5 {
		t.Errorf("util_memory %v, util_gpus %v; want 0.45, 0.5", mem, gpus)
	}
	rows := o.partitionRows()
	f, i, s := store.Float64, store.Int64, store.String
	want := []store.Row{
		{s("c"), s("cpu"), i(1), f(0), f(0), f(1), f(0.5), f(0.25), f(math.NaN())},
		{s("c"), s("gpu"), i(1), f(0), f(0), f(1), f(1), f(0.5), f(0.5)},
	}
	if len(rows) != 2 || !reflect.DeepEqual(rows[1], want[1]) || !reflect.DeepEqual(rows[0][:8], want[0][:8]) {
		t.Errorf("partition rows %v, want %v", rows, want)
	}
	if got := o.nodeColumns(1); !reflect.DeepEqual(got, []store.Value{i(1), i(32768), i(2), s("gpu"), s("2")}) {
		t.Errorf("job B's node columns %v", got)
	}
	// sweep export: A held 4 GiB for 4 processors, 1 GiB = 1,048,576 KB
	// each, on partition 1; B 32 GiB for 8, 4 GiB = 4,194,304 KB, on 2.
	ex, err := o.ExportSchedule()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := ex.Jobs[0], ex.Jobs[1]; a.RequestedMemoryKB != 1<<20 || a.Partition != 1 || b.RequestedMemoryKB != 4<<20 || b.Partition != 2 {
		t.Errorf("exported memory and partitions %d %d, %d %d", a.RequestedMemoryKB, a.Partition, b.RequestedMemoryKB, b.Partition)
	}
}
