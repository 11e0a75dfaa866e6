// Package rigid owns the rigid-job workload of seed 003: parallel jobs that
// each hold a fixed number of processors of one cluster for their whole run,
// replayed from a trace. A job runs its actual time; the scheduler sees an
// estimate, either that exact time (variant T), the user's requested time
// (variant R) or a prediction from the user's history (variant predicted,
// predict.go). Times are integer seconds.
package rigid

import (
	"cmp"
	"fmt"
	"slices"
)

// Variant chooses what the scheduler is told about a job's run time.
type Variant uint8

// The information variants: the two of the paper (seed 003), and the
// system-generated predictions of Tsafrir, Etsion and Feitelson (2007).
const (
	// EstimateExact (variant T) tells the scheduler the actual run time.
	EstimateExact Variant = iota
	// EstimateRequested (variant R) tells it the user's requested time.
	EstimateRequested
	// EstimatePredicted tells it the average run time of the user's last
	// two jobs to end before the job's submission, clamped to the
	// request, corrected upwards when the job outlives it (predict.go);
	// the job is still killed at its request.
	EstimatePredicted
)

// String returns the variant's name: the paper's "T" or "R", or
// "predicted".
func (v Variant) String() string {
	switch v {
	case EstimateExact:
		return "T"
	case EstimateRequested:
		return "R"
	case EstimatePredicted:
		return "predicted"
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// ParseVariant reads "T", "R" or "predicted".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "T":
		return EstimateExact, nil
	case "R":
		return EstimateRequested, nil
	case "predicted":
		return EstimatePredicted, nil
	}
	return 0, fmt.Errorf("estimate variant %q: want T (actual run time), R (requested time) or predicted (the average of the user's last two run times, Tsafrir, Etsion and Feitelson 2007)", s)
}

// Kill is what happens to a job that runs past its requested time.
type Kill uint8

// The kill rules.
const (
	// KillAtRequest stops a job at its requested time: it runs
	// RunSeconds, which the trace reader clamps to the request. The
	// default, as batch systems enforce a wall-time limit.
	KillAtRequest Kill = iota
	// KillNever lets a job run the time its log recorded
	// (LoggedRunSeconds when it exceeds the request), as simulators that
	// replay the log's run times do (RLScheduler's environment).
	KillNever
)

var killNames = []string{"request", "never"}

// String returns the rule's name in a manifest: request or never.
func (k Kill) String() string {
	if int(k) < len(killNames) {
		return killNames[k]
	}
	return fmt.Sprintf("kill(%d)", uint8(k))
}

// ParseKill reads a kill rule by name.
func ParseKill(s string) (Kill, error) {
	if i := slices.Index(killNames, s); i >= 0 {
		return Kill(i), nil
	}
	return 0, fmt.Errorf("kill %q: want request (a job is killed at its requested time, the default) or never (it runs the time its log recorded)", s)
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
	// LoggedRunSeconds is the run time the log recorded when it exceeds
	// the request (the job ran past it, and RunSeconds is the request);
	// 0 when the job ran within its request. Only KillNever runs it.
	LoggedRunSeconds int64
}

// RunSecondsUnder returns the time the job runs under kill rule k.
func (j *Job) RunSecondsUnder(k Kill) int64 {
	if k == KillNever && j.LoggedRunSeconds > 0 {
		return j.LoggedRunSeconds
	}
	return j.RunSeconds
}

// EstimateSeconds returns what the scheduler believes the job's run time
// is under variant v when it is submitted, the job killed at its request:
// the run time (T) or the request (R, and predicted, whose prediction
// depends on the schedule: Predictor; the request is its bound and its
// value without history).
func (j *Job) EstimateSeconds(v Variant) int64 {
	if v == EstimateExact {
		return j.RunSeconds
	}
	return j.RequestedSeconds
}

// EstimateSecondsUnder is EstimateSeconds under kill rule k: the exact
// estimate (T) is the time the job runs under k (RunSecondsUnder).
func (j *Job) EstimateSecondsUnder(v Variant, k Kill) int64 {
	if v == EstimateExact {
		return j.RunSecondsUnder(k)
	}
	return j.EstimateSeconds(v)
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
	// Machine, when set, is the cluster's nodes (nodes.go), Procs its
	// cores, and Requests what each job asks of them, by job index.
	Machine  *Machine
	Requests []Request
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
	order := func(a, b Job) int {
		return cmp.Or(cmp.Compare(a.SubmitSeconds, b.SubmitSeconds), cmp.Compare(a.Number, b.Number))
	}
	if w.Requests == nil {
		slices.SortStableFunc(w.Jobs, order)
		return
	}
	// The requests follow their jobs.
	idx := make([]int, len(w.Jobs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return order(w.Jobs[a], w.Jobs[b]) })
	jobs, reqs := make([]Job, len(idx)), make([]Request, len(idx))
	for k, i := range idx {
		jobs[k], reqs[k] = w.Jobs[i], w.Requests[i]
	}
	w.Jobs, w.Requests = jobs, reqs
}

// Validate checks the workload and returns the first problem, located by
// the job's index and SWF number and naming the field and what would be
// valid.
func (w *Workload) Validate() error {
	if w.Procs <= 0 {
		return fmt.Errorf("workload %s: processors %d: want at least 1", w.Name, w.Procs)
	}
	if w.Machine != nil {
		if err := w.validateNodes(); err != nil {
			return err
		}
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
		case j.LoggedRunSeconds != 0 && (j.LoggedRunSeconds <= j.RequestedSeconds || j.RunSeconds != j.RequestedSeconds):
			return where("logged run time", j.LoggedRunSeconds, fmt.Sprintf("0, or above the request %d s with the run time clamped to it (run time %d s)", j.RequestedSeconds, j.RunSeconds))
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
