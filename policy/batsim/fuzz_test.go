package batsim

import (
	"slices"
	"testing"
)

// FuzzDecodeReply feeds arbitrary replies to the decoder (seed corpus in
// testdata/fuzz/FuzzDecodeReply: pybatsim's replies and broken ones). It
// must never panic, and what it accepts must keep the protocol's
// constraints: timestamps in order and not after now, allocations
// ascending and disjoint, which format and parse back unchanged.
func FuzzDecodeReply(f *testing.F) {
	f.Add([]byte(`{"now": 11.0, "events": [{"timestamp": 11.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!0", "alloc": "0-1"}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeReply(b)
		if err != nil {
			return
		}
		last := int64(-1)
		for _, d := range r.decisions {
			if d.atNanos > r.nowNanos || d.atNanos < last {
				t.Fatalf("%s at %d ns accepted with now %d ns after %d ns", &d, d.atNanos, r.nowNanos, last)
			}
			last = d.atNanos
			switch d.kind {
			case executeJob:
				if len(d.alloc) == 0 || d.alloc[0] < 0 || !slices.IsSorted(d.alloc) || len(slices.Compact(slices.Clone(d.alloc))) != len(d.alloc) {
					t.Fatalf("allocation %v accepted", d.alloc)
				}
				back, err := parseIntervals(formatIntervals(d.alloc))
				if err != nil || !slices.Equal(back, d.alloc) {
					t.Fatalf("allocation %v formats as %q, parses back as %v, %v", d.alloc, formatIntervals(d.alloc), back, err)
				}
			case rejectJob, callMeLater, notify:
			default:
				t.Fatalf("decision kind %q accepted", d.kind)
			}
		}
	})
}
