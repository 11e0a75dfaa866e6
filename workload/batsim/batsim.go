// Package batsim reads Batsim's JSON workloads (github.com/oar-team/batsim,
// docs/input-workload.rst) as rigid-job workloads (workload/rigid): nb_res
// is the cluster's processors; each job's id, subtime, walltime, res and
// profile give its number, submit time, requested time, processors and
// run time. Only delay profiles ("type": "delay", or "DelayProfile" in
// Batsim 5) carry a run time; every other profile type is refused, naming
// the file, the job, the profile and the field.
//
// Batsim's times are float seconds; rigid workloads count whole seconds:
// subtime is rounded down (a job is never submitted later than Batsim
// would submit it), delay and walltime up (a job never runs or asks for
// less). Batsim kills a job at its walltime, so a delay longer than the
// walltime runs the walltime (rigid.Job's contract: run <= requested). A
// job without walltime (absent or -1) requests its run time. Job numbers
// are the ids when every id is a whole number (JSON number or numeric
// string); otherwise the jobs' 1-based positions in the file. The user is
// the optional integer field user_id (not part of Batsim's format, which
// ignores extra fields; 0 when absent).
//
// It is a leaf: it imports only the rigid workload contract.
package batsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// maxSeconds bounds every time so that sums of them stay far from int64
// overflow (about 292 years in seconds x 1000).
const maxSeconds = 1 << 53

// Load reads the Batsim workload in the file at path.
func Load(path string) (*rigid.Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading Batsim workload: %w", err)
	}
	return Decode(bytes.NewReader(data), path)
}

type fileJSON struct {
	NbRes    *float64                   `json:"nb_res"`
	Jobs     []jobJSON                  `json:"jobs"`
	Profiles map[string]json.RawMessage `json:"profiles"`
}

type jobJSON struct {
	ID       json.RawMessage `json:"id"`
	Subtime  *float64        `json:"subtime"`
	Walltime *float64        `json:"walltime"`
	Res      *float64        `json:"res"`
	Profile  *string         `json:"profile"`
	UserID   *float64        `json:"user_id"`
}

type profileJSON struct {
	Type  *string  `json:"type"`
	Delay *float64 `json:"delay"`
}

// Decode reads a Batsim workload and returns it as a validated rigid
// workload named source, its jobs sorted by submit time then number.
func Decode(r io.Reader, source string) (*rigid.Workload, error) {
	f, err := decodeJSON(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	w, err := f.workload(source)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	w.SortJobs()
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// decodeJSON decodes the file's JSON, saying where it is malformed or of
// the wrong type.
func decodeJSON(r io.Reader) (*fileJSON, error) {
	var f fileJSON
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("malformed JSON at byte %d: %v", se.Offset, err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("field %q at byte %d: got JSON %s, want %s", te.Field, te.Offset, te.Value, te.Type)
		}
		return nil, fmt.Errorf("malformed JSON: %w (want a Batsim workload {\"nb_res\": N, \"jobs\": [...], \"profiles\": {...}})", err)
	}
	return &f, nil
}

// workload checks the decoded file and converts it, job by job, into a
// rigid workload named source (its jobs in the file's order).
func (f *fileJSON) workload(source string) (*rigid.Workload, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	ids, numeric, err := jobIDs(f.Jobs)
	if err != nil {
		return nil, err
	}
	w := &rigid.Workload{Name: source, Procs: int(*f.NbRes), Jobs: make([]rigid.Job, len(f.Jobs))}
	delays := profileDelays{profiles: f.Profiles, seconds: make(map[string]int64, len(f.Profiles))}
	for i := range f.Jobs {
		run, err := checkJob(&f.Jobs[i], w.Procs, delays)
		if err != nil {
			return nil, fmt.Errorf("job %d (id %q) %w", i, ids[i], err)
		}
		w.Jobs[i] = convertJob(&f.Jobs[i], run)
		w.Jobs[i].Number = int64(i + 1)
		if numeric {
			w.Jobs[i].Number, _ = strconv.ParseInt(ids[i], 10, 64)
		}
	}
	return w, nil
}

// check checks the fields about the whole workload: nb_res and jobs.
func (f *fileJSON) check() error {
	if f.NbRes == nil {
		return errors.New(`field "nb_res": missing; want the number of resources (processors), an integer >= 1`)
	}
	if !whole(*f.NbRes) || *f.NbRes < 1 || *f.NbRes > math.MaxInt32 {
		return fmt.Errorf(`field "nb_res": %v; want an integer in [1, %d]`, *f.NbRes, math.MaxInt32)
	}
	if len(f.Jobs) == 0 {
		return errors.New(`field "jobs": no jobs; want at least one`)
	}
	return nil
}

// jobIDs returns the jobs' ids as text, checked unique, and whether every
// one is a whole number (then the ids are the jobs' numbers).
func jobIDs(jobs []jobJSON) (ids []string, numeric bool, err error) {
	ids = make([]string, len(jobs))
	numeric = true
	for i := range jobs {
		id, isNumber, err := jobID(jobs[i].ID)
		if err != nil {
			return nil, false, fmt.Errorf("job %d field \"id\": %v", i, err)
		}
		ids[i] = id
		numeric = numeric && isNumber
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		if prev, dup := seen[id]; dup {
			return nil, false, fmt.Errorf("job %d (id %q) field \"id\": duplicate of job %d; want unique ids", i, id, prev)
		}
		seen[id] = i
	}
	return ids, numeric, nil
}

// badField is a job's field that is missing or out of range.
func badField(field, format string, args ...any) error {
	return fmt.Errorf("field %q: %s", field, fmt.Sprintf(format, args...))
}

// checkJob checks a job's fields, in the order its errors name them, and
// returns its profile's run time (whole seconds).
func checkJob(j *jobJSON, procs int, delays profileDelays) (runSeconds int64, err error) {
	if err := checkSubtime(j.Subtime); err != nil {
		return 0, err
	}
	if err := checkRes(j.Res, procs); err != nil {
		return 0, err
	}
	if j.Profile == nil {
		return 0, badField("profile", "missing; want the name of a delay profile")
	}
	runSeconds, err = delays.of(*j.Profile)
	if err != nil {
		return 0, badField("profile", "%v", err)
	}
	if err := checkWalltime(j.Walltime); err != nil {
		return 0, err
	}
	return runSeconds, checkUserID(j.UserID)
}

func checkSubtime(subtime *float64) error {
	switch {
	case subtime == nil:
		return badField("subtime", "missing; want the submission time in seconds")
	case !(*subtime >= 0 && *subtime <= maxSeconds):
		return badField("subtime", "%v; want seconds in [0, %d]", *subtime, int64(maxSeconds))
	}
	return nil
}

func checkRes(res *float64, procs int) error {
	switch {
	case res == nil:
		return badField("res", "missing; want the number of resources requested, an integer >= 1")
	case !whole(*res) || *res < 1 || *res > float64(procs):
		return badField("res", "%v; want an integer in [1, %d] (nb_res)", *res, procs)
	}
	return nil
}

// checkWalltime accepts no walltime, -1 (none), or a positive time.
func checkWalltime(walltime *float64) error {
	if wt := walltime; wt != nil && *wt != -1 && !(*wt > 0 && *wt <= maxSeconds) {
		return badField("walltime", "%v; want seconds in (0, %d], or -1 (or no field) for none", *wt, int64(maxSeconds))
	}
	return nil
}

func checkUserID(userID *float64) error {
	if u := userID; u != nil && (!whole(*u) || *u < 0 || *u > math.MaxInt32) {
		return badField("user_id", "%v; want an integer >= 0", *u)
	}
	return nil
}

// convertJob converts a checked job whose profile runs runSeconds into a
// rigid job, rounding as the package comment says; its number is left to
// the caller.
func convertJob(j *jobJSON, runSeconds int64) rigid.Job {
	job := rigid.Job{
		SubmitSeconds: int64(math.Floor(*j.Subtime)),
		Procs:         int(*j.Res),
		RunSeconds:    runSeconds, RequestedSeconds: runSeconds,
	}
	if wt := j.Walltime; wt != nil && *wt != -1 {
		job.RequestedSeconds = int64(math.Ceil(*wt))
		job.RunSeconds = min(runSeconds, job.RequestedSeconds)
	}
	if j.UserID != nil {
		job.User = int64(*j.UserID)
	}
	return job
}

// profileDelays gives the run time of the delay profiles by name, each
// profile read once.
type profileDelays struct {
	profiles map[string]json.RawMessage
	seconds  map[string]int64
}

func (d profileDelays) of(name string) (int64, error) {
	if run, ok := d.seconds[name]; ok {
		return run, nil
	}
	run, err := delayOf(d.profiles, name)
	if err != nil {
		return 0, err
	}
	d.seconds[name] = run
	return run, nil
}

// jobID returns a job id's text and whether it is a whole number >= 0.
func jobID(raw json.RawMessage) (string, bool, error) {
	if len(raw) == 0 {
		return "", false, errors.New("missing; want a unique job id (string or integer)")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "" {
			return "", false, errors.New("empty; want a unique job id")
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return s, err == nil && n >= 0 && strconv.FormatInt(n, 10) == s, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return "", false, fmt.Errorf("%s; want a string or an integer", raw)
	}
	if !whole(f) || f < 0 || f > maxSeconds {
		return "", false, fmt.Errorf("%s; want a string or an integer >= 0", raw)
	}
	return strconv.FormatInt(int64(f), 10), true, nil
}

// delayOf returns the run time of the delay profile called name.
func delayOf(profiles map[string]json.RawMessage, name string) (int64, error) {
	raw, ok := profiles[name]
	if !ok {
		return 0, fmt.Errorf("%q is not in \"profiles\"", name)
	}
	var p profileJSON
	if err := json.Unmarshal(raw, &p); err != nil {
		return 0, fmt.Errorf("profile %q: %v", name, err)
	}
	switch {
	case p.Type == nil:
		return 0, fmt.Errorf("profile %q field \"type\": missing; want \"delay\"", name)
	case *p.Type != "delay" && *p.Type != "DelayProfile":
		return 0, fmt.Errorf("profile %q field \"type\": %q is not supported; sweep's rigid model reads only delay profiles (\"delay\" or \"DelayProfile\"), whose run time does not depend on the platform", name, *p.Type)
	case p.Delay == nil:
		return 0, fmt.Errorf("profile %q field \"delay\": missing; want the run time in seconds", name)
	case !(*p.Delay > 0 && *p.Delay <= maxSeconds):
		return 0, fmt.Errorf("profile %q field \"delay\": %v; want seconds in (0, %d] (a rigid job runs at least 1 s)", name, *p.Delay, int64(maxSeconds))
	}
	return int64(math.Ceil(*p.Delay)), nil
}

func whole(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }
