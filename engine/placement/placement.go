// Package placement owns schedules of rigid jobs placed on numbered
// resources, as an external scheduler (a Batsim decision process) makes
// them, and their validation independently of how they were built: no
// two jobs on one resource at once, no start before submission, each job
// run or rejected at most once, exactly as many resources as the job
// asked for, and every job that had to be decided decided.
//
// Times are integer nanoseconds of simulated time: a scheduler that
// consumes time (Batsim's "now") may start jobs between whole seconds.
//
// It also owns the rule that names resources for a simulator that only
// counted them (Fit), so that every view of such a schedule (the Gantt
// chart, the exports) places its jobs alike.
package placement

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// NanosPerSecond converts seconds to the package's time unit.
const NanosPerSecond = 1_000_000_000

// Job is what the validator needs of one rigid job.
type Job struct {
	SubmitNanos int64
	// RunNanos is how long the job holds its resources once started (its
	// run time, already cut at its requested time).
	RunNanos  int64
	Resources int // how many resources it asks for
}

// Run is one job execution: job index, when, on which resources.
type Run struct {
	Job                  int
	StartNanos, EndNanos int64
	// Resources are the resource ids, ascending.
	Resources []int
}

// Schedule is the log of a simulation's outcomes, in decision order.
type Schedule struct {
	Runs     []Run
	Rejected []int // job indices
}

// maxProblems bounds the problems one Check reports.
const maxProblems = 20

// Check validates s for jobs on resources numbered 0..resources-1. Jobs
// of index below mustDecide must have been run or rejected; later ones
// may be absent (the simulation stopped before). It returns every
// problem found (up to 20), joined, or nil.
func Check(resources int, jobs []Job, mustDecide int, s *Schedule) error {
	var problems []error
	fail := func(format string, args ...any) {
		if len(problems) < maxProblems {
			problems = append(problems, fmt.Errorf(format, args...))
		}
	}
	decided := make([]string, len(jobs)) // how each job was decided, "" if not
	decide := func(j int, how string) bool {
		if j < 0 || j >= len(jobs) {
			fail("%s of job %d: no such job (want 0..%d)", how, j, len(jobs)-1)
			return false
		}
		if decided[j] != "" {
			fail("job %d is %s after being %s already: each job is decided at most once", j, how, decided[j])
			return false
		}
		decided[j] = how
		return true
	}
	type use struct {
		start, end int64
		job        int
	}
	uses := make([][]use, max(resources, 0))
	for _, r := range s.Runs {
		if !decide(r.Job, "run") {
			continue
		}
		j := &jobs[r.Job]
		if r.StartNanos < j.SubmitNanos {
			fail("job %d starts at %s before its submission at %s", r.Job, seconds(r.StartNanos), seconds(j.SubmitNanos))
		}
		if r.EndNanos-r.StartNanos != j.RunNanos {
			fail("job %d runs %s (from %s to %s), want its run time %s", r.Job, seconds(r.EndNanos-r.StartNanos), seconds(r.StartNanos), seconds(r.EndNanos), seconds(j.RunNanos))
		}
		if len(r.Resources) != j.Resources {
			fail("job %d holds %d resources, want the %d it asked for", r.Job, len(r.Resources), j.Resources)
		}
		for k, id := range r.Resources {
			switch {
			case id < 0 || id >= resources:
				fail("job %d holds resource %d: no such resource (want 0..%d)", r.Job, id, resources-1)
				continue
			case k > 0 && id <= r.Resources[k-1]:
				fail("job %d's resources are not strictly ascending at %d (after %d)", r.Job, id, r.Resources[k-1])
				continue
			}
			uses[id] = append(uses[id], use{r.StartNanos, r.EndNanos, r.Job})
		}
	}
	for _, j := range s.Rejected {
		decide(j, "rejected")
	}
	for j := range min(mustDecide, len(jobs)) {
		if decided[j] == "" {
			fail("job %d (submitted at %s) was neither run nor rejected", j, seconds(jobs[j].SubmitNanos))
		}
	}
	for id, us := range uses {
		slices.SortFunc(us, func(a, b use) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end)) })
		for k := 1; k < len(us); k++ {
			// An end frees the resource for a start at the same instant.
			if a, b := us[k-1], us[k]; b.start < a.end {
				fail("resource %d holds job %d (%s to %s) and job %d (%s to %s) at once", id, a.job, seconds(a.start), seconds(a.end), b.job, seconds(b.start), seconds(b.end))
			}
		}
	}
	return errors.Join(problems...)
}

// seconds formats nanoseconds as seconds for messages.
func seconds(nanos int64) string {
	if nanos%NanosPerSecond == 0 {
		return fmt.Sprintf("%d s", nanos/NanosPerSecond)
	}
	return fmt.Sprintf("%.9f s", float64(nanos)/NanosPerSecond)
}

// Fit picks need resources for a job that holds them from start to end,
// given when each resource is next free (freeAt, indexed by resource id,
// in any one time unit; a resource free at start may be taken): the
// narrowest run of at least need consecutive free resources, the lowest
// such run on a tie, which keeps wide blocks for wide jobs; when no run
// is wide enough, the lowest free resources. It marks them busy until end
// and returns their ids ascending, or nil, leaving freeAt as it was, when
// fewer than need are free.
//
// Fit is sweep's one rule for naming the resources of a simulator that
// only counted them: the Gantt chart (report/gantt) and the exports
// (export.AssignResources) both place such jobs with it, job by job in
// order of start, so a chart and an export of one schedule agree.
func Fit(freeAt []int64, start, end int64, need int) []int {
	best, bestWidth := -1, 0
	for k := 0; k < len(freeAt); {
		if freeAt[k] > start {
			k++
			continue
		}
		run := k
		for run < len(freeAt) && freeAt[run] <= start {
			run++
		}
		if width := run - k; width >= need && (best < 0 || width < bestWidth) {
			best, bestWidth = k, width
		}
		k = run
	}
	ids := make([]int, 0, need)
	if best >= 0 {
		for id := best; id < best+need; id++ {
			ids = append(ids, id)
		}
	} else {
		for id := 0; id < len(freeAt) && len(ids) < need; id++ {
			if freeAt[id] <= start {
				ids = append(ids, id)
			}
		}
		if len(ids) < need {
			return nil
		}
	}
	for _, id := range ids {
		freeAt[id] = end
	}
	return ids
}
