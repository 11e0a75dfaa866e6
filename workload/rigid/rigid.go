// Package rigid owns the rigid-job workload of seed 003: parallel jobs that
// each hold a fixed number of processors of one cluster for their whole run,
// replayed from a trace. A job runs its actual time; the scheduler sees an
// estimate, either that exact time (variant T) or the user's requested time
// (variant R). Times are integer seconds.
package rigid

import (
	"cmp"
	"fmt"
	"slices"
)

// Variant chooses what the scheduler is told about a job's run time.
type Variant uint8

// The two information variants of the paper.
const (
	// EstimateExact (variant T) tells the scheduler the actual run time.
	EstimateExact Variant = iota
	// EstimateRequested (variant R) tells it the user's requested time.
	EstimateRequested
)

// String returns the paper's name of the variant, "T" or "R".
func (v Variant) String() string {
	switch v {
	case EstimateExact:
		return "T"
	case EstimateRequested:
		return "R"
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// ParseVariant reads "T" or "R".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "T":
		return EstimateExact, nil
	case "R":
		return EstimateRequested, nil
	}
	return 0, fmt.Errorf("estimate variant %q: want T (actual run time) or R (requested time)", s)
}

// Job is one rigid job.
type Job struct {
	Number        int64 // SWF job number, the tie-break after submit time
	User          int64 // SWF user id
	SubmitSeconds int64
	Procs         int // processors held for the whole run
	// RunSeconds is the time the job actually runs (T_eff, already clamped
	// to the request).
	RunSeconds int64
	// RequestedSeconds is the user's requested time, never below
	// RunSeconds.
	RequestedSeconds int64
}

// EstimateSeconds returns what the scheduler believes the job's run time
// is under variant v.
func (j *Job) EstimateSeconds(v Variant) int64 {
	if v == EstimateRequested {
		return j.RequestedSeconds
	}
	return j.RunSeconds
}

// WorkProcSeconds returns processors x actual run time.
func (j *Job) WorkProcSeconds() int64 { return int64(j.Procs) * j.RunSeconds }

// Workload is the input of one rigid simulation: a cluster of Procs
// identical processors and jobs sorted by submit time, then job number.
type Workload struct {
	Name  string // where the jobs come from, for messages
	Procs int    // N, the cluster's processors
	Jobs  []Job
	// UnixStartSeconds is the Unix time of second 0, so that calendar
	// days (UTC) can be found; 0 when second 0 is itself a midnight.
	UnixStartSeconds int64
	// MeasureFromSeconds and MeasureToSeconds bound the submit times of the
	// measured jobs, [from, to): the month of a trace month. The jobs
	// before are the warm-up, those after the cool-down. Both zero means
	// every job is measured.
	MeasureFromSeconds, MeasureToSeconds int64
	// MeasureFromJob and MeasureToJob, when MeasureToJob > 0, choose the
	// measured jobs by index instead, [from, to) of Jobs: a load-scaled
	// cut, whose rounded submit times may tie across the ends of its
	// seconds window. The seconds window must then still cover them.
	MeasureFromJob, MeasureToJob int
}

// Measured reports whether job i is one of the measured jobs.
func (w *Workload) Measured(i int) bool {
	if w.MeasureToJob > 0 {
		return i >= w.MeasureFromJob && i < w.MeasureToJob
	}
	if w.MeasureFromSeconds == 0 && w.MeasureToSeconds == 0 {
		return true
	}
	s := w.Jobs[i].SubmitSeconds
	return s >= w.MeasureFromSeconds && s < w.MeasureToSeconds
}

// SortJobs orders the jobs by submit time, then job number, the order the
// simulator requires.
func (w *Workload) SortJobs() {
	slices.SortStableFunc(w.Jobs, func(a, b Job) int {
		return cmp.Or(cmp.Compare(a.SubmitSeconds, b.SubmitSeconds), cmp.Compare(a.Number, b.Number))
	})
}

// Validate checks the workload and returns the first problem, located by
// the job's index and SWF number and naming the field and what would be
// valid.
func (w *Workload) Validate() error {
	if w.Procs <= 0 {
		return fmt.Errorf("workload %s: processors %d: want at least 1", w.Name, w.Procs)
	}
	if w.MeasureFromSeconds > w.MeasureToSeconds {
		return fmt.Errorf("workload %s: measured window [%d, %d) s: the start must not come after the end", w.Name, w.MeasureFromSeconds, w.MeasureToSeconds)
	}
	for i := range w.Jobs {
		j := &w.Jobs[i]
		where := func(field string, value any, want string) error {
			return fmt.Errorf("workload %s: job %d (SWF job %d): %s %v: want %s", w.Name, i, j.Number, field, value, want)
		}
		switch {
		case j.Procs <= 0 || j.Procs > w.Procs:
			return where("processors", j.Procs, fmt.Sprintf("1..%d (the cluster)", w.Procs))
		case j.RunSeconds <= 0:
			return where("run time", j.RunSeconds, "at least 1 s")
		case j.RequestedSeconds < j.RunSeconds:
			return where("requested time", j.RequestedSeconds, fmt.Sprintf("at least the run time %d s", j.RunSeconds))
		case j.SubmitSeconds < 0:
			return where("submit time", j.SubmitSeconds, "at least 0 s")
		}
		if i > 0 {
			p := &w.Jobs[i-1]
			if cmp.Or(cmp.Compare(p.SubmitSeconds, j.SubmitSeconds), cmp.Compare(p.Number, j.Number)) >= 0 {
				return where("submit time", j.SubmitSeconds, fmt.Sprintf("jobs sorted by submit time, then job number, after SWF job %d submitted at %d s", p.Number, p.SubmitSeconds))
			}
		}
	}
	return nil
}
