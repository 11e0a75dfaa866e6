package grid

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Options configures one simulation of an instance.
type Options struct {
	// Policy names the ordering policy (see Policies).
	Policy string
	// Seed seeds the policy's random draws (the `random` policy).
	Seed uint64
	// Release decides when jobs are submitted; nil means OpenLoop with the
	// instance's own arrivals.
	Release Release
	// Order, when set, replaces the named Policy: it returns a new, empty
	// order for each cluster. It is how models outside this package (such
	// as campaign scheduling) plug in their ordering; the named policies
	// make their orders the same way.
	Order func(v *View, cluster int) Order
}

// A View gives an Order read access to the simulation it serves.
type View struct{ s *sim }

// Instance returns the instance being simulated.
func (v *View) Instance() *Instance { return v.s.in }

// Now returns the current tick.
func (v *View) Now() int64 { return v.s.now }

// JobArrival returns the tick job j was submitted, -1 if not yet.
func (v *View) JobArrival(j int) int64 { return v.s.arrival[j] }

// JobFinish returns the tick job j finished, -1 if it has not.
func (v *View) JobFinish(j int) int64 {
	if v.s.jobLeft[j] != 0 {
		return -1
	}
	return v.s.jobEnd[j]
}

// FreeCores returns the free cores of cluster c.
func (v *View) FreeCores(c int) int64 { return v.s.clusters[c].free }

// A Release decides when jobs are submitted. Open-loop workloads submit at
// fixed ticks; closed-loop workloads submit more work as jobs complete.
type Release interface {
	// Start submits the jobs known before the simulation starts.
	Start(submit func(job int, tick int64)) error
	// JobFinished is told of every job completion, in (tick, job) order,
	// and may submit more jobs at that tick or later.
	JobFinished(job int, tick int64, submit func(job int, tick int64))
}

// OpenLoop submits job j at arrivals[j], independently of the schedule.
type OpenLoop []int64

// Start submits every job at its arrival tick.
func (o OpenLoop) Start(submit func(job int, tick int64)) error {
	for j, a := range o {
		if a < 0 {
			return fmt.Errorf("job %d: arrival %d; want a tick >= 0", j, a)
		}
		submit(j, a)
	}
	return nil
}

// JobFinished does nothing: open-loop arrivals do not depend on the schedule.
func (OpenLoop) JobFinished(int, int64, func(int, int64)) {}

// A Schedule is the outcome of a simulation: where and when every task ran.
// Slices are indexed by the instance's global task and job indices.
type Schedule struct {
	Instance    *Instance
	TaskCluster []int32
	TaskStart   []int64
	TaskFinish  []int64
	JobArrival  []int64
	JobStart    []int64
	JobFinish   []int64
	// EventTicks counts the ticks at which something happened, for per-event
	// costs.
	EventTicks int64
}

// Outcomes returns one JobOutcome per job, in job order.
func (s *Schedule) Outcomes() []JobOutcome {
	in := s.Instance
	out := make([]JobOutcome, in.Jobs())
	for j := range out {
		out[j] = JobOutcome{
			ArrivalTick:       s.JobArrival[j],
			StartTick:         s.JobStart[j],
			FinishTick:        s.JobFinish[j],
			VolumeCoreTicks:   in.jobVolume[j],
			CriticalPathTicks: in.jobCP[j],
			Tasks:             int(in.jobFirst[j+1] - in.jobFirst[j]),
		}
	}
	return out
}

// sim is the state of one simulation. Everything it does at a tick follows
// DESIGN.md section 3: finishes, then arrivals in job order, then tasks
// whose network delay ends; then one pass per cluster in platform order.
type sim struct {
	in      *Instance
	release Release
	now     int64
	// submitFunc is s.submit bound once: a method value passed through the
	// Release interface escapes, so binding it at every job completion
	// allocated once per job.
	submitFunc func(job int, tick int64)

	arrival  []int64
	task     []taskState
	start    []int64
	jobLeft  []int32
	jobStart []int64
	jobEnd   []int64

	clusters []clusterState

	routes      []routeNode
	kindCluster []int32 // the cluster of each kind of the job being routed

	wakers []Waker // the orders that hold work back

	finishQ tickQueue // (finish tick, task)
	delayQ  tickQueue // (ready tick, task) for tasks waiting on a network delay

	// The jobs submitted before the run (Release.Start), sorted by (tick,
	// job) once and taken in that order from startAt on, and the jobs
	// submitted while it runs (closed loops) in a heap. Open-loop
	// workloads submit every job at the start, 10,000 of them at paper
	// scale, and a heap of them cost a sift through 14 levels per arrival.
	started  bool
	startArr []tickItem
	startAt  int
	arriveQ  tickQueue

	ticks int64
}

// taskState is what the simulation changes of a task, in one 16-byte
// record: a finish reads the finished task's cluster and, for each
// successor, reads and writes its cluster, ready tick and count of
// predecessors left, which as three arrays were three cache misses per
// successor (the successors' records are usually adjacent).
type taskState struct {
	// ready is the tick the task may be ready at, as far as its finished
	// predecessors and its job's arrival and release tell.
	ready   int64
	left    int32 // predecessors not finished
	cluster int32 // -1 until the job arrives
}

// clusterState is the simulation's state of one cluster.
type clusterState struct {
	free          int64 // cores
	runningCores  int64
	unfinishedVol int64 // exec x cores of assigned, unfinished tasks
	startWeighted int64 // sum of start x cores over running tasks
	// queued counts the tasks pushed to the order and not popped.
	queued int
	// blockedCores are the cores of the head at which the last pass
	// stopped because they did not fit, 0 if it did not stop so or a task
	// was pushed since. While fewer cores are free and the head stays put
	// (see steadyOrder), a pass would start nothing.
	blockedCores int64
	order        Order
	steady       steadyOrder // the order, if it is a steadyOrder
	finisher     Finisher    // the order, if it is a Finisher
}

// A steadyOrder can tell that its head has not moved since the last pass:
// the passes that would start nothing are then skipped. At overload, three
// passes in four stop at a head that does not fit (BenchmarkSimulate's
// fan-chain at load 1.2: 129,000 of 178,000 passes).
type steadyOrder interface {
	// steady reports whether Head at now, with no Push or Pop since the
	// last BeginPass, returns what it returned then.
	steady(now int64) bool
}

// Simulate runs the instance under opts and returns its schedule. Every job
// runs to completion. It is deterministic: the same instance, options and
// arrivals give the same schedule.
func Simulate(ctx context.Context, in *Instance, opts Options) (*Schedule, error) {
	rel := opts.Release
	if rel == nil {
		if in.arrival == nil {
			return nil, errors.New("simulate: the workload has no arrivals; give them or a load ratio")
		}
		rel = OpenLoop(in.arrival)
	}
	n, nj, nc := in.Tasks(), in.Jobs(), len(in.Platform.Clusters)
	s := &sim{
		in:       in,
		release:  rel,
		arrival:  make([]int64, nj),
		task:     make([]taskState, n),
		start:    make([]int64, n),
		jobLeft:  make([]int32, nj),
		jobStart: make([]int64, nj),
		jobEnd:   make([]int64, nj),
		clusters: make([]clusterState, nc),
		routes:   buildRoutes(in),
	}
	for j := range s.jobLeft {
		s.jobLeft[j] = in.jobFirst[j+1] - in.jobFirst[j]
		s.jobStart[j] = -1
		s.arrival[j] = -1
	}
	for g := range s.task {
		s.task[g] = taskState{left: in.predN[g], cluster: -1}
		s.start[g] = -1
	}
	for c, cl := range in.Platform.Clusters {
		s.clusters[c].free = int64(cl.Cores)
	}
	newOrder := opts.Order
	if newOrder == nil {
		var err error
		if newOrder, err = policyOrders(opts.Policy, opts.Seed); err != nil {
			return nil, err
		}
	}
	view := &View{s}
	for c := range s.clusters {
		cl := &s.clusters[c]
		cl.order = newOrder(view, c)
		if w, ok := cl.order.(Waker); ok {
			s.wakers = append(s.wakers, w)
		} else {
			// A Waker's head moves when it releases work (the tests'
			// holdOrder embeds a keyedOrder).
			cl.steady, _ = cl.order.(steadyOrder)
		}
		cl.finisher, _ = cl.order.(Finisher)
	}
	s.submitFunc = s.submit
	s.startArr = make([]tickItem, 0, nj)
	if err := rel.Start(s.submitFunc); err != nil {
		return nil, fmt.Errorf("simulate: %w", err)
	}
	// Load-ratio arrivals come in order already: checking is cheaper
	// than sorting.
	if !slices.IsSortedFunc(s.startArr, tickItem.cmp) {
		slices.SortFunc(s.startArr, tickItem.cmp)
	}
	s.started = true
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	cluster, finish := make([]int32, n), make([]int64, n)
	for g := range s.task {
		cluster[g] = s.task[g].cluster
		finish[g] = s.start[g] + in.task[g].exec
	}
	return &Schedule{
		Instance: in, TaskCluster: cluster, TaskStart: s.start, TaskFinish: finish,
		JobArrival: s.arrival, JobStart: s.jobStart, JobFinish: s.jobEnd, EventTicks: s.ticks,
	}, nil
}

func (s *sim) submit(job int, tick int64) {
	if job < 0 || job >= len(s.arrival) || s.arrival[job] >= 0 {
		panic(fmt.Sprintf("engine: job %d submitted twice or out of range", job))
	}
	if tick < s.now {
		tick = s.now
	}
	s.arrival[job] = tick
	if s.started {
		s.arriveQ.Push(tickItem{tick, int32(job)})
	} else {
		s.startArr = append(s.startArr, tickItem{tick, int32(job)})
	}
}

// nextArrival returns the tick of the next submitted job, or never.
func (s *sim) nextArrival() int64 {
	t := nextTick(&s.arriveQ)
	if s.startAt < len(s.startArr) {
		t = min(t, s.startArr[s.startAt].tick)
	}
	return t
}

// popArrival removes and returns the next submitted job in (tick, job)
// order; there must be one.
func (s *sim) popArrival() int32 {
	if s.startAt < len(s.startArr) {
		a := s.startArr[s.startAt]
		if len(s.arriveQ.items) == 0 || a.less(s.arriveQ.items[0]) {
			s.startAt++
			return a.id
		}
	}
	return s.arriveQ.Pop().id
}

func (s *sim) run(ctx context.Context) error {
	for {
		t := min(nextTick(&s.finishQ), s.nextArrival(), nextTick(&s.delayQ))
		for _, w := range s.wakers {
			if wake, ok := w.NextWake(s.now); ok && wake > s.now {
				t = min(t, wake)
			}
		}
		if t == never {
			break
		}
		s.now = t
		s.ticks++
		if s.ticks&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for nextTick(&s.finishQ) == t {
			s.finishTask(s.finishQ.Pop().id)
		}
		for s.nextArrival() == t {
			s.arrive(s.popArrival())
		}
		for nextTick(&s.delayQ) == t {
			s.makeReady(s.delayQ.Pop().id)
		}
		for c := range s.clusters {
			cl := &s.clusters[c]
			if cl.free > 0 && cl.queued > 0 && (cl.blockedCores <= cl.free || cl.steady == nil || !cl.steady.steady(t)) {
				s.pass(c)
			}
		}
	}
	for j, left := range s.jobLeft {
		if left != 0 {
			if s.arrival[j] < 0 {
				return fmt.Errorf("simulate: job %q was never submitted", s.in.JobIDs[j])
			}
			return fmt.Errorf("simulate: job %q did not finish (%d tasks left)", s.in.JobIDs[j], left)
		}
	}
	return nil
}

// pass is the strict head-of-queue allocation: start tasks in policy order
// while the head fits in the free cores; stop at the first that does not.
func (s *sim) pass(c int) {
	cl := &s.clusters[c]
	o := cl.order
	o.BeginPass(s.now)
	cl.blockedCores = 0
	for cl.free > 0 {
		g, ok := o.Head()
		if !ok {
			return
		}
		if cores := int64(s.in.cores[g]); cores > cl.free {
			cl.blockedCores = cores
			return
		}
		o.Pop()
		cl.queued--
		s.startTask(g, c)
	}
}

func (s *sim) startTask(g int32, c int) {
	t := &s.in.task[g]
	cores := int64(t.cores)
	cl := &s.clusters[c]
	cl.free -= cores
	cl.runningCores += cores
	cl.startWeighted += s.now * cores
	s.start[g] = s.now
	s.finishQ.Push(tickItem{s.now + t.exec, g})
	j := t.job
	if s.jobStart[j] < 0 {
		s.jobStart[j] = s.now
	}
}

func (s *sim) finishTask(g int32) {
	t := &s.in.task[g]
	c := s.task[g].cluster
	cores := int64(t.cores)
	cl := &s.clusters[c]
	cl.free += cores
	cl.runningCores -= cores
	// The task started at now - exec.
	cl.startWeighted -= (s.now - t.exec) * cores
	cl.unfinishedVol -= t.exec * cores
	if cl.finisher != nil {
		cl.finisher.Finished(g, s.now)
	}
	for _, succ := range s.in.succ[t.succAt:t.succEnd] {
		ready := s.now
		st := &s.task[succ]
		if st.cluster != c {
			ready += t.delayOut
		}
		st.ready = max(st.ready, ready)
		st.left--
		if st.left == 0 {
			if st.ready == s.now {
				s.makeReady(succ)
			} else {
				s.delayQ.Push(tickItem{st.ready, succ})
			}
		}
	}
	j := t.job
	s.jobLeft[j]--
	if s.jobLeft[j] == 0 {
		s.jobEnd[j] = s.now
		s.release.JobFinished(int(j), s.now, s.submitFunc)
	}
}

func (s *sim) arrive(j int32) {
	s.route(j)
	in := s.in
	kinds := in.jobKinds[in.jobKindsAt[j]:in.jobKindsAt[j+1]]
	first, end := in.jobFirst[j], in.jobFirst[j+1]
	for g := first; g < end; g++ {
		st := &s.task[g]
		if len(kinds) == 1 {
			st.cluster = s.kindCluster[0]
		} else {
			st.cluster = s.clusterOf(g, kinds)
		}
		st.ready = s.now
		if in.release != nil {
			st.ready += in.release[g]
		}
		switch {
		case st.left != 0:
		case st.ready == s.now:
			s.makeReady(g)
		default:
			s.delayQ.Push(tickItem{st.ready, g})
		}
	}
}

func (s *sim) makeReady(g int32) {
	cl := &s.clusters[s.task[g].cluster]
	cl.queued++
	cl.blockedCores = 0
	cl.order.Push(g, s.now)
}
