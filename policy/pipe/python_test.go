package pipe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// pythonExample runs python/examples/NAME.py with the client on its path,
// or skips when python3 is absent.
func pythonExample(t testing.TB, name string) Options {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is absent: the Python client's examples cannot run")
	}
	root, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	return Options{Command: []string{py, filepath.Join(root, "examples", name+".py")}, Name: name,
		Env: append(os.Environ(), "PYTHONPATH="+root)}
}

// The Python FCFS and EASY examples give the built-ins' schedules job for
// job: FCFS is engine/backfill's strict FCFS, EASY is fcfs-easy, on the
// hand-made fixture and on KTH-SP2 1996-10 (28,467 jobs with warm-up and
// cool-down) under both estimate variants.
func TestPythonRigidExamplesAreBuiltin(t *testing.T) {
	ws := []*rigid.Workload{fixture()}
	if w := kthMonth(t); w != nil && !testing.Short() {
		ws = append(ws, w)
	}
	for _, c := range []struct {
		example string
		builtin backfill.Policy
	}{
		{"fcfs", backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict}},
		{"easy", backfill.FCFSEasy()},
	} {
		for _, w := range ws {
			for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
				want, err := backfill.Simulate(context.Background(), w, v, c.builtin)
				if err != nil {
					t.Fatal(err)
				}
				got, err := simulateRigid(t, w, v, pythonExample(t, c.example))
				if err != nil {
					t.Fatal(err)
				}
				if err := verify.Rigid(w, v, got); err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(got.StartSeconds, want.StartSeconds); i >= 0 {
					t.Fatalf("%s on %s %v: job %d starts at %d s, built-in at %d s", c.example, w.Name, v, i, got.StartSeconds[i], want.StartSeconds[i])
				}
				t.Logf("%s on %s %v: %d decisions, the built-in's schedule", c.example, w.Name, v, got.Stats.Passes)
			}
		}
	}
}

// The Python DAG example (smallest job volume first) gives the schedule
// of its Go twin, task for task, on a burkimsher2013 instance.
func TestPythonDAGExampleIsItsGoTwin(t *testing.T) {
	opts := pythonExample(t, "dag_small_first")
	in := dagInstance(t)
	want, err := grid.Simulate(context.Background(), in, grid.Options{Order: grid.JobPriorityOrders(func(v *grid.View, jobs []int) []float64 {
		out := make([]float64, len(jobs))
		for i, j := range jobs {
			out[i] = float64(v.Instance().Volume(j))
		}
		return out
	})})
	if err != nil {
		t.Fatal(err)
	}
	d, ctx, err := StartDAG(context.Background(), opts, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := grid.Simulate(ctx, in, grid.Options{Order: grid.JobPriorityOrders(d.Priority)})
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.TaskStart, want.TaskStart) || !slices.Equal(got.TaskCluster, want.TaskCluster) {
		t.Fatal("the Python example's schedule differs from its Go twin's")
	}
}
