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
	var f fileJSON
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: malformed JSON at byte %d: %v", source, se.Offset, err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: field %q at byte %d: got JSON %s, want %s", source, te.Field, te.Offset, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%s: malformed JSON: %w (want a Batsim workload {\"nb_res\": N, \"jobs\": [...], \"profiles\": {...}})", source, err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", source, fmt.Sprintf(format, args...))
	}
	if f.NbRes == nil {
		return nil, fail(`field "nb_res": missing; want the number of resources (processors), an integer >= 1`)
	}
	if !whole(*f.NbRes) || *f.NbRes < 1 || *f.NbRes > math.MaxInt32 {
		return nil, fail(`field "nb_res": %v; want an integer in [1, %d]`, *f.NbRes, math.MaxInt32)
	}
	if len(f.Jobs) == 0 {
		return nil, fail(`field "jobs": no jobs; want at least one`)
	}
	w := &rigid.Workload{Name: source, Procs: int(*f.NbRes), Jobs: make([]rigid.Job, len(f.Jobs))}
	ids := make([]string, len(f.Jobs))
	numeric := true
	for i := range f.Jobs {
		id, isNumber, err := jobID(f.Jobs[i].ID)
		if err != nil {
			return nil, fail("job %d field \"id\": %v", i, err)
		}
		ids[i] = id
		numeric = numeric && isNumber
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		if prev, dup := seen[id]; dup {
			return nil, fail("job %d (id %q) field \"id\": duplicate of job %d; want unique ids", i, id, prev)
		}
		seen[id] = i
	}
	delays := make(map[string]int64, len(f.Profiles))
	for i := range f.Jobs {
		j := &f.Jobs[i]
		jobFail := func(field, format string, args ...any) error {
			return fail("job %d (id %q) field %q: %s", i, ids[i], field, fmt.Sprintf(format, args...))
		}
		rj := &w.Jobs[i]
		rj.Number = int64(i + 1)
		if numeric {
			rj.Number, _ = strconv.ParseInt(ids[i], 10, 64)
		}
		switch {
		case j.Subtime == nil:
			return nil, jobFail("subtime", "missing; want the submission time in seconds")
		case !(*j.Subtime >= 0 && *j.Subtime <= maxSeconds):
			return nil, jobFail("subtime", "%v; want seconds in [0, %d]", *j.Subtime, int64(maxSeconds))
		}
		rj.SubmitSeconds = int64(math.Floor(*j.Subtime))
		switch {
		case j.Res == nil:
			return nil, jobFail("res", "missing; want the number of resources requested, an integer >= 1")
		case !whole(*j.Res) || *j.Res < 1 || *j.Res > *f.NbRes:
			return nil, jobFail("res", "%v; want an integer in [1, %d] (nb_res)", *j.Res, w.Procs)
		}
		rj.Procs = int(*j.Res)
		if j.Profile == nil {
			return nil, jobFail("profile", "missing; want the name of a delay profile")
		}
		run, ok := delays[*j.Profile]
		if !ok {
			var err error
			if run, err = delayOf(f.Profiles, *j.Profile); err != nil {
				return nil, jobFail("profile", "%v", err)
			}
			delays[*j.Profile] = run
		}
		rj.RunSeconds, rj.RequestedSeconds = run, run
		if wt := j.Walltime; wt != nil && *wt != -1 {
			if !(*wt > 0 && *wt <= maxSeconds) {
				return nil, jobFail("walltime", "%v; want seconds in (0, %d], or -1 (or no field) for none", *wt, int64(maxSeconds))
			}
			rj.RequestedSeconds = int64(math.Ceil(*wt))
			rj.RunSeconds = min(run, rj.RequestedSeconds)
		}
		if j.UserID != nil {
			if !whole(*j.UserID) || *j.UserID < 0 || *j.UserID > math.MaxInt32 {
				return nil, jobFail("user_id", "%v; want an integer >= 0", *j.UserID)
			}
			rj.User = int64(*j.UserID)
		}
	}
	w.SortJobs()
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
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
