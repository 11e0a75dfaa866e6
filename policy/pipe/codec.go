// Package pipe is sweep's external-policy protocol (docs/protocol.md,
// version ProtocolVersion): a scheduling policy runs as a decision process
// (any language) that reads one JSON object per line on its stdin and
// answers each with one line on its stdout. It drives the rigid-job
// simulator (engine/backfill, through its Decider hook) and the grid DAG
// simulator (engine, through JobPriorityOrders), so an external policy
// runs the built-in policies' event loops and is compared with them cell
// for cell. The process is supervised by policy/child: its own process
// group, the parent-death signal, a per-decision deadline and its last
// stderr lines in every fault.
package pipe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// ProtocolVersion is the version of the protocol on processors (and for
// DAGs); a policy answers the hello with the version it was sent, and a
// mismatch fails the cell. Machines of nodes speak ProtocolVersionNodes.
const ProtocolVersion = 1

// maxLineBytes bounds one reply line: a reply of the whole KTH trace's
// jobs is under 1 MiB.
const maxLineBytes = 64 << 20

// helloReply is the policy's answer to the hello.
type helloReply struct {
	Type     *string `json:"type"`
	Protocol *int    `json:"protocol"`
}

// startReply is a rigid policy's answer to a decide message.
type startReply struct {
	Start *[]int64 `json:"start"`
}

// priorityReply is a DAG policy's answer to a jobs message.
type priorityReply struct {
	Priority *[]float64 `json:"priority"`
}

// decodeStrict decodes one reply line into v, refusing unknown fields and
// trailing data, and naming the line in errors. It never panics (fuzzed).
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid reply %s: %w", excerpt(line), err)
	}
	if dec.More() {
		return fmt.Errorf("invalid reply %s: more than one JSON value on the line", excerpt(line))
	}
	return nil
}

// decodeHello reads the answer to a hello of protocol version.
func decodeHello(line []byte, version int) error {
	var r helloReply
	if err := decodeStrict(line, &r); err != nil {
		return err
	}
	if r.Type == nil || *r.Type != "hello" || r.Protocol == nil {
		return fmt.Errorf("invalid reply %s to the hello: want {\"type\":\"hello\",\"protocol\":%d}", excerpt(line), version)
	}
	if *r.Protocol != version {
		if version == ProtocolVersionNodes {
			return fmt.Errorf("the policy speaks protocol version %d; a platform of nodes needs version %d (docs/protocol.md: requests, free resources per partition, starts on nodes)", *r.Protocol, version)
		}
		return fmt.Errorf("the policy speaks protocol version %d; this sweep speaks %d", *r.Protocol, version)
	}
	return nil
}

// decodeStarts reads a rigid reply: the job ids to start now.
func decodeStarts(line []byte) ([]int64, error) {
	var r startReply
	if err := decodeStrict(line, &r); err != nil {
		return nil, err
	}
	if r.Start == nil {
		return nil, fmt.Errorf("invalid reply %s: want {\"start\":[JOB_ID,...]}", excerpt(line))
	}
	return *r.Start, nil
}

// decodePriorities reads a DAG reply: one finite priority per job asked.
func decodePriorities(line []byte, jobs int) ([]float64, error) {
	var r priorityReply
	if err := decodeStrict(line, &r); err != nil {
		return nil, err
	}
	if r.Priority == nil {
		return nil, fmt.Errorf("invalid reply %s: want {\"priority\":[NUMBER,...]}", excerpt(line))
	}
	if len(*r.Priority) != jobs {
		return nil, fmt.Errorf("%d priorities for %d jobs", len(*r.Priority), jobs)
	}
	for i, p := range *r.Priority {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return nil, fmt.Errorf("priority %d is not a finite number", i)
		}
	}
	return *r.Priority, nil
}

// excerpt quotes the start of a line for messages.
func excerpt(b []byte) string {
	const max = 200
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
