package rigid

import (
	"reflect"
	"strings"
	"testing"
)

// cpuGPU is issue 34's example platform: 2 CPU nodes of 4 cores and
// 8 GiB, 1 GPU node of 8 cores, 64 GiB and 4 GPUs.
func cpuGPU() *Machine {
	return &Machine{Partitions: []Partition{{"cpu", 2, 4, 8192, 0}, {"gpu", 1, 8, 65536, 4}}}
}

func TestUnfit(t *testing.T) {
	m := cpuGPU()
	if got := m.Cores(); got != 16 {
		t.Errorf("cores %d, want 16", got)
	}
	if c, mem, g := m.Totals(); c != 16 || mem != 2*8192+65536 || g != 4 {
		t.Errorf("totals %d %d %d", c, mem, g)
	}
	for _, tt := range []struct {
		req   Request
		procs int
		want  string
	}{
		{Request{Nodes: 2, CoresPerNode: 4, MemoryPerNodeMiB: 8192, Partition: 0}, 8, ""},
		{Request{Nodes: 3, CoresPerNode: 1, Partition: 0}, 3, "3 nodes: the partition has 2"},
		{Request{Nodes: 1, CoresPerNode: 1, GPUsPerNode: 1, Partition: 0}, 1, "1 GPUs per node: its nodes have 0"},
		{Request{Nodes: 1, CoresPerNode: 1, GPUsPerNode: 1, Partition: AnyPartition}, 1, ""},
		{Request{Nodes: 1, CoresPerNode: 1, MemoryPerNodeMiB: 1 << 20, Partition: AnyPartition}, 1, "no partition holds it (the last: 1048576 MiB per node: its nodes have 65536)"},
		// Pooled: 2 GiB per core leaves 4 cores per CPU node, 8 on the GPU node.
		{Request{MemoryPerCoreMiB: 2048, Partition: 0}, 8, ""},
		{Request{MemoryPerCoreMiB: 4096, Partition: 0}, 8, "8 cores with 4096 MiB each: the partition holds 4"},
		{Request{MemoryPerCoreMiB: 4096, Partition: AnyPartition}, 8, ""},
		{Request{Nodes: 1, CoresPerNode: 1, Partition: 5}, 1, "partition 5: the machine has 2"},
	} {
		if got := m.Unfit(&tt.req, tt.procs); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.req, got, tt.want)
		}
	}
}

func TestNodesWorkload(t *testing.T) {
	w := &Workload{Name: "w", Procs: 16, Machine: cpuGPU(),
		Jobs: []Job{
			{Number: 2, SubmitSeconds: 5, Procs: 2, RunSeconds: 1, RequestedSeconds: 1},
			{Number: 1, SubmitSeconds: 0, Procs: 1, RunSeconds: 1, RequestedSeconds: 1},
			{Number: 3, SubmitSeconds: 9, Procs: 5, RunSeconds: 1, RequestedSeconds: 1},
		},
		Requests: []Request{
			{Nodes: 2, CoresPerNode: 1, Partition: 0},
			{Nodes: 1, CoresPerNode: 1, GPUsPerNode: 2, Partition: 1},
			{Nodes: 1, CoresPerNode: 5, Partition: 0},
		}}
	w.SortJobs()
	if w.Requests[0].GPUsPerNode != 2 || w.Jobs[0].Number != 1 {
		t.Fatalf("the requests do not follow their jobs: %+v", w.Requests)
	}
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "job 2 (SWF job 3): no partition can hold it: 5 cores per node: its nodes have 4") {
		t.Errorf("validate: %v", err)
	}
	dropped := w.DropUnfit()
	if want := map[string]int{"5 cores per node: its nodes have 4": 1}; !reflect.DeepEqual(dropped, want) || len(w.Jobs) != 2 || len(w.Requests) != 2 {
		t.Errorf("dropped %v, %d jobs left", dropped, len(w.Jobs))
	}
	if err := w.Validate(); err != nil {
		t.Error(err)
	}
	w.Jobs[1].Procs = 3
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "processors 3: want the request's 2 nodes x 1 cores") {
		t.Errorf("validate: %v", err)
	}
}

// plainlyHolds is validateNodes' quick path: over every request of a grid
// around the machine's limits (bad counts, negative amounts, pooled cores,
// memory per core, partitions out of range, procs off by one), a request
// it passes is one checkRequest, the full check, finds nothing wrong
// with. It passes some (else the quick path would be dead), and leaves
// others checkRequest accepts to it (pooled cores).
func TestPlainlyHoldsIsCheckRequest(t *testing.T) {
	machines := map[string]*Machine{
		"cpu-gpu": cpuGPU(),
		"one":     {Partitions: []Partition{{Name: "all", Nodes: 3, Cores: 1}}},
	}
	for name, m := range machines {
		passed, left := 0, 0
		for _, nodes := range []int{-1, 0, 1, 2, 3, 4} {
			for _, cores := range []int{0, 1, 4, 8, 9} {
				for _, mem := range []int64{-1, 0, 8192, 9000, 65536} {
					for _, gpus := range []int{-1, 0, 1, 4, 5} {
						for _, perCore := range []int64{0, 256} {
							for _, part := range []int{AnyPartition, -2, 0, 1, 2} {
								for _, off := range []int{-1, 0, 1} {
									r := Request{Nodes: nodes, CoresPerNode: cores, MemoryPerNodeMiB: mem, GPUsPerNode: gpus, MemoryPerCoreMiB: perCore, Partition: part}
									procs := nodes*cores + off
									if nodes == 0 {
										procs = 4 + off
									}
									why := checkRequest(m, &r, procs)
									if m.plainlyHolds(&r, procs) {
										passed++
										if why != "" {
											t.Errorf("%s: %+v of %d procs: the quick path passes it, checkRequest says %s", name, r, procs, why)
										}
									} else if why == "" {
										left++
									}
								}
							}
						}
					}
				}
			}
		}
		if passed == 0 || left == 0 {
			t.Errorf("%s: the quick path passed %d requests and left %d good ones to checkRequest: want some of each", name, passed, left)
		}
	}
}
