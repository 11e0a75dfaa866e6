package batsim

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestSmall reads testdata/small.json. By hand: job 2's subtime 10.7 is
// second 10, its delay 60 is cut to the walltime ceil(30.2) = 31; job 3
// runs ceil(20.25) = 21 s and, without a walltime, requests that; job "7"
// has walltime -1 (none). Sorted by submit, then number: 1 (0 s), 7 (5 s),
// 2 and 3 (both 10 s, by number).
func TestSmall(t *testing.T) {
	w, err := Load("testdata/small.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []rigid.Job{
		{Number: 1, SubmitSeconds: 0, Procs: 4, RunSeconds: 60, RequestedSeconds: 100},
		{Number: 7, SubmitSeconds: 5, Procs: 1, RunSeconds: 60, RequestedSeconds: 60},
		{Number: 2, User: 3, SubmitSeconds: 10, Procs: 8, RunSeconds: 31, RequestedSeconds: 31},
		{Number: 3, SubmitSeconds: 10, Procs: 2, RunSeconds: 21, RequestedSeconds: 21},
	}
	if w.Procs != 8 || w.Name != "testdata/small.json" || !reflect.DeepEqual(w.Jobs, want) {
		t.Errorf("got %d procs, %q,\n%+v\nwant 8, testdata/small.json,\n%+v", w.Procs, w.Name, w.Jobs, want)
	}
}

// TestNonNumericIDs: ids that are not all whole numbers number the jobs by
// position in the file.
func TestNonNumericIDs(t *testing.T) {
	text := `{"nb_res": 2, "profiles": {"p": {"type": "delay", "delay": 5}},
	 "jobs": [{"id": "w0!b", "subtime": 3, "res": 1, "profile": "p"}, {"id": "w0!a", "subtime": 1, "res": 2, "profile": "p"}]}`
	w, err := Decode(strings.NewReader(text), "ids.json")
	if err != nil {
		t.Fatal(err)
	}
	if w.Jobs[0].Number != 2 || w.Jobs[1].Number != 1 {
		t.Errorf("numbers %d, %d; want 2 (w0!a, second in the file, submitted first) then 1", w.Jobs[0].Number, w.Jobs[1].Number)
	}
}

func TestBadWorkloads(t *testing.T) {
	good := func() string {
		data, err := os.ReadFile("testdata/small.json")
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}()
	for _, tc := range []struct{ name, old, new, want string }{
		{"parallel profile", `"profile": "d20.25"`, `"profile": "unused"`,
			`bad.json: job 2 (id "3") field "profile": profile "unused" field "type": "parallel_homogeneous" is not supported; sweep's rigid model reads only delay profiles`},
		{"unknown profile", `"profile": "d20.25"`, `"profile": "nope"`, `job 2 (id "3") field "profile": "nope" is not in "profiles"`},
		{"no delay", `"type": "delay", "delay": 60`, `"type": "delay"`, `job 0 (id "1") field "profile": profile "d60" field "delay": missing`},
		{"zero delay", `"delay": 20.25`, `"delay": 0`, `profile "d20.25" field "delay": 0; want seconds in (0,`},
		{"too wide", `"res": 4`, `"res": 9`, `job 0 (id "1") field "res": 9; want an integer in [1, 8] (nb_res)`},
		{"fractional res", `"res": 4`, `"res": 1.5`, `field "res": 1.5`},
		{"negative subtime", `"subtime": 5`, `"subtime": -5`, `job 3 (id "7") field "subtime": -5`},
		{"missing subtime", `"subtime": 5, `, ``, `job 3 (id "7") field "subtime": missing`},
		{"bad walltime", `"walltime": 100`, `"walltime": 0`, `job 0 (id "1") field "walltime": 0`},
		{"duplicate id", `"id": "7"`, `"id": "1"`, `job 3 (id "1") field "id": duplicate of job 0`},
		{"no nb_res", `"nb_res": 8,`, ``, `field "nb_res": missing`},
		{"no type", `"type": "DelayProfile", `, ``, `profile "d20.25" field "type": missing`},
		{"wrong type", `"res": 4`, `"res": "4"`, `bad.json: field "jobs.res"`},
	} {
		if !strings.Contains(good, tc.old) {
			t.Fatalf("%s: the fixture lacks %q", tc.name, tc.old)
		}
		_, err := Decode(strings.NewReader(strings.Replace(good, tc.old, tc.new, 1)), "bad.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "bad.json") {
			t.Errorf("%s: %v\nwant an error naming bad.json and containing %q", tc.name, err, tc.want)
		}
	}
}

// FuzzDecode: any input fails with an error naming the file, or gives a
// rigid workload that passes rigid's own validation.
func FuzzDecode(f *testing.F) {
	data, err := os.ReadFile("testdata/small.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"nb_res": 1, "jobs": [{"id": "a", "subtime": 0.5, "walltime": 0.1, "res": 1, "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 0.2}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("accepted an invalid workload: %v", err)
		}
	})
}

// TestFieldErrors breaks, one at a time, each rule of the file's and the
// jobs' fields that TestBadWorkloads leaves out, on testdata/small.json,
// and checks the whole message: the file, the job (its position and id),
// the field, what it got and what would be valid.
func TestFieldErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/small.json")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	for _, tc := range []struct{ name, old, new, want string }{
		{"truncated", `"profiles"`, `"profiles`,
			`bad.json: malformed JSON at byte 459: invalid character '\n' in string literal`},
		{"no resources", `"nb_res": 8`, `"nb_res": 0`, `bad.json: field "nb_res": 0; want an integer in [1, 2147483647]`},
		{"fractional resources", `"nb_res": 8`, `"nb_res": 8.5`, `bad.json: field "nb_res": 8.5; want an integer in [1, 2147483647]`},
		{"no jobs", `"jobs": [`, `"jobs": [], "other": [`, `bad.json: field "jobs": no jobs; want at least one`},
		{"no id", `"id": 2, `, ``, `bad.json: job 1 field "id": missing; want a unique job id (string or integer)`},
		{"empty id", `"id": 2`, `"id": ""`, `bad.json: job 1 field "id": empty; want a unique job id`},
		{"negative id", `"id": 2`, `"id": -2`, `bad.json: job 1 field "id": -2; want a string or an integer >= 0`},
		{"fractional id", `"id": 2`, `"id": 2.5`, `bad.json: job 1 field "id": 2.5; want a string or an integer >= 0`},
		{"id neither string nor number", `"id": 2`, `"id": [2]`, `bad.json: job 1 field "id": [2]; want a string or an integer`},
		{"no res", `"res": 8, `, ``,
			`bad.json: job 1 (id "2") field "res": missing; want the number of resources requested, an integer >= 1`},
		{"no profile", `, "profile": "d20.25"`, ``,
			`bad.json: job 2 (id "3") field "profile": missing; want the name of a delay profile`},
		{"subtime beyond 2^53", `"subtime": 10.7`, `"subtime": 1e16`,
			`bad.json: job 1 (id "2") field "subtime": 1e+16; want seconds in [0, 9007199254740992]`},
		{"negative user", `"user_id": 3`, `"user_id": -3`, `bad.json: job 1 (id "2") field "user_id": -3; want an integer >= 0`},
		{"fractional user", `"user_id": 3`, `"user_id": 3.5`, `bad.json: job 1 (id "2") field "user_id": 3.5; want an integer >= 0`},
	} {
		if !strings.Contains(good, tc.old) {
			t.Fatalf("%s: the fixture lacks %q", tc.name, tc.old)
		}
		_, err := Decode(strings.NewReader(strings.Replace(good, tc.old, tc.new, 1)), "bad.json")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	const empty = `bad.json: malformed JSON: EOF (want a Batsim workload {"nb_res": N, "jobs": [...], "profiles": {...}})`
	if _, err := Decode(strings.NewReader(""), "bad.json"); err == nil || err.Error() != empty {
		t.Errorf("empty file:\n got %v\nwant %s", err, empty)
	}
}

// TestIDsAndRounding: an id "01" is not the whole number 1 as Batsim
// writes it, so the jobs are numbered by position; subtime 2.9 is second
// 2 (rounded down), walltime 7.1 requests 8 s (up), and a delay of 3.5
// runs 4 s, within the walltime; the second job's delay (4 s) is cut to
// its walltime of 2 s.
func TestIDsAndRounding(t *testing.T) {
	text := `{"nb_res": 4, "profiles": {"p": {"type": "delay", "delay": 3.5}},
	 "jobs": [{"id": "01", "subtime": 2.9, "walltime": 7.1, "res": 3, "profile": "p", "user_id": 12},
	          {"id": 5, "subtime": 1, "walltime": 2, "res": 4, "profile": "p"}]}`
	w, err := Decode(strings.NewReader(text), "round.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []rigid.Job{
		{Number: 2, SubmitSeconds: 1, Procs: 4, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 1, User: 12, SubmitSeconds: 2, Procs: 3, RunSeconds: 4, RequestedSeconds: 8},
	}
	if w.Procs != 4 || !reflect.DeepEqual(w.Jobs, want) {
		t.Errorf("got %d procs,\n%+v\nwant 4,\n%+v", w.Procs, w.Jobs, want)
	}
}
