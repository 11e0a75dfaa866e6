package verify

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/engine/moldable"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// Moldable reports the first way s fails to be a schedule of the
// moldable workload w: every task placed exactly once, on 1..m
// processors, from a start >= 0 to exactly start + p(q), and at most m
// processors busy at any time (a task ending at t frees its processors
// for one starting at t).
func Moldable(w *workload.Workload, s moldable.Schedule) error {
	m := w.Processors
	if len(s.Tasks) != len(w.Tasks) {
		return fmt.Errorf("moldable schedule places %d tasks, the workload has %d", len(s.Tasks), len(w.Tasks))
	}
	type event struct {
		time  float64
		delta int // processors taken (> 0) or freed (< 0)
		task  int
	}
	events := make([]event, 0, 2*len(s.Tasks))
	for i, p := range s.Tasks {
		if p.Processors < 1 || p.Processors > m {
			return fmt.Errorf("task %d on %d processors, want 1..%d", i, p.Processors, m)
		}
		if !(p.Start >= 0) || math.IsInf(p.Start, 0) {
			return fmt.Errorf("task %d starts at %v, want a finite time >= 0", i, p.Start)
		}
		if want := p.Start + w.Tasks[i].Time(p.Processors); p.End != want {
			return fmt.Errorf("task %d runs [%v, %v] on %d processors, want it to end at start + p(%d) = %v",
				i, p.Start, p.End, p.Processors, p.Processors, want)
		}
		events = append(events, event{p.Start, p.Processors, i}, event{p.End, -p.Processors, i})
	}
	// Frees before takes at equal times.
	slices.SortFunc(events, func(a, b event) int {
		if c := cmp.Compare(a.time, b.time); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	busy := 0
	for _, e := range events {
		busy += e.delta
		if busy > m {
			return fmt.Errorf("%d processors busy at time %v (task %d starts), want at most %d", busy, e.time, e.task, m)
		}
	}
	return nil
}
