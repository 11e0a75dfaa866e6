package pipe

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/policy/child"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Rigid is a rigid-job policy run as a decision process: a
// backfill.Decider. Each decision point is one exchange: a decide message
// with the time, the free processors and what changed since the last
// one (jobs submitted, with their fields; jobs finished), answered by the
// jobs to start now. Start it per simulation and Close it after.
type Rigid struct {
	c    *conn
	ctx  context.Context
	told int // jobs 0..told-1 were told as submitted

	running []int    // jobs started by this policy and not yet told finished
	stamp   []uint32 // per job: the decision that last saw it running
	gen     uint32
	msg     []byte
	nowSecs int64

	// machine is the machine of nodes under version 2, nil on
	// processors; busy is appendFree's scratch.
	machine *rigid.Machine
	busy    []int
}

// StartRigid starts the policy of opts for a simulation of jobs on procs
// processors; estimate is the variant the policy is told ("T": run times,
// "R": requested times) and workload names the jobs.
func StartRigid(ctx context.Context, opts Options, procs, jobs int, estimate, workload string) (*Rigid, error) {
	name, _ := json.Marshal(workload)
	hello := fmt.Appendf(nil, `"platform":{"procs":%d},"workload":{"name":%s,"jobs":%d,"estimate":%q}`, procs, name, jobs, estimate)
	c, err := start(ctx, opts, "rigid", ProtocolVersion, hello)
	if err != nil {
		return nil, err
	}
	return &Rigid{c: c, ctx: ctx, stamp: make([]uint32, jobs)}, nil
}

// ProbeRigid starts the rigid policy of opts, exchanges the hello for an
// empty workload on procs processors and stops it: before any cell runs,
// a command that cannot start or answer the hello is found once, not in
// every cell. The error is the *child.Fault of the hello (the policy's
// stderr tail included).
func ProbeRigid(ctx context.Context, opts Options, procs int, estimate string) error {
	r, err := StartRigid(ctx, opts, procs, 0, estimate, "probe")
	if err != nil {
		return err
	}
	r.Close()
	return nil
}

// Decide tells the policy what changed and returns the jobs it starts,
// refusing (as a fault of the policy, with its stderr) a job that is
// unknown, not submitted, not waiting or does not fit.
func (r *Rigid) Decide(st *backfill.State) ([]int, error) {
	r.gen++
	for _, j := range st.Running {
		r.stamp[j] = r.gen
	}
	b := append(r.msg[:0], `{"type":"decide","now":`...)
	b = strconv.AppendInt(b, st.NowSeconds, 10)
	b = append(b, `,"free":`...)
	b = strconv.AppendInt(b, int64(st.FreeProcs), 10)
	b = append(b, `,"finished":[`...)
	finished := 0
	kept := r.running[:0]
	for _, j := range r.running {
		if r.stamp[j] == r.gen {
			kept = append(kept, j)
			continue
		}
		if finished > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(j), 10)
		finished++
	}
	r.running = kept
	b = append(b, `],"submitted":[`...)
	submitted := 0
	// Waiting is in submit order: the jobs not yet told are its suffix.
	first := len(st.Waiting)
	for first > 0 && st.Waiting[first-1] >= r.told {
		first--
	}
	for _, j := range st.Waiting[first:] {
		info := st.Job(j)
		if submitted > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, `,"submit":`...)
		b = strconv.AppendInt(b, info.SubmitSeconds, 10)
		b = append(b, `,"procs":`...)
		b = strconv.AppendInt(b, int64(info.Procs), 10)
		b = append(b, `,"estimate":`...)
		b = strconv.AppendInt(b, info.EstimateSeconds, 10)
		b = append(b, `,"user":`...)
		b = strconv.AppendInt(b, info.User, 10)
		if r.machine != nil {
			b = r.appendRequest(b, st.Request(j))
		}
		b = append(b, '}')
		submitted++
		r.told = j + 1
	}
	b = append(b, ']')
	if r.machine != nil {
		b = r.appendFree(b, st)
	}
	b = append(b, '}')
	r.msg = b
	r.nowSecs = st.NowSeconds
	d := child.Decision{What: fmt.Sprintf("decide: %d submitted, %d finished, %d free", submitted, finished, st.FreeProcs), TimeSeconds: float64(st.NowSeconds)}
	var ids []int64
	var named []onNodes
	err := r.c.exchange(r.ctx, d, b, func(line []byte) error {
		var err error
		if r.machine != nil {
			ids, named, err = decodeStartsNodes(line)
		} else {
			ids, err = decodeStarts(line)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	starts, err := r.checkStarts(st, ids, named)
	if err != nil {
		return nil, r.c.fault(d, err)
	}
	r.running = append(r.running, starts...)
	return starts, nil
}

// checkStarts refuses a start the model cannot carry out: on processors,
// one by one against the processors the earlier starts left; on nodes,
// the waiting jobs as the simulator will place them (State.Check).
func (r *Rigid) checkStarts(st *backfill.State, ids []int64, named []onNodes) ([]int, error) {
	starts := make([]int, 0, len(ids))
	free := st.FreeProcs
	if r.machine != nil {
		free = st.Procs // the nodes are checked below
	}
	for k, id := range ids {
		if err := r.check(st, id, free); err != nil {
			return nil, err
		}
		j := int(id)
		free -= st.Job(j).Procs
		r.stamp[j] = r.gen // started now: not finished at the next decision
		starts = append(starts, j)
		if k < len(named) && named[k].nodes != nil {
			nodes, cores := clampInts(named[k].nodes), clampInts(named[k].cores)
			if cores != nil {
				st.OnNodeCores(j, nodes, cores)
			} else {
				st.OnNodes(j, nodes)
			}
		}
	}
	if r.machine != nil {
		if err := st.Check(starts); err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
	}
	return starts, nil
}

// clampInts converts node ids or core counts, keeping an out-of-range
// value out of range.
func clampInts(xs []int64) []int {
	if xs == nil {
		return nil
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(max(min(x, 1<<31), -1))
	}
	return out
}

// check refuses a start the model cannot carry out.
func (r *Rigid) check(st *backfill.State, id int64, free int) error {
	if id < 0 || id >= int64(st.Jobs()) {
		return fmt.Errorf("start: unknown job %d (jobs are 0 to %d)", id, st.Jobs()-1)
	}
	j := int(id)
	info := st.Job(j)
	switch {
	case j >= r.told:
		return fmt.Errorf("start: job %d is not submitted yet (it is submitted at %d s)", j, info.SubmitSeconds)
	case info.StartSeconds >= 0 || r.stamp[j] == r.gen:
		return fmt.Errorf("start: job %d is not waiting: it was started already", j)
	case info.Procs > free:
		return fmt.Errorf("start: job %d does not fit: it needs %d processors and %d are free", j, info.Procs, free)
	}
	return nil
}

// Close tells the policy the simulation ended, gives it a moment to exit
// and kills its process group.
func (r *Rigid) Close() {
	r.c.end(r.nowSecs)
	r.c.close()
}
