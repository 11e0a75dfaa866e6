package dag

import (
	"strings"
	"testing"
)

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"malformed", `{"jobs": [`, "malformed JSON"},
		{"unknown field", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 1, "cores": 1, "nodes": 2}]}]}`, `unknown field "nodes"`},
		{"zero exec", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 0, "cores": 1}]}]}`, `job 0 ("J1") task 0 ("T1") field "exec": 0; want an execution time >= 1 tick`},
		{"negative exec", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": -3, "cores": 1}]}]}`, `field "exec": -3`},
		{"dangling after", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 1, "cores": 1, "after": ["T7"]}]}]}`, `field "after": names "T7", which is not a task of this job`},
		{"cycle", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 1, "cores": 1, "after": ["T2"]}, {"id": "T2", "exec": 1, "cores": 1, "after": ["T1"]}]}]}`, "dependency cycle"},
		{"duplicate task", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 1, "cores": 1}, {"id": "T1", "exec": 1, "cores": 1}]}]}`, "duplicate of task 0"},
		{"wrong type", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": "ten", "cores": 1}]}]}`, `field "jobs.tasks.exec"`},
		{"negative delay", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 1, "delay": -2}]}]}`, `task 0 ("T1") field "delay": -2; want a network delay in ticks`},
	}
	for _, tc := range tests {
		_, err := Decode(strings.NewReader(tc.json), "w.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "w.json") {
			t.Errorf("%s: error %v, want one naming w.json and containing %q", tc.name, err, tc.want)
		}
	}
}

// TestCoresDefault: DESIGN.md section 6 makes cores optional with default
// 1; an explicit 0 is still an error.
func TestCoresDefault(t *testing.T) {
	w, err := Decode(strings.NewReader(`{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 3}, {"id": "T2", "exec": 2, "cores": 4}]}]}`), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{w.Jobs[0].Tasks[0].Cores, w.Jobs[0].Tasks[1].Cores}; got[0] != 1 || got[1] != 4 {
		t.Errorf("cores %v, want [1 4]", got)
	}
	if v := w.Jobs[0].Volume(); v != 3*1+2*4 {
		t.Errorf("volume %d, want 11", v)
	}
	_, err = Decode(strings.NewReader(`{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 3, "cores": 0}]}]}`), "w.json")
	if err == nil || !strings.Contains(err.Error(), `field "cores": 0; want >= 1 core`) {
		t.Errorf("explicit cores 0: %v", err)
	}
}

// TestOverflowBounds: values whose ticks or core-ticks overflow int64 are
// refused up front, naming the field, instead of running into a schedule
// that never finishes.
func TestOverflowBounds(t *testing.T) {
	tests := []struct{ name, json, want string }{
		{"exec x cores", `{"jobs": [{"id": "J1", "arrival": 0, "tasks": [{"id": "T1", "exec": 4600000000000000000, "cores": 1000}]}]}`,
			`job 0 ("J1") task 0 ("T1") field "exec": 4600000000000000000 x 1000 cores overflows`},
		{"arrival near 2^63", `{"jobs": [{"id": "J1", "arrival": 9223372036854775000, "tasks": [{"id": "T1", "exec": 10000}]}]}`,
			`job 0 ("J1") field "arrival": 9223372036854775000; want a tick <= 4611686018427387904`},
		{"horizon", `{"jobs": [{"id": "J1", "arrival": 4611686018427387000, "tasks": [{"id": "T1", "exec": 10000}]}]}`,
			`field "arrival": latest arrival 4611686018427387000 plus the sum of every task's exec and release 10000 passes`},
		{"total volume", `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 3000000000000000000, "cores": 2}]}, {"id": "J2", "tasks": [{"id": "T1", "exec": 3000000000000000000, "cores": 2}]}]}`,
			`job 1 ("J2") task 0 ("T1") field "exec": 3000000000000000000: the workload's total volume`},
	}
	for _, tc := range tests {
		_, err := Decode(strings.NewReader(tc.json), "w.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	ok := `{"jobs": [{"id": "J1", "arrival": 4611686018427000000, "tasks": [{"id": "T1", "exec": 10000, "cores": 1000}]}]}`
	if _, err := Decode(strings.NewReader(ok), "w.json"); err != nil {
		t.Errorf("a workload inside the bounds: %v", err)
	}
}

// TestDelayRoundTrip: an explicit delay of 0 (a free transfer) survives
// encoding, and a task without one stays without (the network's rule).
func TestDelayRoundTrip(t *testing.T) {
	in := `{"jobs": [{"id": "J1", "tasks": [{"id": "T1", "exec": 2, "delay": 0}, {"id": "T2", "exec": 1, "after": ["T1"]}]}]}`
	w, err := Decode(strings.NewReader(in), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := w.Encode(&b); err != nil {
		t.Fatal(err)
	}
	again, err := Decode(strings.NewReader(b.String()), "again.json")
	if err != nil {
		t.Fatal(err)
	}
	t1, t2 := again.Jobs[0].Tasks[0], again.Jobs[0].Tasks[1]
	if t1.DelayTicks == nil || *t1.DelayTicks != 0 || t2.DelayTicks != nil {
		t.Errorf("after a round trip through %s: delays %v, %v; want 0 and none", b.String(), t1.DelayTicks, t2.DelayTicks)
	}
}
