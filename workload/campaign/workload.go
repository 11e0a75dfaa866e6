package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sweep-sched/sweep/workload/dag"
)

// Profiles of the synthetic study (seed 001).
const (
	ProfileShort = "short"
	ProfileLong  = "long"
)

// A Workload is a set of users and their campaigns. Its JSON form is
//
//	{"users": [{"id": "u1", "profile": "short"}, ...],
//	 "campaigns": [{"user": 0, "submit": 0, "think": 0,
//	                "jobs": [{"id": "j1", "exec": 30, "release": 5, "log_start": 12}, ...]}, ...]}
//
// where "user" indexes "users", and "profile", "think", "id", "release"
// and "log_start" are optional. A user's campaigns run in the order they are
// listed: each is submitted no earlier than its submit time, nor before
// the user's previous campaign has completed plus its think time.
type Workload struct {
	Users     []User     `json:"users"`
	Campaigns []Campaign `json:"campaigns"`
}

// A User owns campaigns. Profile is a free label (ProfileShort,
// ProfileLong, or empty) by which metrics are grouped.
type User struct {
	ID      string `json:"id"`
	Profile string `json:"profile,omitempty"`
}

// A Campaign is a set of independent sequential jobs of one user.
type Campaign struct {
	User int `json:"user"` // index into Workload.Users
	// SubmitTicks is the earliest tick the campaign may be submitted.
	SubmitTicks int64 `json:"submit"`
	// ThinkTicks is the least time between the completion of the user's
	// previous campaign and this one's submission.
	ThinkTicks int64 `json:"think,omitempty"`
	Jobs       []Job `json:"jobs"`
}

// A Job runs on one processor for ExecTicks. A job of 0 ticks (a trace
// job that ran 0 seconds, kept by the replay option zero-run: keep) adds
// nothing to its campaign's work, but the scheduler still dispatches it:
// DAG compiles it as a task of 1 tick, the engine's least. ReleaseTicks is how long
// after its campaign's submission the job itself is submitted: 0 in the
// campaign model, where a campaign's jobs all arrive together, and the
// gap between the job's and the campaign's first job's submit times in a
// trace (a campaign detected by the MAX rule is submitted job by job).
// LogStartTicks is when the job started in a recorded schedule (trace
// workloads only), for the log policy.
type Job struct {
	ID            string `json:"id,omitempty"`
	ExecTicks     int64  `json:"exec"`
	ReleaseTicks  int64  `json:"release,omitempty"`
	LogStartTicks *int64 `json:"log_start,omitempty"`
}

// ScheduledTicks returns how long the job holds a processor when
// scheduled: ExecTicks, and 1 tick for a job of 0.
func (j Job) ScheduledTicks() int64 { return max(j.ExecTicks, 1) }

// WorkTicks returns the campaign's work: the sum of its jobs' execution
// times, in processor-ticks.
func (c *Campaign) WorkTicks() int64 {
	var w int64
	for _, j := range c.Jobs {
		w += j.ExecTicks
	}
	return w
}

// LongestTicks returns the campaign's longest job.
func (c *Campaign) LongestTicks() int64 {
	var p int64
	for _, j := range c.Jobs {
		p = max(p, j.ExecTicks)
	}
	return p
}

// Ordinals returns, for every campaign, its 1-based position among its
// user's campaigns.
func (w *Workload) Ordinals() []int {
	seen := make([]int, len(w.Users))
	out := make([]int, len(w.Campaigns))
	for i, c := range w.Campaigns {
		seen[c.User]++
		out[i] = seen[c.User]
	}
	return out
}

// DAG returns w as a DAG workload, the form the simulator compiles: job i
// is campaign i, with id
// "<user>#<ordinal>", share the user id, arrival the campaign's submit
// time, and one single-core Kind1 task per campaign job, released
// ReleaseTicks after the campaign's submission.
func (w *Workload) DAG() *dag.Workload {
	ord := w.Ordinals()
	ew := &dag.Workload{Jobs: make([]dag.Job, len(w.Campaigns))}
	for i := range w.Campaigns {
		c := &w.Campaigns[i]
		arrival := c.SubmitTicks
		tasks := make([]dag.Task, len(c.Jobs))
		for k, j := range c.Jobs {
			id := j.ID
			if id == "" {
				id = "j" + strconv.Itoa(k+1)
			}
			tasks[k] = dag.Task{ID: id, ExecTicks: j.ScheduledTicks(), Cores: 1, ReleaseTicks: j.ReleaseTicks}
		}
		ew.Jobs[i] = dag.Job{
			ID:      w.Users[c.User].ID + "#" + strconv.Itoa(ord[i]),
			Arrival: &arrival,
			Share:   w.Users[c.User].ID,
			Tasks:   tasks,
		}
	}
	return ew
}

// A WorkloadError locates a problem in a campaign workload.
type WorkloadError struct {
	Source string // file name, if known
	Where  string // "user 3", "campaign 7 job 2", ...
	Field  string
	Msg    string
}

func (e *WorkloadError) Error() string {
	s := ""
	if e.Source != "" {
		s = e.Source + ": "
	}
	return fmt.Sprintf("%s%s field %q: %s", s, e.Where, e.Field, e.Msg)
}

// Validate checks that users have unique non-empty ids, that every
// campaign names a user and has at least one job, that times and
// executions are >= 0, that some job of every campaign is released with it
// (release 0: a campaign is submitted with its first job) and that
// recorded starts are not before the job's own submission.
func (w *Workload) Validate() error {
	if len(w.Users) == 0 {
		return &WorkloadError{Where: "workload", Field: "users", Msg: "empty; want at least one user"}
	}
	if len(w.Campaigns) == 0 {
		return &WorkloadError{Where: "workload", Field: "campaigns", Msg: "empty; want at least one campaign"}
	}
	ids := make(map[string]int, len(w.Users))
	for i, u := range w.Users {
		where := fmt.Sprintf("user %d", i)
		if u.ID == "" {
			return &WorkloadError{Where: where, Field: "id", Msg: "empty; want a unique user id"}
		}
		if prev, dup := ids[u.ID]; dup {
			return &WorkloadError{Where: where, Field: "id", Msg: fmt.Sprintf("%q duplicates user %d; ids must be unique", u.ID, prev)}
		}
		ids[u.ID] = i
	}
	for i := range w.Campaigns {
		c := &w.Campaigns[i]
		where := fmt.Sprintf("campaign %d", i)
		switch {
		case c.User < 0 || c.User >= len(w.Users):
			return &WorkloadError{Where: where, Field: "user", Msg: fmt.Sprintf("%d; want a user index in [0, %d)", c.User, len(w.Users))}
		case c.SubmitTicks < 0:
			return &WorkloadError{Where: where, Field: "submit", Msg: fmt.Sprintf("%d; want a tick >= 0", c.SubmitTicks)}
		case c.ThinkTicks < 0:
			return &WorkloadError{Where: where, Field: "think", Msg: fmt.Sprintf("%d; want ticks >= 0", c.ThinkTicks)}
		case len(c.Jobs) == 0:
			return &WorkloadError{Where: where, Field: "jobs", Msg: "empty; want at least one job"}
		}
		firstRelease := c.Jobs[0].ReleaseTicks
		for k, j := range c.Jobs {
			// The job's place is formatted only for an error: a workload
			// has thousands of jobs.
			jobError := func(field, msg string) error {
				return &WorkloadError{Where: fmt.Sprintf("campaign %d job %d", i, k), Field: field, Msg: msg}
			}
			switch {
			case j.ExecTicks < 0:
				return jobError("exec", fmt.Sprintf("%d; want >= 0 ticks", j.ExecTicks))
			case j.ReleaseTicks < 0:
				return jobError("release", fmt.Sprintf("%d; want ticks >= 0 after the campaign's submission", j.ReleaseTicks))
			case j.LogStartTicks != nil && *j.LogStartTicks < c.SubmitTicks+j.ReleaseTicks:
				return jobError("log_start", fmt.Sprintf("%d is before the job's submission %d (campaign submit %d + release %d)",
					*j.LogStartTicks, c.SubmitTicks+j.ReleaseTicks, c.SubmitTicks, j.ReleaseTicks))
			}
			firstRelease = min(firstRelease, j.ReleaseTicks)
		}
		if firstRelease != 0 {
			return &WorkloadError{Where: where, Field: "release", Msg: fmt.Sprintf("every job has release >= %d; want some job at 0, since a campaign is submitted with its first job", firstRelease)}
		}
	}
	return nil
}

// Decode reads a campaign workload from its JSON form and validates it;
// source names the input in errors.
func Decode(r io.Reader, source string) (*Workload, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w Workload
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("%s: reading campaign workload: %w (want {\"users\": [...], \"campaigns\": [...]})", source, err)
	}
	if err := w.Validate(); err != nil {
		var we *WorkloadError
		if errors.As(err, &we) {
			we.Source = source
		}
		return nil, err
	}
	return &w, nil
}

// Encode writes w's JSON form, one campaign per line.
func (w *Workload) Encode(out io.Writer) error {
	users, err := json.Marshal(w.Users)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(out, "{\"users\": %s,\n\"campaigns\": [\n", users); err != nil {
		return err
	}
	for i := range w.Campaigns {
		b, err := json.Marshal(&w.Campaigns[i])
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == len(w.Campaigns)-1 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(out, "%s%s", b, sep); err != nil {
			return err
		}
	}
	_, err = io.WriteString(out, "]}\n")
	return err
}
