package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Default values of optional workload fields (DESIGN.md section 6).
const (
	DefaultShare = "default"
	DefaultKind  = "Kind1"
)

// A Workload is a set of jobs, the input of `sweep simulate` and the output
// of `sweep gen`. Its JSON form is the file format of DESIGN.md section 6.
type Workload struct {
	Jobs []Job `json:"jobs"`
}

// A Job is a DAG of tasks submitted at Arrival (ticks). Arrival is nil when
// the workload leaves arrivals to a load ratio.
type Job struct {
	ID      string `json:"id"`
	Arrival *int64 `json:"arrival,omitempty"`
	Share   string `json:"share,omitempty"`
	Tasks   []Task `json:"tasks"`
}

// A Task runs for ExecTicks on Cores cores of one architecture Kind, after
// every task named in After has finished (and any network delay elapsed),
// and no earlier than ReleaseTicks after its job's arrival.
type Task struct {
	ID        string   `json:"id"`
	ExecTicks int64    `json:"exec"`
	Cores     int      `json:"cores"`
	Kind      string   `json:"kind,omitempty"`
	After     []string `json:"after,omitempty"`
	// ReleaseTicks delays the task's readiness past its job's arrival: a
	// job replayed from a trace whose tasks were submitted over time.
	ReleaseTicks int64 `json:"release,omitempty"`
}

// ShareOrDefault returns the job's share, DefaultShare when unset.
func (j *Job) ShareOrDefault() string {
	if j.Share == "" {
		return DefaultShare
	}
	return j.Share
}

// KindOrDefault returns the task's kind, DefaultKind when unset.
func (t *Task) KindOrDefault() string {
	if t.Kind == "" {
		return DefaultKind
	}
	return t.Kind
}

// Volume returns the job's total execution time in core-ticks:
// the sum over its tasks of exec x cores.
func (j *Job) Volume() int64 {
	var v int64
	for i := range j.Tasks {
		v += j.Tasks[i].ExecTicks * int64(j.Tasks[i].Cores)
	}
	return v
}

// HasArrivals reports whether every job has an arrival time.
func (w *Workload) HasArrivals() bool {
	for i := range w.Jobs {
		if w.Jobs[i].Arrival == nil {
			return false
		}
	}
	return len(w.Jobs) > 0
}

// A WorkloadError locates a problem in a workload: the job and task (by id
// and position) and the field, with what would be valid.
type WorkloadError struct {
	Source string // file name, if known
	Job    int    // job position, -1 if not about a job
	JobID  string
	Task   int // task position in its job, -1 if not about a task
	TaskID string
	Field  string
	Msg    string
}

func (e *WorkloadError) Error() string {
	var b bytes.Buffer
	if e.Source != "" {
		fmt.Fprintf(&b, "%s: ", e.Source)
	}
	if e.Job >= 0 {
		fmt.Fprintf(&b, "job %d (%q)", e.Job, e.JobID)
		if e.Task >= 0 {
			fmt.Fprintf(&b, " task %d (%q)", e.Task, e.TaskID)
		}
		if e.Field != "" {
			fmt.Fprintf(&b, " field %q", e.Field)
		}
		b.WriteString(": ")
	} else if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// DecodeWorkload reads a workload from its JSON form and validates its
// structure (see Validate). source names the input in errors.
func DecodeWorkload(r io.Reader, source string) (*Workload, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w Workload
	if err := dec.Decode(&w); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: malformed JSON at byte %d: %v", source, se.Offset, err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: field %q at byte %d: got JSON %s, want %s", source, te.Field, te.Offset, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%s: malformed JSON: %w (want {\"jobs\": [{\"id\": ..., \"tasks\": [...]}]})", source, err)
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

// Encode writes the workload's JSON form, one job per line so that large
// workloads stay diffable.
func (w *Workload) Encode(out io.Writer) error {
	if _, err := io.WriteString(out, "{\"jobs\": [\n"); err != nil {
		return err
	}
	for i := range w.Jobs {
		b, err := json.Marshal(&w.Jobs[i])
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(out, ",\n"); err != nil {
				return err
			}
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(out, "\n]}\n")
	return err
}

// Validate checks what can be checked without a platform: at least one job,
// ids present and unique (per workload for jobs, per job for tasks), exec
// and cores >= 1, arrivals >= 0, and `after` naming earlier-or-later tasks
// of the same job without cycles.
func (w *Workload) Validate() error {
	if len(w.Jobs) == 0 {
		return &WorkloadError{Job: -1, Task: -1, Field: "jobs", Msg: "no jobs; want at least one"}
	}
	jobIDs := make(map[string]int, len(w.Jobs))
	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		jerr := func(field, format string, args ...any) error {
			return &WorkloadError{Job: ji, JobID: j.ID, Task: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
		}
		if j.ID == "" {
			return jerr("id", "empty; want a unique job id")
		}
		if prev, dup := jobIDs[j.ID]; dup {
			return jerr("id", "duplicate of job %d; job ids must be unique", prev)
		}
		jobIDs[j.ID] = ji
		if j.Arrival != nil && *j.Arrival < 0 {
			return jerr("arrival", "%d; want a tick >= 0", *j.Arrival)
		}
		if len(j.Tasks) == 0 {
			return jerr("tasks", "no tasks; want at least one")
		}
		if _, err := taskOrder(j, ji); err != nil {
			return err
		}
	}
	return nil
}

// taskOrder validates a job's tasks and returns its predecessor lists as
// task positions. It reports dangling and cyclic `after` references.
func taskOrder(j *Job, ji int) ([][]int32, error) {
	terr := func(ti int, field, format string, args ...any) error {
		return &WorkloadError{Job: ji, JobID: j.ID, Task: ti, TaskID: j.Tasks[ti].ID, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	pos := make(map[string]int, len(j.Tasks))
	for ti := range j.Tasks {
		t := &j.Tasks[ti]
		if t.ID == "" {
			return nil, terr(ti, "id", "empty; want a task id unique within the job")
		}
		if prev, dup := pos[t.ID]; dup {
			return nil, terr(ti, "id", "duplicate of task %d; task ids must be unique within a job", prev)
		}
		pos[t.ID] = ti
		if t.ExecTicks < 1 {
			return nil, terr(ti, "exec", "%d; want an execution time >= 1 tick", t.ExecTicks)
		}
		if t.Cores < 1 {
			return nil, terr(ti, "cores", "%d; want >= 1 core", t.Cores)
		}
		if t.ReleaseTicks < 0 {
			return nil, terr(ti, "release", "%d; want ticks >= 0 after the job's arrival", t.ReleaseTicks)
		}
	}
	preds := make([][]int32, len(j.Tasks))
	for ti := range j.Tasks {
		for _, name := range j.Tasks[ti].After {
			p, ok := pos[name]
			if !ok {
				return nil, terr(ti, "after", "names %q, which is not a task of this job", name)
			}
			if p == ti {
				return nil, terr(ti, "after", "names the task itself; a task cannot depend on itself")
			}
			preds[ti] = append(preds[ti], int32(p))
		}
	}
	// Kahn's algorithm: whatever is left unvisited lies on or behind a cycle.
	indeg := make([]int, len(j.Tasks))
	succs := make([][]int32, len(j.Tasks))
	for ti, ps := range preds {
		indeg[ti] = len(ps)
		for _, p := range ps {
			succs[p] = append(succs[p], int32(ti))
		}
	}
	queue := make([]int32, 0, len(j.Tasks))
	for ti, d := range indeg {
		if d == 0 {
			queue = append(queue, int32(ti))
		}
	}
	for k := 0; k < len(queue); k++ {
		for _, s := range succs[queue[k]] {
			indeg[s]--
			if indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	if len(queue) < len(j.Tasks) {
		for ti, d := range indeg {
			if d > 0 {
				return nil, terr(ti, "after", "is part of a dependency cycle; `after` must form a DAG")
			}
		}
	}
	return preds, nil
}
