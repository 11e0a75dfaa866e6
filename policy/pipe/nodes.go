package pipe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// ProtocolVersionNodes is the version of the protocol for rigid jobs on
// a machine of nodes (docs/protocol.md, version 2): the hello tells the
// partitions, each decide the jobs' requests and the free resources, and
// a start may name its nodes. Processors keep version 1.
const ProtocolVersionNodes = 2

// StartNodes starts the policy of opts for a simulation of jobs on the
// machine of nodes m, speaking version 2; estimate and workload are as
// StartRigid's.
func StartNodes(ctx context.Context, opts Options, m *rigid.Machine, jobs int, estimate, workload string) (*Rigid, error) {
	name, _ := json.Marshal(workload)
	hello := fmt.Appendf(nil, `"platform":{"procs":%d,"partitions":[`, m.Cores())
	first := 0
	for i, p := range m.Partitions {
		if i > 0 {
			hello = append(hello, ',')
		}
		pn, _ := json.Marshal(p.Name)
		hello = fmt.Appendf(hello, `{"name":%s,"nodes":%d,"cores":%d,"memory":%d,"gpus":%d,"first_node":%d}`, pn, p.Nodes, p.Cores, p.MemoryMiB, p.GPUs, first)
		first += p.Nodes
	}
	hello = fmt.Appendf(hello, `]},"workload":{"name":%s,"jobs":%d,"estimate":%q}`, name, jobs, estimate)
	c, err := start(ctx, opts, "rigid", ProtocolVersionNodes, hello)
	if err != nil {
		return nil, err
	}
	return &Rigid{c: c, ctx: ctx, stamp: make([]uint32, jobs), machine: m}, nil
}

// ProbeNodes is ProbeRigid on the machine of nodes m (version 2).
func ProbeNodes(ctx context.Context, opts Options, m *rigid.Machine, estimate string) error {
	r, err := StartNodes(ctx, opts, m, 0, estimate, "probe")
	if err != nil {
		return err
	}
	r.Close()
	return nil
}

// appendRequest appends job j's request fields to a submitted job.
func (r *Rigid) appendRequest(b []byte, req rigid.Request) []byte {
	b = append(b, `,"nodes":`...)
	b = strconv.AppendInt(b, int64(req.Nodes), 10)
	b = append(b, `,"cores":`...)
	b = strconv.AppendInt(b, int64(req.CoresPerNode), 10)
	b = append(b, `,"memory":`...)
	b = strconv.AppendInt(b, req.MemoryPerNodeMiB, 10)
	b = append(b, `,"gpus":`...)
	b = strconv.AppendInt(b, int64(req.GPUsPerNode), 10)
	b = append(b, `,"memory_per_core":`...)
	b = strconv.AppendInt(b, req.MemoryPerCoreMiB, 10)
	b = append(b, `,"partition":`...)
	if req.Partition == rigid.AnyPartition {
		b = append(b, `""`...)
	} else {
		pn, _ := json.Marshal(r.machine.Partitions[req.Partition].Name)
		b = append(b, pn...)
	}
	b = append(b, `,"exclusive":`...)
	b = strconv.AppendBool(b, req.Exclusive)
	return b
}

// appendFree appends the free resources of each partition: sums, the
// count of idle nodes (all free) and, for each other node, what it has
// free as [node, cores, memory, gpus].
func (r *Rigid) appendFree(b []byte, st *backfill.State) []byte {
	b = append(b, `,"partitions":[`...)
	node := 0
	for i, p := range r.machine.Partitions {
		if i > 0 {
			b = append(b, ',')
		}
		var cores, gpus, idle int
		var mem int64
		busy := r.busy[:0]
		for range p.Nodes {
			f := st.FreeOn(node)
			cores, mem, gpus = cores+f.Cores, mem+f.MemoryMiB, gpus+f.GPUs
			if f.Cores == p.Cores && f.MemoryMiB == p.MemoryMiB && f.GPUs == p.GPUs {
				idle++
			} else {
				busy = append(busy, node)
			}
			node++
		}
		r.busy = busy
		b = fmt.Appendf(b, `{"cores":%d,"memory":%d,"gpus":%d,"idle":%d,"busy":[`, cores, mem, gpus, idle)
		for k, n := range busy {
			if k > 0 {
				b = append(b, ',')
			}
			f := st.FreeOn(n)
			b = fmt.Appendf(b, "[%d,%d,%d,%d]", n, f.Cores, f.MemoryMiB, f.GPUs)
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// nodeStart is a start naming its nodes in a version 2 reply, and for a
// pooled request optionally the cores of each.
type nodeStart struct {
	ID    *int64   `json:"id"`
	Nodes *[]int64 `json:"nodes"`
	Cores *[]int64 `json:"cores"`
}

// onNodes is what a start names: nodes (nil: sweep places it) and, for a
// pooled request, the cores of each (nil: all it can take, in order).
type onNodes struct {
	nodes, cores []int64
}

// startsReplyNodes is a version 2 answer to a decide message: each start
// a job id, or {"id":ID,"nodes":[NODE,...]}.
type startsReplyNodes struct {
	Start *[]json.RawMessage `json:"start"`
}

// decodeStartsNodes reads a version 2 reply: the job ids to start now
// and, per start, the nodes (and cores) it names.
func decodeStartsNodes(line []byte) ([]int64, []onNodes, error) {
	var r startsReplyNodes
	if err := decodeStrict(line, &r); err != nil {
		return nil, nil, err
	}
	if r.Start == nil {
		return nil, nil, fmt.Errorf("invalid reply %s: want {\"start\":[JOB_ID or {\"id\":JOB_ID,\"nodes\":[NODE_ID,...]},...]}", excerpt(line))
	}
	ids := make([]int64, len(*r.Start))
	named := make([]onNodes, len(*r.Start))
	for k, raw := range *r.Start {
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] == '{' {
			var s nodeStart
			if err := decodeStrict(raw, &s); err != nil {
				return nil, nil, fmt.Errorf("start %d: %w", k, err)
			}
			if s.ID == nil || s.Nodes == nil {
				return nil, nil, fmt.Errorf("start %d: %s: want {\"id\":JOB_ID,\"nodes\":[NODE_ID,...]}", k, excerpt(raw))
			}
			ids[k], named[k].nodes = *s.ID, *s.Nodes
			if named[k].nodes == nil {
				named[k].nodes = []int64{}
			}
			if s.Cores != nil {
				if *s.Cores == nil {
					return nil, nil, fmt.Errorf("start %d: %s: cores: want [CORES,...], one per node", k, excerpt(raw))
				}
				named[k].cores = *s.Cores
			}
			continue
		}
		if err := json.Unmarshal(raw, &ids[k]); err != nil {
			return nil, nil, fmt.Errorf("start %d: %s: want a job id or {\"id\":JOB_ID,\"nodes\":[NODE_ID,...]}", k, excerpt(raw))
		}
	}
	return ids, named, nil
}
