package verify

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Rigid checks a rigid schedule of workload w simulated with the
// estimates of variant v, independently of how it was built: every job
// that must have started did, none before its submit time, each runs
// exactly its run time, the cluster never holds more than its processors,
// and every EASY reservation holds (the built-in's, or a Decider's made
// through State.EASY): at each pass that started a job past a blocked
// head, the jobs running then that are estimated to outlive the
// head's shadow time leave it its processors. It returns every problem
// found, joined, or nil.
func Rigid(w *rigid.Workload, v rigid.Variant, sched *backfill.Schedule) error {
	var problems []error
	fail := func(format string, args ...any) {
		if len(problems) < 20 {
			problems = append(problems, fmt.Errorf(format, args...))
		}
	}
	n := len(w.Jobs)
	if len(sched.StartSeconds) != n || len(sched.EndSeconds) != n {
		return fmt.Errorf("schedule has %d starts and %d ends for %d jobs", len(sched.StartSeconds), len(sched.EndSeconds), n)
	}
	type edge struct {
		seconds int64
		procs   int // negative at an end
	}
	var edges []edge
	for i := range w.Jobs {
		j := &w.Jobs[i]
		start, end := sched.StartSeconds[i], sched.EndSeconds[i]
		mustStart := w.MeasureFromSeconds == 0 && w.MeasureToSeconds == 0 || j.SubmitSeconds < w.MeasureToSeconds
		if start < 0 {
			if mustStart {
				fail("job %d (SWF %d) never started", i, j.Number)
			}
			if end >= 0 {
				fail("job %d (SWF %d) ends at %d s without a start", i, j.Number, end)
			}
			continue
		}
		if start < j.SubmitSeconds {
			fail("job %d (SWF %d) starts at %d s before its submit time %d s", i, j.Number, start, j.SubmitSeconds)
		}
		if end-start != j.RunSeconds {
			fail("job %d (SWF %d) runs %d s, want its run time %d s", i, j.Number, end-start, j.RunSeconds)
		}
		edges = append(edges, edge{start, j.Procs}, edge{end, -j.Procs})
	}
	// Ends before starts at the same instant: freed processors are usable
	// at once.
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.seconds, b.seconds), cmp.Compare(a.procs, b.procs))
	})
	busy := 0
	for _, e := range edges {
		busy += e.procs
		if busy > w.Procs {
			fail("at %d s the jobs hold %d processors of %d", e.seconds, busy, w.Procs)
		}
	}
	for _, r := range sched.Reservations {
		h := &w.Jobs[r.Head]
		if h.SubmitSeconds > r.AtSeconds || sched.StartSeconds[r.Head] >= 0 && sched.StartSeconds[r.Head] <= r.AtSeconds {
			fail("reservation at %d s for job %d (SWF %d): the head was not waiting then", r.AtSeconds, r.Head, h.Number)
			continue
		}
		held := 0
		for i := range w.Jobs {
			start := sched.StartSeconds[i]
			if start < 0 || start > r.AtSeconds || sched.EndSeconds[i] <= r.AtSeconds {
				continue
			}
			if start+w.Jobs[i].EstimateSeconds(v) > r.ShadowSeconds {
				held += w.Jobs[i].Procs
			}
		}
		if held+h.Procs > w.Procs {
			fail("reservation at %d s: head job %d (SWF %d, %d processors) cannot start at its shadow time %d s: jobs running then are estimated to hold %d of %d processors past it",
				r.AtSeconds, r.Head, h.Number, h.Procs, r.ShadowSeconds, held, w.Procs)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("rigid schedule of %s: %w", w.Name, errors.Join(problems...))
}
