package rigidtrace

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// A log on issue 34's machine (cpu: 2 nodes of 4 cores, 8 GiB; gpu: 1
// node of 8 cores, 64 GiB, 4 GPUs), by hand. Field 10 is KB per
// processor, field 16 the partition (1 cpu, 2 gpu):
//
//	job 1: 4 procs, 2,097,152 KB (2 GiB) per proc, partition 1: 4 cores
//	       of 2 GiB pooled on cpu
//	job 2: 2 procs, no memory (-1), partition 2: the default or none
//	job 3: 8 procs, 3 GiB per proc, partition 1: the cpu nodes hold 2
//	       cores of 3 GiB each (8 GiB / 3 GiB), 4 in all: dropped
//	job 4: 1 proc, 1 GiB, no partition (-1): any
func TestForMachine(t *testing.T) {
	log := strings.Join([]string{
		"1 0 0 100 4 -1 -1 4 200 2097152 1 1 1 -1 1 1 -1 -1",
		"2 10 0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 2 -1 -1",
		"3 20 0 100 8 -1 -1 8 200 3145728 1 1 1 -1 1 1 -1 -1",
		"4 30 0 100 1 -1 -1 1 200 1048576 1 1 1 -1 1 -1 -1 -1",
	}, "\n") + "\n"
	tr, err := Read(strings.NewReader(log), "t.swf", Options{Procs: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	got, err := tr.ForMachine(m, MissingMemory{DefaultKB: 512 * 1024})
	if err != nil {
		t.Fatal(err)
	}
	want := []rigid.Request{{MemoryPerCoreMiB: 2048, Partition: 0}, {MemoryPerCoreMiB: 512, Partition: 1}, {MemoryPerCoreMiB: 1024, Partition: rigid.AnyPartition}}
	if !reflect.DeepEqual(got.Requests, want) || len(got.Jobs) != 3 || got.Jobs[2].Number != 4 {
		t.Fatalf("requests %+v for jobs %+v", got.Requests, got.Jobs)
	}
	if got.Report.ProcsAboveCluster != 1 || got.Report.MemoryDefault != 1 || got.Report.Unfit["8 cores with 3072 MiB each: the partition holds 4"] != 1 {
		t.Errorf("report %+v", got.Report)
	}
	c, err := got.Whole()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Workload.Validate(); err != nil || c.Workload.Machine != m || c.Workload.Procs != 16 {
		t.Errorf("whole log on the machine: %v", err)
	}
	req, err := tr.ForMachine(m, MissingMemory{Require: true})
	if err != nil || len(req.Jobs) != 2 || req.Report.Unfit["no requested memory (field 10), and memory: require"] != 1 {
		t.Errorf("require: %v, %d jobs, %v", err, len(req.Jobs), req.Report.Unfit)
	}
	one := &rigid.Machine{Partitions: []rigid.Partition{{Name: "a", Nodes: 1, Cores: 8, MemoryMiB: 1024}}}
	if _, err := tr.ForMachine(one, MissingMemory{}); err == nil || !strings.Contains(err.Error(), "t.swf:1: field 10 (requested memory per processor) 2097152 KB: no node of the platform has that much (at most 1024 MiB)") {
		t.Errorf("memory no node holds: %v", err)
	}
	two := &rigid.Machine{Partitions: []rigid.Partition{{Name: "a", Nodes: 1, Cores: 8, MemoryMiB: 1 << 20}, {Name: "b", Nodes: 1, Cores: 8}}}
	if _, err := tr.ForMachine(&rigid.Machine{Partitions: append(two.Partitions[:1:1], two.Partitions[1])}, MissingMemory{}); err != nil {
		t.Errorf("two partitions: %v", err)
	}
	tr.Partitions[0] = 3
	if _, err := tr.ForMachine(two, MissingMemory{}); err == nil || !strings.Contains(err.Error(), "t.swf:1: field 16 (partition) 3: the platform has 2 partitions") {
		t.Errorf("partition 3: %v", err)
	}
}
