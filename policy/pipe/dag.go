package pipe

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/policy/child"
)

// DAG is a grid DAG ordering policy run as a decision process. It gives
// each job a priority when its first task becomes ready (smaller first;
// grid.JobPriorityOrders breaks ties by job index, ready tick, task):
// one exchange per tick at which jobs are new, with every new job's
// fields, answered by one priority per job. A per-task exchange would
// cost ~60,000 round trips per cell of seed 004; a per-job priority set
// once covers the static orders (fifo-job, srtf, lrtf, smallest job
// first...).
type DAG struct {
	c      *conn
	ctx    context.Context
	cancel context.CancelCauseFunc
	err    error
	msg    []byte
	now    int64
}

// StartDAG starts the policy of opts for one simulation of in. The
// simulation must run under the returned context: a fault of the policy
// cancels it, and Err then returns the fault.
func StartDAG(ctx context.Context, opts Options, in *grid.Instance) (*DAG, context.Context, error) {
	hello, err := dagHello(in.Platform.Clusters, in.Jobs(), in.Tasks())
	if err != nil {
		return nil, nil, err
	}
	c, err := start(ctx, opts, "dag", ProtocolVersion, hello)
	if err != nil {
		return nil, nil, err
	}
	sctx, cancel := context.WithCancelCause(ctx)
	return &DAG{c: c, ctx: ctx, cancel: cancel}, sctx, nil
}

// dagHello is the dag hello's platform and workload fields.
func dagHello(clusters []platform.Cluster, jobs, tasks int) ([]byte, error) {
	type cluster struct {
		Name  string `json:"name"`
		Kind  string `json:"kind"`
		Cores int    `json:"cores"`
	}
	var cs []cluster
	for _, c := range clusters {
		cs = append(cs, cluster{c.Name, c.Kind, c.Cores})
	}
	cj, err := json.Marshal(cs)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `"platform":{"clusters":%s},"workload":{"jobs":%d,"tasks":%d}`, cj, jobs, tasks), nil
}

// ProbeDAG starts the DAG policy of opts, exchanges the hello for an
// empty workload on p's clusters and stops it: before any cell runs, a
// command that cannot start or answer the hello is found once, not in
// every cell. The error is the *child.Fault of the hello (the policy's
// stderr tail included).
func ProbeDAG(ctx context.Context, opts Options, p *platform.Platform) error {
	hello, err := dagHello(p.Clusters, 0, 0)
	if err != nil {
		return err
	}
	c, err := start(ctx, opts, "dag", ProtocolVersion, hello)
	if err != nil {
		return err
	}
	c.end(0)
	c.close()
	return nil
}

// Priority is the policy's grid.JobPriority.
func (d *DAG) Priority(v *grid.View, jobs []int) []float64 {
	out := make([]float64, len(jobs))
	if d.err != nil {
		return out // the simulation is being cancelled
	}
	in := v.Instance()
	d.now = v.Now()
	b := append(d.msg[:0], `{"type":"jobs","now":`...)
	b = strconv.AppendInt(b, v.Now(), 10)
	b = append(b, `,"jobs":[`...)
	for i, j := range jobs {
		if i > 0 {
			b = append(b, ',')
		}
		first, end := in.JobTasks(j)
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, `,"name":`...)
		name, _ := json.Marshal(in.JobIDs[j])
		b = append(b, name...)
		b = append(b, `,"arrival":`...)
		b = strconv.AppendInt(b, v.JobArrival(j), 10)
		b = append(b, `,"tasks":`...)
		b = strconv.AppendInt(b, int64(end-first), 10)
		b = append(b, `,"volume":`...)
		b = strconv.AppendInt(b, in.Volume(j), 10)
		b = append(b, `,"critical_path":`...)
		b = strconv.AppendInt(b, in.CriticalPath(j), 10)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	d.msg = b
	dec := child.Decision{What: fmt.Sprintf("jobs: %d new", len(jobs)), TimeSeconds: float64(v.Now())}
	err := d.c.exchange(d.ctx, dec, b, func(line []byte) error {
		p, err := decodePriorities(line, len(jobs))
		copy(out, p)
		return err
	})
	if err != nil {
		d.err = err
		d.cancel(err)
	}
	return out
}

// Err returns the policy's fault, if any.
func (d *DAG) Err() error { return d.err }

// Close tells the policy the simulation ended and kills its process
// group.
func (d *DAG) Close() {
	d.cancel(nil)
	d.c.end(d.now)
	d.c.close()
}
