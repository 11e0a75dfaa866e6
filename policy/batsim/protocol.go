package batsim

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/engine/placement"
)

// The decisions of the supported subset.
const (
	executeJob  = "EXECUTE_JOB"
	rejectJob   = "REJECT_JOB"
	callMeLater = "CALL_ME_LATER"
	notify      = "NOTIFY"
)

// decision is one event of a scheduler's reply.
type decision struct {
	kind      string // one of the constants above
	atNanos   int64  // its timestamp
	jobID     string // EXECUTE_JOB, REJECT_JOB
	alloc     []int  // EXECUTE_JOB: resource ids, ascending
	callNanos int64  // CALL_ME_LATER: when to be called
	notify    string // NOTIFY: its type
}

func (d *decision) String() string {
	switch d.kind {
	case executeJob:
		return fmt.Sprintf("%s %s on %q", d.kind, d.jobID, formatIntervals(d.alloc))
	case rejectJob:
		return d.kind + " " + d.jobID
	case callMeLater:
		return fmt.Sprintf("%s at %s s", d.kind, formatSeconds(d.callNanos))
	}
	return d.kind + " " + d.notify
}

// reply is a decoded message of the scheduler.
type reply struct {
	nowNanos  int64
	decisions []decision
}

// shift moves every time of the reply by deltaNanos (from the protocol's
// clock to the workload's).
func (r *reply) shift(deltaNanos int64) {
	r.nowNanos += deltaNanos
	for i := range r.decisions {
		r.decisions[i].atNanos += deltaNanos
		if r.decisions[i].kind == callMeLater {
			r.decisions[i].callNanos += deltaNanos
		}
	}
}

// wireMessage and wireEvent are the JSON shapes of a message (Batsim
// protocol, "Message Composition"); pointers tell missing fields apart.
type wireMessage struct {
	Now    *float64     `json:"now"`
	Events *[]wireEvent `json:"events"`
}

type wireEvent struct {
	Timestamp *float64        `json:"timestamp"`
	Type      *string         `json:"type"`
	Data      json.RawMessage `json:"data"`
}

// decodeReply reads one reply of the scheduler, checking the protocol's
// constraints: "now" and "events" present, every timestamp a number not
// after "now" and in non-decreasing order, and every event a supported
// decision with valid data. It never panics on any input (fuzzed).
func decodeReply(b []byte) (reply, error) {
	var m wireMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return reply{}, fmt.Errorf("invalid JSON message %s: %w", excerpt(b), err)
	}
	if m.Now == nil {
		return reply{}, fmt.Errorf("invalid message %s: no \"now\" number", excerpt(b))
	}
	if m.Events == nil {
		return reply{}, fmt.Errorf("invalid message %s: no \"events\" array", excerpt(b))
	}
	now, err := nanos(*m.Now)
	if err != nil {
		return reply{}, fmt.Errorf("message \"now\": %w", err)
	}
	r := reply{nowNanos: now, decisions: make([]decision, 0, len(*m.Events))}
	last := int64(math.MinInt64)
	for i, e := range *m.Events {
		d, err := decodeEvent(e)
		if err != nil {
			return reply{}, fmt.Errorf("event %d of the reply: %w", i, err)
		}
		switch {
		case d.atNanos > now:
			return reply{}, fmt.Errorf("event %d (%s): timestamp %s s after the message's now %s s", i, d.kind, formatSeconds(d.atNanos), formatSeconds(now))
		case d.atNanos < last:
			return reply{}, fmt.Errorf("event %d (%s): timestamp %s s before the previous event's %s s: timestamps must not decrease", i, d.kind, formatSeconds(d.atNanos), formatSeconds(last))
		}
		last = d.atNanos
		r.decisions = append(r.decisions, d)
	}
	return r, nil
}

func decodeEvent(e wireEvent) (decision, error) {
	if e.Type == nil {
		return decision{}, fmt.Errorf("no \"type\" string")
	}
	d := decision{kind: *e.Type}
	if e.Timestamp == nil {
		return decision{}, fmt.Errorf("%s: no \"timestamp\" number", d.kind)
	}
	var err error
	if d.atNanos, err = nanos(*e.Timestamp); err != nil {
		return decision{}, fmt.Errorf("%s: timestamp: %w", d.kind, err)
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(e.Data, &data); err != nil || data == nil {
		return decision{}, fmt.Errorf("%s: \"data\" must be an object", d.kind)
	}
	str := func(key string) (string, error) {
		var s string
		raw, ok := data[key]
		if !ok {
			return "", fmt.Errorf("%s: no %q in data", d.kind, key)
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("%s: %q must be a string", d.kind, key)
		}
		return s, nil
	}
	var allowed map[string]bool
	switch d.kind {
	case executeJob:
		// mapping places ranks inside the allocation: no effect on a delay
		// job, so it is accepted and ignored.
		allowed = map[string]bool{"job_id": true, "alloc": true, "mapping": true}
		if d.jobID, err = str("job_id"); err != nil {
			return decision{}, err
		}
		alloc, err := str("alloc")
		if err != nil {
			return decision{}, err
		}
		if d.alloc, err = parseIntervals(alloc); err != nil {
			return decision{}, fmt.Errorf("%s %s: alloc: %w", d.kind, d.jobID, err)
		}
	case rejectJob:
		allowed = map[string]bool{"job_id": true}
		if d.jobID, err = str("job_id"); err != nil {
			return decision{}, err
		}
	case callMeLater:
		allowed = map[string]bool{"timestamp": true}
		var at *float64
		if err := json.Unmarshal(data["timestamp"], &at); err != nil || at == nil {
			return decision{}, fmt.Errorf("%s: \"timestamp\" must be a number", d.kind)
		}
		if d.callNanos, err = nanos(*at); err != nil {
			return decision{}, fmt.Errorf("%s: timestamp: %w", d.kind, err)
		}
	case notify:
		allowed = map[string]bool{"type": true}
		if d.notify, err = str("type"); err != nil {
			return decision{}, err
		}
		switch d.notify {
		case "registration_finished", "continue_registration":
		default:
			return decision{}, fmt.Errorf("NOTIFY %q is not supported (sweep accepts registration_finished and continue_registration, which are no-ops without dynamic jobs)", d.notify)
		}
	default:
		return decision{}, fmt.Errorf("%q is not supported: sweep's Batsim subset accepts EXECUTE_JOB, REJECT_JOB, CALL_ME_LATER and NOTIFY", d.kind)
	}
	for key := range data {
		if !allowed[key] {
			return decision{}, fmt.Errorf("%s: data field %q is not supported", d.kind, key)
		}
	}
	return d, nil
}

// maxSeconds bounds the times a message may carry, so that nanoseconds
// fit an int64 with room to add run times (about 146 years).
const maxSeconds = 1 << 32

// nanos converts protocol seconds to integer nanoseconds, rounding to the
// nearest: pybatsim's default scheduling delay of 1e-21 s becomes 0.
func nanos(seconds float64) (int64, error) {
	if math.IsNaN(seconds) || seconds < 0 || seconds > maxSeconds {
		return 0, fmt.Errorf("%g s: want a time in [0, %d] s", seconds, int64(maxSeconds))
	}
	return int64(math.Round(seconds * placement.NanosPerSecond)), nil
}

// appendSeconds writes nanoseconds as a JSON number of seconds the way
// Batsim's writer prints doubles: whole seconds with ".0".
func appendSeconds(b []byte, n int64) []byte {
	if n%placement.NanosPerSecond == 0 {
		b = strconv.AppendInt(b, n/placement.NanosPerSecond, 10)
		return append(b, ".0"...)
	}
	return strconv.AppendFloat(b, float64(n)/placement.NanosPerSecond, 'f', -1, 64)
}

// formatSeconds writes nanoseconds as seconds for messages: "12" or
// "12.5".
func formatSeconds(n int64) string {
	if n%placement.NanosPerSecond == 0 {
		return strconv.FormatInt(n/placement.NanosPerSecond, 10)
	}
	return strconv.FormatFloat(float64(n)/placement.NanosPerSecond, 'f', -1, 64)
}

// maxIntervalIDs bounds an allocation's size before the resource count
// is known, so a reply like "0-999999999999" cannot exhaust memory.
const maxIntervalIDs = 1 << 24

// parseIntervals reads Batsim's interval set string ("0-3 7 9-10"):
// space-separated ids or inclusive ranges, ascending and disjoint.
func parseIntervals(s string) ([]int, error) {
	var ids []int
	for _, tok := range strings.Fields(s) {
		lo, hi, isRange := strings.Cut(tok, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q: %q is not a resource id", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q: range %q: want a-b with a <= b", s, tok)
			}
		}
		if len(ids) > 0 && a <= ids[len(ids)-1] {
			return nil, fmt.Errorf("%q: %q repeats or precedes resource %d: want ascending disjoint intervals", s, tok, ids[len(ids)-1])
		}
		if b-a >= maxIntervalIDs-len(ids) {
			return nil, fmt.Errorf("%q: more than %d resources", s, maxIntervalIDs)
		}
		for id := a; id <= b; id++ {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%q: empty allocation", s)
	}
	return ids, nil
}

// formatIntervals writes ascending ids as an interval set ("0-3 7").
func formatIntervals(ids []int) string {
	return string(appendIntervals(nil, ids))
}

func appendIntervals(b []byte, ids []int) []byte {
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(ids[i]), 10)
		if j > i {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(ids[j]), 10)
		}
		i = j + 1
	}
	return b
}

// excerpt quotes the start of a message for errors.
func excerpt(b []byte) string {
	const n = 200
	if len(b) > n {
		return strconv.Quote(string(b[:n])) + "..."
	}
	return strconv.Quote(string(b))
}
