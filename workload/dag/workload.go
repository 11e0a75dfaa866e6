package dag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Default values of optional workload fields (DESIGN.md section 6).
const (
	DefaultShare = "default"
	DefaultKind  = "Kind1"
	DefaultCores = 1
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
	// DelayTicks, when set, is the network delay of every edge leaving the
	// task that crosses clusters, in place of the network's rule from the
	// task's exec (ceil(exec x CCR)): a delay known from the data the task
	// sends, as for workflow instances with file sizes (gen/wfcommons).
	// The simulator keeps one delay per source task, so this one value
	// serves every successor. Absent means the network's rule; 0 is a
	// free transfer.
	DelayTicks *int64 `json:"delay,omitempty"`
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

// A Error locates a problem in a workload: the job and task (by id
// and position) and the field, with what would be valid.
type Error struct {
	Source string // file name, if known
	Job    int    // job position, -1 if not about a job
	JobID  string
	Task   int // task position in its job, -1 if not about a task
	TaskID string
	Field  string
	Msg    string
}

func (e *Error) Error() string {
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

// Decode reads a workload from its JSON form and validates its
// structure (see Validate). source names the input in errors.
func Decode(r io.Reader, source string) (*Workload, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var file struct {
		Jobs []struct {
			Job
			Tasks []struct {
				Task
				// Cores is a pointer here to tell an absent field, which
				// means DefaultCores, from an explicit 0, which is invalid.
				Cores *int `json:"cores"`
			} `json:"tasks"`
		} `json:"jobs"`
	}
	if err := dec.Decode(&file); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: malformed JSON at byte %d: %v", source, se.Offset, err)
		case errors.As(err, &te):
			// The decoding structs embed Job and Task; their names are not
			// part of the file's field paths.
			field := strings.NewReplacer(".Job.", ".", ".Task.", ".").Replace(te.Field)
			return nil, fmt.Errorf("%s: field %q at byte %d: got JSON %s, want %s", source, field, te.Offset, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%s: malformed JSON: %w (want {\"jobs\": [{\"id\": ..., \"tasks\": [...]}]})", source, err)
	}
	w := Workload{Jobs: make([]Job, len(file.Jobs))}
	for ji, fj := range file.Jobs {
		j := fj.Job
		j.Tasks = make([]Task, len(fj.Tasks))
		for ti, ft := range fj.Tasks {
			j.Tasks[ti] = ft.Task
			j.Tasks[ti].Cores = DefaultCores
			if ft.Cores != nil {
				j.Tasks[ti].Cores = *ft.Cores
			}
		}
		w.Jobs[ji] = j
	}
	if err := w.Validate(); err != nil {
		var we *Error
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

// MaxTicks bounds every tick a simulation of a workload can reach: the
// latest arrival plus the sum of every task's exec and release offset must
// not exceed it. It leaves headroom below 2^63 for network delays, which
// depend on the platform and are checked when an instance is compiled.
const MaxTicks = 1 << 62

// Validate checks what can be checked without a platform: at least one job,
// ids present and unique (per workload for jobs, per job for tasks), exec
// and cores >= 1, arrivals >= 0, `after` naming earlier-or-later tasks of
// the same job without cycles, and counts that fit 64 bits: exec x cores
// per task, the total volume, and the horizon (see MaxTicks).
func (w *Workload) Validate() error {
	if len(w.Jobs) == 0 {
		return &Error{Job: -1, Task: -1, Field: "jobs", Msg: "no jobs; want at least one"}
	}
	if err := w.checkBounds(); err != nil {
		return err
	}
	jobIDs := make(map[string]int, len(w.Jobs))
	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		jerr := func(field, format string, args ...any) error {
			return &Error{Job: ji, JobID: j.ID, Task: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
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
		if _, err := j.Predecessors(ji); err != nil {
			return err
		}
	}
	return nil
}

// checkBounds rejects workloads whose volumes or horizon overflow int64,
// naming the job and field where the sum first passes the bound. It runs
// before the per-task checks, so it takes exec and cores as they are and
// leaves values below 1 to those.
func (w *Workload) checkBounds() error {
	var volume, work, lastArrival int64
	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		if j.Arrival != nil && *j.Arrival > lastArrival {
			lastArrival = *j.Arrival
			if lastArrival > MaxTicks {
				return &Error{Job: ji, JobID: j.ID, Task: -1, Field: "arrival", Msg: fmt.Sprintf("%d; want a tick <= %d", lastArrival, int64(MaxTicks))}
			}
		}
		for ti := range j.Tasks {
			t := &j.Tasks[ti]
			if t.ExecTicks < 1 || t.Cores < 1 || t.ReleaseTicks < 0 {
				continue
			}
			terr := func(field, format string, args ...any) error {
				return &Error{Job: ji, JobID: j.ID, Task: ti, TaskID: t.ID, Field: field, Msg: fmt.Sprintf(format, args...)}
			}
			if t.ExecTicks > math.MaxInt64/int64(t.Cores) {
				return terr("exec", "%d x %d cores overflows a 64-bit count of core-ticks; want exec x cores <= %d", t.ExecTicks, t.Cores, int64(math.MaxInt64))
			}
			v := t.ExecTicks * int64(t.Cores)
			if volume > math.MaxInt64-v {
				return terr("exec", "%d: the workload's total volume (exec x cores summed) passes %d core-ticks here", t.ExecTicks, int64(math.MaxInt64))
			}
			volume += v
			if t.ExecTicks > MaxTicks || t.ReleaseTicks > MaxTicks || work > MaxTicks-t.ExecTicks-t.ReleaseTicks {
				return terr("exec", "%d (release %d): the sum of every task's exec and release passes %d ticks here, so a schedule could overflow 64-bit time", t.ExecTicks, t.ReleaseTicks, int64(MaxTicks))
			}
			work += t.ExecTicks + t.ReleaseTicks
		}
	}
	if lastArrival > MaxTicks-work {
		return &Error{Job: -1, Task: -1, Field: "arrival", Msg: fmt.Sprintf("latest arrival %d plus the sum of every task's exec and release %d passes %d ticks, so a schedule could overflow 64-bit time", lastArrival, work, int64(MaxTicks))}
	}
	return nil
}

// Predecessors validates the tasks of the job at position ji and returns
// their predecessor lists as task positions. It reports dangling and cyclic
// `after` references.
func (j *Job) Predecessors(ji int) ([][]int32, error) {
	terr := func(ti int, field, format string, args ...any) error {
		return &Error{Job: ji, JobID: j.ID, Task: ti, TaskID: j.Tasks[ti].ID, Field: field, Msg: fmt.Sprintf(format, args...)}
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
		if t.DelayTicks != nil && (*t.DelayTicks < 0 || *t.DelayTicks > MaxTicks) {
			return nil, terr(ti, "delay", "%d; want a network delay in ticks in [0, %d], or no delay field for the network's rule", *t.DelayTicks, int64(MaxTicks))
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
