package campaign

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestWorkloadRelease: a job's "release" survives Encode and Decode and
// reaches the DAG task; Decode rejects a negative release, a campaign
// none of whose jobs is released with it, and a recorded start before the
// job's own submission (campaign submit 10 + release 5 = 15).
func TestWorkloadRelease(t *testing.T) {
	start := int64(15)
	w := &Workload{
		Users:     []User{{ID: "u1"}},
		Campaigns: []Campaign{{SubmitTicks: 10, Jobs: []Job{{ExecTicks: 4}, {ExecTicks: 2, ReleaseTicks: 5, LogStartTicks: &start}}}},
	}
	var buf bytes.Buffer
	if err := w.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(&buf, "w.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("round trip: got %+v, want %+v", got, w)
	}
	if r := got.DAG().Jobs[0].Tasks[1].ReleaseTicks; r != 5 {
		t.Errorf("DAG task release %d, want 5", r)
	}
	for _, tc := range []struct{ jobs, want string }{
		{`[{"exec": 4}, {"exec": 2, "release": -1}]`, `campaign 0 job 1 field "release"`},
		{`[{"exec": 4, "release": 2}, {"exec": 2, "release": 5}]`, `campaign 0 field "release": every job has release >= 2`},
		{`[{"exec": 4}, {"exec": 2, "release": 5, "log_start": 14}]`, `campaign 0 job 1 field "log_start": 14 is before the job's submission 15`},
	} {
		in := `{"users": [{"id": "u1"}], "campaigns": [{"user": 0, "submit": 10, "jobs": ` + tc.jobs + `}]}`
		_, err := Decode(strings.NewReader(in), "w.json")
		if err == nil || !strings.Contains(err.Error(), "w.json: "+tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.jobs, err, tc.want)
		}
	}
}

// TestZeroExecJob: a job of 0 ticks (a trace job that ran 0 seconds) is
// valid, adds no work and is compiled as a task of 1 tick; a negative
// execution is an error.
func TestZeroExecJob(t *testing.T) {
	in := `{"users": [{"id": "u1"}], "campaigns": [{"user": 0, "submit": 0, "jobs": [{"exec": 0}, {"exec": 3}]}]}`
	w, err := Decode(strings.NewReader(in), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	c := &w.Campaigns[0]
	if c.WorkTicks() != 3 || c.LongestTicks() != 3 || w.DAG().Jobs[0].Tasks[0].ExecTicks != 1 || w.DAG().Jobs[0].Tasks[1].ExecTicks != 3 {
		t.Errorf("work %d, longest %d, tasks %+v; want 3, 3, execs 1 and 3", c.WorkTicks(), c.LongestTicks(), w.DAG().Jobs[0].Tasks)
	}
	bad := strings.Replace(in, `"exec": 0`, `"exec": -1`, 1)
	if _, err := Decode(strings.NewReader(bad), "w.json"); err == nil || !strings.Contains(err.Error(), `campaign 0 job 0 field "exec": -1; want >= 0 ticks`) {
		t.Errorf("negative exec: error %v", err)
	}
}
