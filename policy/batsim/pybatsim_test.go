package batsim

import (
	"context"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/placement"
)

// pybatsim's own schedulers run unchanged. On the hand-made fixture
// (fcfsFixture) strict FCFS starts the jobs at 0, 10, 10, 15; both EASY
// schedulers backfill job 2 at 1 on resource 2, since it ends at 5,
// before job 0's requested end at 20 (with a single candidate SJF's
// order changes nothing). Allocations are hand-computed from pybatsim's
// rules: consecutive resources, lowest first.
func TestPybatsimSchedulers(t *testing.T) {
	fcfs := []struct {
		start int64
		alloc string
	}{{0, "0-1"}, {10, "0-2"}, {10, "3"}, {15, "0-3"}}
	easy := slices.Clone(fcfs)
	easy[2] = struct {
		start int64
		alloc string
	}{1, "2"}
	for _, c := range []struct {
		scheduler string
		want      []struct {
			start int64
			alloc string
		}
	}{{"schedFcfs", fcfs}, {"easyBackfill", easy}, {"schedEasySjfBackfill", easy}} {
		sched, err := Simulate(context.Background(), fixtureWorkload(), Options{Command: []string{enginetest.Pybatsim(t), "-v", "warning", c.scheduler}})
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range c.want {
			if got := sched.StartNanos[i]; got != w.start*placement.NanosPerSecond {
				t.Errorf("%s: job %d starts at %d ns, want %d s", c.scheduler, i, got, w.start)
			}
			if got := formatIntervals(sched.Resources[i]); got != w.alloc {
				t.Errorf("%s: job %d on %q, want %q", c.scheduler, i, got, w.alloc)
			}
		}
		if want := (Counts{Requests: 9, Events: 11, Executed: 4}); sched.Counts != want {
			t.Errorf("%s: counts %+v, want %+v", c.scheduler, sched.Counts, want)
		}
	}
}
