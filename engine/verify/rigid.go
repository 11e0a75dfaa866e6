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
// exactly its run time under the schedule's kill rule, the cluster never
// holds more than its processors, and every EASY reservation holds (the
// built-in's under any queue order, or a Decider's made through
// State.EASY): at each pass that started a job past a blocked head, the
// jobs running then that are estimated to outlive the head's shadow time
// leave it its processors. Estimates are re-derived from the schedule
// alone: a predicted one from the run times of the user's jobs that ended
// before the submission, corrected as rigid.CorrectedSeconds says when
// the job outlived it. On a machine of nodes it checks the nodes too
// (checkNodes). It returns every problem found, joined, or nil.
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
	edges := checkRuns(w, sched, fail)
	if len(sched.Reservations) > 0 || w.Machine != nil {
		est := firstEstimates(w, v, sched)
		checkReservations(w, sched, edges, est, fail)
		if w.Machine != nil {
			checkNodes(w, sched, est, fail)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("rigid schedule of %s: %w", w.Name, errors.Join(problems...))
}

// An edge is the start or the end of a started job.
type edge struct {
	seconds int64
	procs   int // negative at an end
	job     int
}

// checkRuns checks each job's start and run time, and the processors the
// jobs hold at every instant. It returns the starts and ends of the
// started jobs in time order, ends first at an instant.
func checkRuns(w *rigid.Workload, sched *backfill.Schedule, fail func(string, ...any)) []edge {
	edges := make([]edge, 0, 2*len(w.Jobs))
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
		if run := j.RunSecondsUnder(sched.Kill); end-start != run {
			fail("job %d (SWF %d) runs %d s, want its run time %d s (kill %s)", i, j.Number, end-start, run, sched.Kill)
		}
		edges = append(edges, edge{start, j.Procs, i}, edge{end, -j.Procs, i})
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
	return edges
}

// firstEstimates returns each job's estimate when it was submitted: its
// run time (T, under the schedule's kill rule), its request (R), or its
// prediction from the schedule: the user's two jobs that ended last at or
// before its submit second, ties in end time by job index, as the
// simulator records completions.
func firstEstimates(w *rigid.Workload, v rigid.Variant, sched *backfill.Schedule) []int64 {
	est := make([]int64, len(w.Jobs))
	for i := range w.Jobs {
		est[i] = w.Jobs[i].EstimateSecondsUnder(v, sched.Kill)
	}
	if v != rigid.EstimatePredicted {
		return est
	}
	ended := map[int64][]int{} // per user, jobs by end, then index
	for i := range w.Jobs {
		if sched.StartSeconds[i] >= 0 {
			ended[w.Jobs[i].User] = append(ended[w.Jobs[i].User], i)
		}
	}
	for _, js := range ended {
		slices.SortFunc(js, func(a, b int) int {
			return cmp.Or(cmp.Compare(sched.EndSeconds[a], sched.EndSeconds[b]), cmp.Compare(a, b))
		})
	}
	for i := range w.Jobs {
		j := &w.Jobs[i]
		js := ended[j.User]
		k, _ := slices.BinarySearchFunc(js, j.SubmitSeconds, func(e int, t int64) int {
			if sched.EndSeconds[e] <= t {
				return -1
			}
			return 1
		})
		// js[:k] ended at or before the submission.
		var last, previous int64
		if k >= 1 {
			last = sched.EndSeconds[js[k-1]] - sched.StartSeconds[js[k-1]]
		}
		if k >= 2 {
			previous = sched.EndSeconds[js[k-2]] - sched.StartSeconds[js[k-2]]
		}
		est[i] = rigid.PredictSeconds(min(k, 2), last, previous, j.RequestedSeconds)
	}
	return est
}

// checkReservations checks every EASY reservation: the jobs running at
// its pass (started by then and not ended) whose estimate, corrected for
// the time they had run, outlives the shadow must leave the head its
// processors. Reservations are visited in time order (the simulator
// records them so), with the running jobs kept as the sweep goes through
// checkRuns's edges.
func checkReservations(w *rigid.Workload, sched *backfill.Schedule, edges []edge, est []int64, fail func(string, ...any)) {
	byAt := func(a, b backfill.Reservation) int { return cmp.Compare(a.AtSeconds, b.AtSeconds) }
	rs := sched.Reservations
	if !slices.IsSortedFunc(rs, byAt) {
		rs = slices.Clone(rs)
		slices.SortStableFunc(rs, byAt)
	}
	var running []int
	next := 0
	for _, r := range rs {
		for ; next < len(edges) && edges[next].seconds <= r.AtSeconds; next++ {
			if edges[next].procs > 0 {
				running = append(running, edges[next].job)
			}
		}
		running = slices.DeleteFunc(running, func(i int) bool { return sched.EndSeconds[i] <= r.AtSeconds })
		if r.Head < 0 || r.Head >= len(w.Jobs) {
			fail("reservation at %d s for job %d: no such job", r.AtSeconds, r.Head)
			continue
		}
		h := &w.Jobs[r.Head]
		if h.SubmitSeconds > r.AtSeconds || sched.StartSeconds[r.Head] >= 0 && sched.StartSeconds[r.Head] <= r.AtSeconds {
			fail("reservation at %d s for job %d (SWF %d): the head was not waiting then", r.AtSeconds, r.Head, h.Number)
			continue
		}
		held := 0
		for _, i := range running {
			start := sched.StartSeconds[i]
			e := rigid.CorrectedSeconds(est[i], r.AtSeconds-start, w.Jobs[i].EstimateBoundSeconds(sched.Kill))
			if start+e > r.ShadowSeconds {
				held += w.Jobs[i].Procs
			}
		}
		if held+h.Procs > w.Procs {
			fail("reservation at %d s: head job %d (SWF %d, %d processors) cannot start at its shadow time %d s: jobs running then are estimated to hold %d of %d processors past it",
				r.AtSeconds, r.Head, h.Number, h.Procs, r.ShadowSeconds, held, w.Procs)
		}
	}
}
