package grid_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
)

// With each job's arrival tick as its priority, JobPriorityOrders is
// fifo-job: the same schedule, task for task, on a Table 2 instance at
// load 1.2 (burkimsher2013/fan-chain, instance 0, seed 2013), where
// queues are long and every tie rule is exercised.
func TestJobPriorityByArrivalIsFifoJob(t *testing.T) {
	in := paperInstance(t, "burkimsher2013/fan-chain", 1.2)
	want, err := grid.Simulate(context.Background(), in, grid.Options{Policy: "fifo-job"})
	if err != nil {
		t.Fatal(err)
	}
	calls, jobs := 0, 0
	got, err := grid.Simulate(context.Background(), in, grid.Options{Order: grid.JobPriorityOrders(func(v *grid.View, js []int) []float64 {
		calls++
		jobs += len(js)
		out := make([]float64, len(js))
		for i, j := range js {
			out[i] = float64(v.JobArrival(j))
		}
		return out
	})})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Schedule(got, "fifo-job"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.TaskStart, want.TaskStart) || !slices.Equal(got.TaskCluster, want.TaskCluster) {
		t.Fatal("schedules differ from fifo-job")
	}
	if jobs != in.Jobs() {
		t.Fatalf("asked %d job priorities, want one per job (%d)", jobs, in.Jobs())
	}
	t.Logf("%d jobs, %d tasks: %d priority calls", in.Jobs(), in.Tasks(), calls)
}
