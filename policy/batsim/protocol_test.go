package batsim

import (
	"slices"
	"strings"
	"testing"
)

func TestDecodeReply(t *testing.T) {
	// pybatsim at 11 s with its default delay of 1e-21 s per pass: the
	// delay rounds away in nanoseconds.
	_, err := decodeReply([]byte(`{"now": 11.000000000000000000002, "events": [{"timestamp": 11.000000000000000000001, "type": "EXECUTE_JOB", "data": {"job_id": "w0!3", "alloc": "0-1 4 6-9"}}, {"timestamp": 11.5, "type": "CALL_ME_LATER", "data": {"timestamp": 25.5}}]}`))
	if err == nil {
		t.Fatal("a timestamp after now was accepted")
	}
	r, err := decodeReply([]byte(`{"now": 11.5, "events": [{"timestamp": 11.000000000000000000001, "type": "EXECUTE_JOB", "data": {"job_id": "w0!3", "alloc": "0-1 4 6-9"}}, {"timestamp": 11.5, "type": "CALL_ME_LATER", "data": {"timestamp": 25.5}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.nowNanos != 11_500_000_000 || len(r.decisions) != 2 {
		t.Fatalf("now %d, %d decisions: want 11.5 s, 2", r.nowNanos, len(r.decisions))
	}
	d := r.decisions[0]
	if d.atNanos != 11_000_000_000 || d.jobID != "w0!3" || !slices.Equal(d.alloc, []int{0, 1, 4, 6, 7, 8, 9}) {
		t.Errorf("execute: %+v", d)
	}
	if c := r.decisions[1]; c.kind != callMeLater || c.callNanos != 25_500_000_000 {
		t.Errorf("call: %+v", c)
	}
	bad := []struct{ msg, want string }{
		{`this is not JSON`, "invalid JSON message"},
		{`{"events": []}`, `no "now" number`},
		{`{"now": 1.0}`, `no "events" array`},
		{`{"now": -1, "events": []}`, "want a time in [0, 4294967296] s"},
		{`{"now": 2.0, "events": [{"timestamp": 3.0, "type": "REJECT_JOB", "data": {"job_id": "w0!1"}}]}`, "timestamp 3 s after the message's now 2 s"},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "REJECT_JOB", "data": {"job_id": "w0!1"}}, {"timestamp": 2.0, "type": "REJECT_JOB", "data": {"job_id": "w0!2"}}]}`, "timestamps must not decrease"},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "KILL_JOB", "data": {"job_ids": ["w0!1"]}}]}`, `"KILL_JOB" is not supported`},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "NOTIFY", "data": {"type": "continue_please"}}]}`, `NOTIFY "continue_please" is not supported`},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "3-1"}}]}`, `range "3-1": want a-b with a <= b`},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "0-3 2"}}]}`, "want ascending disjoint intervals"},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "0-99999999999"}}]}`, "more than 16777216 resources"},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": ""}}]}`, "empty allocation"},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "0", "additional_io_job": {}}}]}`, `data field "additional_io_job" is not supported`},
		{`{"now": 3.0, "events": [{"timestamp": 3.0, "type": "EXECUTE_JOB", "data": {"alloc": "0"}}]}`, `no "job_id" in data`},
		{`{"now": 3.0, "events": [{"type": "REJECT_JOB", "data": {"job_id": "w0!1"}}]}`, `no "timestamp" number`},
	}
	for _, c := range bad {
		if _, err := decodeReply([]byte(c.msg)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.msg, err, c.want)
		}
	}
}

func TestIntervals(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		text string
	}{{[]int{0}, "0"}, {[]int{0, 1, 2, 3, 7}, "0-3 7"}, {[]int{2, 4, 5, 9, 10, 11}, "2 4-5 9-11"}} {
		if got := formatIntervals(c.ids); got != c.text {
			t.Errorf("format %v = %q, want %q", c.ids, got, c.text)
		}
		if got, err := parseIntervals(c.text); err != nil || !slices.Equal(got, c.ids) {
			t.Errorf("parse %q = %v, %v; want %v", c.text, got, err, c.ids)
		}
	}
}
