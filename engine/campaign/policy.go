package campaign

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/internal/pqueue"
	"github.com/sweep-sched/sweep/workload/campaign"
)

// Orders of the jobs inside a campaign under ostrich (Options.JobOrder).
const (
	JobOrderSPT  = "spt"  // shortest processing time first (default)
	JobOrderLPT  = "lpt"  // longest processing time first
	JobOrderFIFO = "fifo" // the campaign's listed order
)

// Rules for a submitted campaign whose virtual start is still ahead under
// ostrich (Options.Hold).
const (
	// HoldVirtualStart starts no job of a campaign before the first tick
	// at or after its virtual start (both papers; the default).
	HoldVirtualStart = "virtual-start"
	// HoldNone lets any submitted campaign run (work conserving), ranked
	// by its virtual completion.
	HoldNone = "none"
)

// Holds lists the values Options.Hold accepts.
func Holds() []string { return []string{HoldVirtualStart, HoldNone} }

// Submission loops of fcfs and ostrich (Options.Loop).
const (
	// LoopClosed submits a user's campaign i+1 at max(its submit time,
	// completion of campaign i + its think time): the papers' model, and
	// the default. Replaying a trace, it carries a delay forward (a
	// campaign that completes later than in the log pushes the user's
	// next submissions back) but never gains (a campaign that completes
	// earlier cannot bring the next one before its logged submit time).
	LoopClosed = "closed"
	// LoopOpen submits every campaign at its submit time, whether or not
	// the user's previous campaign has completed (a trace's logged submit
	// times as they are).
	LoopOpen = "open"
)

// Loops lists the values Options.Loop accepts, the default first.
func Loops() []string { return []string{LoopClosed, LoopOpen} }

// Options tunes a policy.
type Options struct {
	// JobOrder orders the jobs inside a campaign under ostrich: JobOrderSPT
	// (the default, also when empty), JobOrderLPT or JobOrderFIFO; ties go
	// to the listed order. fcfs always uses the listed order.
	JobOrder string
	// Hold says whether ostrich holds a submitted campaign back until its
	// virtual start: HoldVirtualStart (the default, also when empty) or
	// HoldNone. fcfs and log ignore it.
	Hold string
	// Loop is how fcfs and ostrich submit a user's campaigns: LoopClosed
	// (the default, also when empty) or LoopOpen. log ignores it: the
	// recorded schedule has its own submissions.
	Loop string
}

// Policies lists the policies Simulate accepts.
func Policies() []string { return []string{"fcfs", "ostrich", "log"} }

// Simulate schedules campaign workload w, compiled as in (see
// Compile; the platform must be one cluster of identical
// processors), under policy and returns the schedule. JobArrival is each
// campaign's real submission tick. fcfs and ostrich run in the engine with
// the closed-loop release; log builds the recorded schedule directly.
func Simulate(ctx context.Context, in *grid.Instance, w *campaign.Workload, policy string, opts Options) (*grid.Schedule, error) {
	if err := check(in, w); err != nil {
		return nil, fmt.Errorf("simulate %s: %w", policy, err)
	}
	hold, err := holdRule(opts.Hold)
	if err != nil {
		return nil, fmt.Errorf("simulate %s: %w", policy, err)
	}
	var release grid.Release
	switch opts.Loop {
	case LoopClosed, "":
		release = newClosedLoop(w)
	case LoopOpen:
		submits := make(grid.OpenLoop, len(w.Campaigns))
		for c := range w.Campaigns {
			submits[c] = w.Campaigns[c].SubmitTicks
		}
		release = submits
	default:
		return nil, fmt.Errorf("simulate %s: loop %q: want one of %v", policy, opts.Loop, Loops())
	}
	var newOrder func(v *grid.View, cluster int) grid.Order
	switch policy {
	case "fcfs":
		newOrder = func(v *grid.View, _ int) grid.Order {
			return &fcfsOrder{view: v, in: in}
		}
	case "ostrich":
		inner, err := jobOrder(in, opts.JobOrder)
		if err != nil {
			return nil, fmt.Errorf("simulate ostrich: %w", err)
		}
		newOrder = func(*grid.View, int) grid.Order { return newOstrichOrder(in, w, inner, hold) }
	case "log":
		s, err := logSchedule(in, w)
		if err != nil {
			return nil, fmt.Errorf("simulate log: %w", err)
		}
		return s, nil
	default:
		return nil, fmt.Errorf("unknown campaign policy %q; valid policies: %v", policy, Policies())
	}
	s, err := grid.Simulate(ctx, in, grid.Options{Release: release, Order: newOrder})
	if err != nil {
		return nil, fmt.Errorf("simulate %s: %w", policy, err)
	}
	return s, nil
}

// holdRule reports whether a Hold name holds campaigns until their
// virtual start.
func holdRule(name string) (bool, error) {
	switch name {
	case HoldVirtualStart, "":
		return true, nil
	case HoldNone:
		return false, nil
	}
	return false, fmt.Errorf("hold %q: want one of %v", name, Holds())
}

// check verifies that in is w compiled on identical processors.
func check(in *grid.Instance, w *campaign.Workload) error {
	if n := len(in.Platform.Clusters); n != 1 {
		return fmt.Errorf("platform %s has %d clusters; campaign scheduling wants one cluster of identical processors (single:m)", in.Platform.Name, n)
	}
	if in.Jobs() != len(w.Campaigns) {
		return fmt.Errorf("instance has %d jobs but the workload %d campaigns; compile the instance from this workload", in.Jobs(), len(w.Campaigns))
	}
	for j := range w.Campaigns {
		first, end := in.JobTasks(j)
		if end-first != len(w.Campaigns[j].Jobs) {
			return fmt.Errorf("instance job %d has %d tasks but campaign %d has %d jobs; compile the instance from this workload", j, end-first, j, len(w.Campaigns[j].Jobs))
		}
		for g := first; g < end; g++ {
			job := &w.Campaigns[j].Jobs[g-first]
			if in.Cores(g) != 1 || in.Exec(g) != job.ScheduledTicks() || in.Release(g) != job.ReleaseTicks {
				return fmt.Errorf("instance task %d differs from campaign %d job %d; compile the instance from this workload", g, j, g-first)
			}
		}
	}
	return nil
}

// closedLoop submits each user's campaigns one after another: the first at
// its submit time, the next at max(its submit time, completion of the
// previous + its think time).
type closedLoop struct {
	w    *campaign.Workload
	next []int // campaign -> the user's next campaign, -1 if none
}

func newClosedLoop(w *campaign.Workload) *closedLoop {
	next := make([]int, len(w.Campaigns))
	last := make([]int, len(w.Users))
	for u := range last {
		last[u] = -1
	}
	for c := range w.Campaigns {
		next[c] = -1
		u := w.Campaigns[c].User
		if last[u] >= 0 {
			next[last[u]] = c
		}
		last[u] = c
	}
	return &closedLoop{w: w, next: next}
}

func (r *closedLoop) Start(submit func(job int, tick int64)) error {
	first := make([]bool, len(r.w.Users))
	for c := range r.w.Campaigns {
		if u := r.w.Campaigns[c].User; !first[u] {
			first[u] = true
			submit(c, r.w.Campaigns[c].SubmitTicks)
		}
	}
	return nil
}

func (r *closedLoop) JobFinished(c int, tick int64, submit func(job int, tick int64)) {
	if n := r.next[c]; n >= 0 {
		next := &r.w.Campaigns[n]
		submit(n, max(next.SubmitTicks, tick+next.ThinkTicks))
	}
}

// fcfsOrder serves tasks by (campaign submission tick, campaign index,
// task index): campaigns in submission order, jobs in listed order.
type fcfsOrder struct {
	view *grid.View
	in   *grid.Instance
	heap *pqueue.Queue[int32]
}

func (o *fcfsOrder) Push(g int32, _ int64) {
	if o.heap == nil {
		q := pqueue.New(func(a, b int32) bool {
			ta, tb := o.view.JobArrival(o.in.TaskJob(int(a))), o.view.JobArrival(o.in.TaskJob(int(b)))
			return ta < tb || (ta == tb && a < b)
		})
		o.heap = &q
	}
	o.heap.Push(g)
}
func (o *fcfsOrder) BeginPass(int64) {}
func (o *fcfsOrder) Len() int {
	if o.heap == nil {
		return 0
	}
	return o.heap.Len()
}
func (o *fcfsOrder) Head() (int32, bool) {
	if o.Len() == 0 {
		return 0, false
	}
	return o.heap.Peek(), true
}
func (o *fcfsOrder) Pop() int32 { return o.heap.Pop() }

// jobOrder returns the task comparison for a JobOrder name.
func jobOrder(in *grid.Instance, name string) (func(a, b int32) bool, error) {
	switch name {
	case JobOrderSPT, "":
		return func(a, b int32) bool {
			ea, eb := in.Exec(int(a)), in.Exec(int(b))
			return ea < eb || (ea == eb && a < b)
		}, nil
	case JobOrderLPT:
		return func(a, b int32) bool {
			ea, eb := in.Exec(int(a)), in.Exec(int(b))
			return ea > eb || (ea == eb && a < b)
		}, nil
	case JobOrderFIFO:
		return func(a, b int32) bool { return a < b }, nil
	}
	return nil, fmt.Errorf("job order %q: want %q, %q or %q", name, JobOrderSPT, JobOrderLPT, JobOrderFIFO)
}

// ostrichOrder keeps the virtual schedule and, at every pass, ranks the
// submitted campaigns with ready jobs by virtual completion time; with
// hold, a campaign joins the ranking only once it has started virtually.
type ostrichOrder struct {
	in      *grid.Instance
	virtual *VirtualSchedule
	userOf  []int
	inner   func(a, b int32) bool
	hold    bool

	ready   []*pqueue.Queue[int32] // per campaign
	waiting []int                  // campaigns with ready jobs (or emptied since the last pass), byRank
	listed  []bool                 // per campaign: in waiting
	ranked  []int                  // this pass: the waiting campaigns allowed to run, by priority
	n       int

	// The last NextWake answer, valid while the virtual schedule has not
	// changed since: no start moved and no held campaign came or went.
	wakeAt      int64
	wakeOK      bool
	wakeChanges uint64
}

func newOstrichOrder(in *grid.Instance, w *campaign.Workload, inner func(a, b int32) bool, hold bool) *ostrichOrder {
	o := &ostrichOrder{
		in:      in,
		virtual: NewVirtualSchedule(int(in.Platform.TotalCores()), len(w.Users), len(w.Campaigns)),
		userOf:  make([]int, len(w.Campaigns)),
		inner:   inner,
		hold:    hold,
		ready:   make([]*pqueue.Queue[int32], len(w.Campaigns)),
		listed:  make([]bool, len(w.Campaigns)),
	}
	for c := range w.Campaigns {
		o.userOf[c] = w.Campaigns[c].User
	}
	return o
}

func (o *ostrichOrder) Len() int { return o.n }

// Push receives a campaign's jobs at its submission; the first of them
// submits the campaign to the virtual schedule.
func (o *ostrichOrder) Push(g int32, now int64) {
	c := o.in.TaskJob(int(g))
	if o.ready[c] == nil {
		o.virtual.Submit(c, o.userOf[c], now, o.in.Volume(c))
		q := pqueue.New(o.inner)
		o.ready[c] = &q
	}
	if !o.listed[c] {
		o.listed[c] = true
		at, _ := slices.BinarySearchFunc(o.waiting, c, o.byRank)
		o.waiting = slices.Insert(o.waiting, at, c)
	}
	o.ready[c].Push(g)
	o.n++
}

// byRank orders campaigns by virtual completion (VirtualSchedule.rank),
// then campaign index. A campaign's rank is fixed at its submission, so
// waiting is kept in this order as campaigns join it, and no pass sorts.
func (o *ostrichOrder) byRank(a, b int) int {
	return cmp.Or(o.virtual.rank(a).cmp(o.virtual.rank(b)), cmp.Compare(a, b))
}

// BeginPass brings the virtual schedule to now and ranks the campaigns
// allowed to run (waiting's order, byRank). The ranking cannot change
// within the pass: starting a job does not touch the virtual schedule.
func (o *ostrichOrder) BeginPass(now int64) {
	o.virtual.AdvanceTo(now)
	o.waiting = slices.DeleteFunc(o.waiting, func(c int) bool {
		o.listed[c] = o.ready[c].Len() > 0
		return !o.listed[c]
	})
	o.ranked = o.ranked[:0]
	for _, c := range o.waiting {
		if !o.hold || o.virtual.started(c) {
			o.ranked = append(o.ranked, c)
		}
	}
}

func (o *ostrichOrder) Head() (int32, bool) {
	for len(o.ranked) > 0 {
		if h := o.ready[o.ranked[0]]; h.Len() > 0 {
			return h.Peek(), true
		}
		o.ranked = o.ranked[1:]
	}
	return 0, false
}

func (o *ostrichOrder) Pop() int32 {
	o.Head()
	o.n--
	return o.ready[o.ranked[0]].Pop()
}

// NextWake returns the first tick at or after the earliest virtual start
// of a held campaign, from the virtual schedule as of now: a submission
// since the last call can have moved a start later, and a virtual
// completion earlier. Between such changes the projected starts stand, so
// the last answer is reused.
func (o *ostrichOrder) NextWake(now int64) (int64, bool) {
	// A campaign that has started virtually stays started, so most calls
	// end here without advancing the virtual schedule.
	if !o.hold || !slices.ContainsFunc(o.waiting, func(c int) bool {
		return o.ready[c].Len() > 0 && !o.virtual.started(c)
	}) {
		return 0, false
	}
	o.virtual.AdvanceTo(now)
	if o.wakeChanges == o.virtual.changes {
		return o.wakeAt, o.wakeOK
	}
	// A projected start grows with the campaign's start level
	// (VirtualSchedule.startsBefore), so the held campaign with the lowest
	// has the earliest: one projection instead of one per campaign.
	first := -1
	for _, c := range o.waiting {
		if o.ready[c].Len() == 0 || o.virtual.started(c) {
			continue
		}
		if first < 0 || o.virtual.startsBefore(c, first) {
			first = c
		}
	}
	o.wakeAt, o.wakeOK, o.wakeChanges = 0, first >= 0, o.virtual.changes
	if o.wakeOK {
		o.wakeAt = ceilTick(o.virtual.Start(first))
	}
	return o.wakeAt, o.wakeOK
}

// ceilTick is the first tick at or after the non-negative time r.
func ceilTick(r *big.Rat) int64 {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// logSchedule is the recorded schedule of a trace workload: every job
// starts at its LogStartTicks; campaigns arrive at their submit time. A
// job that ran 0 seconds holds its processor 1 tick, as under the other
// policies (campaign.Job.ScheduledTicks).
func logSchedule(in *grid.Instance, w *campaign.Workload) (*grid.Schedule, error) {
	n, nc := in.Tasks(), len(w.Campaigns)
	s := &grid.Schedule{
		Instance:    in,
		TaskCluster: make([]int32, n),
		TaskStart:   make([]int64, n),
		TaskFinish:  make([]int64, n),
		JobArrival:  make([]int64, nc),
		JobStart:    make([]int64, nc),
		JobFinish:   make([]int64, nc),
	}
	for c := range w.Campaigns {
		camp := &w.Campaigns[c]
		first, _ := in.JobTasks(c)
		s.JobArrival[c] = camp.SubmitTicks
		s.JobStart[c] = -1
		for k, j := range camp.Jobs {
			if j.LogStartTicks == nil {
				return nil, fmt.Errorf("campaign %d job %d has no recorded start (log_start); the log policy needs a trace workload", c, k)
			}
			g := first + k
			s.TaskStart[g] = *j.LogStartTicks
			s.TaskFinish[g] = *j.LogStartTicks + j.ScheduledTicks()
			if s.JobStart[c] < 0 || s.TaskStart[g] < s.JobStart[c] {
				s.JobStart[c] = s.TaskStart[g]
			}
			s.JobFinish[c] = max(s.JobFinish[c], s.TaskFinish[g])
		}
	}
	return s, nil
}
