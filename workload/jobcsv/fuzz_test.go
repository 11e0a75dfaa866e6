package jobcsv

import (
	"bytes"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// FuzzRead: any input is read or refused, never a panic, and what is read
// keeps the package's promises: run <= estimate, procs the request's
// cores, a partition resolved or refused.
func FuzzRead(f *testing.F) {
	data, err := os.ReadFile("testdata/jobs.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("id,submit,run,nodes,cores\n1,0,1,0,3\n"))
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		js, err := Read(bytes.NewReader(data), "fuzz.csv", nil)
		if err != nil {
			return
		}
		for i, j := range js.Jobs {
			r := js.Requests[i]
			if j.RunSeconds > j.RequestedSeconds || j.RunSeconds < 1 || !r.Pooled() && j.Procs != r.Cores() {
				t.Fatalf("job %+v request %+v", j, r)
			}
		}
		w, err := js.Workload("fuzz.csv", m)
		if err != nil {
			return
		}
		w.DropUnfit()
		if len(w.Jobs) > 0 {
			if err := w.Validate(); err != nil {
				t.Fatalf("a workload read and cut to the machine is invalid: %v", err)
			}
		}
	})
}
