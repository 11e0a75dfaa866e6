package rigid

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// A command policy on nodes whose starts sweep places uses the node
// selection of its params (nodes: best-fit), as the built-ins do. Hand
// case of engine/backfill's TestNodeSchedulesByHand ("first-fit",
// "best-fit") under FCFS without backfilling (python/examples/
// nodes_fcfs.py, place=sweep): A (2 cores, to 5) on node 0, B (3 cores)
// on node 1; at 1 C (1 core) on node 0 first-fit, node 1 best-fit; D (2
// cores, at 2) then waits for A first-fit (5 s) and takes node 0 at 2
// best-fit.
func TestCommandOnNodesSelection(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is absent")
	}
	root, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", root)
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}}}
	w := &rigid.Workload{Name: "fit", Procs: m.Cores(), Machine: m}
	for i, j := range []struct {
		submit, run int64
		cores       int
	}{{0, 5, 2}, {0, 10, 3}, {1, 10, 1}, {2, 10, 2}} {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: j.submit, Procs: j.cores, RunSeconds: j.run, RequestedSeconds: j.run})
		w.Requests = append(w.Requests, rigid.Request{Nodes: 1, CoresPerNode: j.cores, Partition: 0})
	}
	argv := []string{py, filepath.Join(root, "examples", "nodes_fcfs.py")}
	for _, c := range []struct {
		nodes string
		start []int64
	}{{"first-fit", []int64{0, 0, 1, 5}}, {"best-fit", []int64{0, 0, 1, 2}}} {
		entry := model.PolicyEntry{Name: "py-fcfs", Command: argv, Argv: argv, Params: map[string]string{"place": "sweep", ParamNodes: c.nodes}}
		sched, err := policyRunner{}.engineSchedule(context.Background(), "py-fcfs", entry, w, rigid.EstimateExact)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sched.StartSeconds, c.start) {
			t.Errorf("%s: starts %v, want %v", c.nodes, sched.StartSeconds, c.start)
		}
	}
}
