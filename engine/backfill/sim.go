package backfill

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Schedule is the outcome of one simulation.
type Schedule struct {
	// StartSeconds and EndSeconds index the workload's jobs; -1 for a job
	// the simulation stopped before starting (submitted after the
	// measured window, once every earlier job had started).
	StartSeconds, EndSeconds []int64
	// Reservations lists, for EASY (the built-in's, or a Decider's
	// through State.EASY), every pass that started a job after a blocked
	// head: what the head was promised.
	Reservations []Reservation
	// FirstResource is, with contiguous placement, the first resource id
	// of each started job's block (nil otherwise).
	FirstResource []int
	// Nodes is, on a machine of nodes (the workload's Machine), what each
	// started job held of which nodes (nodes.go; nil otherwise).
	Nodes [][]NodeShare
	// TwSeconds is the Tw Tradeoff-fs used (resolved for TwFCFSMax).
	TwSeconds int64
	// Kill is the kill rule the jobs ran under, for the validator.
	Kill  rigid.Kill
	Stats Stats
}

// Reservation is the promise EASY made at one pass: the head of the queue
// can start at ShadowSeconds whatever the jobs started after it.
type Reservation struct {
	AtSeconds     int64
	Head          int // job index
	ShadowSeconds int64
}

// Stats counts the work of a simulation; the counts are deterministic.
type Stats struct {
	Events          int64 // distinct instants processed
	Passes          int64 // scheduling passes run
	Plans           int64 // Tradeoff-fs searches
	Placements      int64 // earliest-fit placements of the planner
	Paths           int64 // complete paths scored
	BudgetExhausted int64 // searches stopped by the budget
}

// Simulate runs policy p on workload w with the estimates of variant v.
// It stops when every job submitted before the end of the measured window
// has started (with no window, when every job has).
func Simulate(ctx context.Context, w *rigid.Workload, v rigid.Variant, p Policy) (*Schedule, error) {
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("simulating: %w", err)
	}
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("simulating %s: %w", w.Name, err)
	}
	if err := p.validateNodes(w); err != nil {
		return nil, fmt.Errorf("simulating %s: %w", w.Name, err)
	}
	if (p.Planner != nil || p.Allocation == AllocConservative) && w.Procs > math.MaxInt32 {
		// The planner's profile counts processors in 32 bits.
		return nil, fmt.Errorf("simulating %s: %d processors: the planner takes at most %d", w.Name, w.Procs, math.MaxInt32)
	}
	var twSeconds int64
	if t := p.Planner; t != nil {
		twSeconds = t.TwSeconds
		if t.TwFCFSMax {
			fcfs := FCFSEasy()
			fcfs.Kill = p.Kill
			base, err := Simulate(ctx, w, v, fcfs)
			if err != nil {
				return nil, fmt.Errorf("Tw from fcfs-easy: %w", err)
			}
			twSeconds = 0
			for i, s := range base.StartSeconds {
				if w.Measured(i) {
					twSeconds = max(twSeconds, s-w.Jobs[i].SubmitSeconds)
				}
			}
		}
	}
	s := newSim(w, v, p, twSeconds)
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	s.sched.TwSeconds = twSeconds
	s.sched.Kill = p.Kill
	return &s.sched, nil
}

// sim is the state of one simulation.
type sim struct {
	w      *rigid.Workload
	jobs   []rigid.Job
	policy Policy
	est    []int64 // estimate per job, seconds
	userOf []int   // dense user index per job
	users  int

	variant rigid.Variant
	err     error // a Decider's refusal, which ends the run

	now        int64
	free       int
	nextArrive int
	queue      []int // waiting jobs in arrival order
	order      []int // the queue in priority order, this pass
	running    []int // running jobs, any order
	runningPos []int // index of a job in running, -1 if not running
	ends       endHeap

	// toStart is the number of jobs that must start before the
	// simulation may stop.
	toStart, started int

	// alloc places the jobs (chosen once from the policy's placement);
	// rule decides a pass (the policy's Decider, planner or allocation
	// rule), after sorting the queue when it is a built-in rule.
	alloc allocator
	rule  func() error

	// byKey is, under a static keyed order (staticKey), the waiting jobs
	// with their keys, fixed at arrival, kept in order; dynamicKey is a
	// dynamic order's key function; keyedBuf is sortByKey's scratch for
	// it.
	byKey      []keyedJob
	staticKey  staticKey
	dynamicKey dynamicKey
	keyedBuf   []keyedJob
	// committed is the blocked head under HeadCommitted, -1 when none.
	committed int
	// With predicted estimates (or requests a job may outlive under
	// KillNever), firstEst is each job's estimate when it arrived and
	// correct says running jobs' estimates are corrected at each pass
	// (rigid.CorrectedSeconds); history is, per user, the run times of
	// its last two jobs to end.
	correct bool
	// corrections counts the estimates corrected, which move a node
	// reservation (nodes.kept).
	corrections uint64
	firstEst    []int64
	history     []userHistory

	usage   usageBook
	buckets usageBuckets
	endsBuf []endEvent
	planner *planner
	counted counted      // the counting placement's scratch, also State.EASY's
	starts  []int        // an EASY pass's starts
	promise *promise     // what State.EASY promised in the current decision
	eased   []easyPlaced // where State.EASY placed jobs, on nodes
	due     []int        // completions of the instant, with per-event passes
	sched   Schedule
}

// An allocator is how one simulation places jobs on the cluster: counted
// processors (the design note's model), blocks of consecutive resource
// ids (PlaceContiguous, contiguous.go), or nodes with several resources
// (nodes.go; whole nodes counted, nodewhole.go). newSim picks it once
// from the policy and the workload. Its methods
// each serve a whole pass or one completion, never one job of a pass, so
// that the loops over the queue stay concrete inside each allocator:
// they are where a pass spends its time.
type allocator interface {
	// ready reports whether a pass now could start a job or change the
	// placement; no pass runs otherwise.
	ready(s *sim) bool
	// snapshot returns the free resources now, for one pass to place
	// jobs on.
	snapshot(s *sim) easyPlacement
	// release frees the resources of job j, which ends now.
	release(s *sim, j int)
}

func newSim(w *rigid.Workload, v rigid.Variant, p Policy, twSeconds int64) *sim {
	n := len(w.Jobs)
	s := &sim{w: w, jobs: w.Jobs, policy: p, variant: v, free: w.Procs,
		est: make([]int64, n), userOf: make([]int, n), runningPos: make([]int, n)}
	dense := map[int64]int{}
	for i := range w.Jobs {
		j := &w.Jobs[i]
		u, ok := dense[j.User]
		if !ok {
			u = len(dense)
			dense[j.User] = u
		}
		s.userOf[i] = u
		s.runningPos[i] = -1
	}
	s.users = len(dense)
	s.setEstimates(v, p)
	s.buckets.rank = make([]int, s.users)
	for u := range s.buckets.rank {
		s.buckets.rank[u] = -1
	}
	s.toStart = n
	if w.MeasureFromSeconds != 0 || w.MeasureToSeconds != 0 {
		s.toStart, _ = slices.BinarySearchFunc(w.Jobs, w.MeasureToSeconds, func(j rigid.Job, t int64) int {
			return cmp.Compare(j.SubmitSeconds, t)
		})
	}
	windowSeconds := p.WindowSeconds
	if windowSeconds == 0 {
		windowSeconds = DaySeconds
	}
	s.usage = newUsageBook(p.Window, windowSeconds, p.Usage, w.UnixStartSeconds, s.users)
	s.sched.StartSeconds = make([]int64, n)
	s.sched.EndSeconds = make([]int64, n)
	for i := range n {
		s.sched.StartSeconds[i], s.sched.EndSeconds[i] = -1, -1
	}
	if p.Planner != nil || p.Allocation == AllocConservative {
		s.planner = newPlanner(s, p.Planner, twSeconds)
	}
	s.counted = counted{jobs: s.jobs, est: s.est, startSeconds: s.sched.StartSeconds}
	s.alloc = &s.counted
	if p.Placement == PlaceContiguous {
		s.alloc = newBlocks(s)
		s.sched.FirstResource = make([]int, n)
	}
	s.committed = -1
	if p.Order.keyed() {
		s.staticKey, s.dynamicKey = staticKeys[p.Order], dynamicKeys[p.Order]
	}
	if w.Machine != nil {
		s.useNodes()
		return s
	}
	s.rule = s.ruleWith(s.plan)
	return s
}

// ruleWith returns the rule of a pass under the policy: its Decider, the
// allocator's planning pass (conservative backfilling, or Tradeoff-fs's
// planner), no backfilling, or EASY.
func (s *sim) ruleWith(plan func() error) func() error {
	switch {
	case s.policy.Decider != nil:
		return s.decide
	case s.policy.Planner != nil || s.policy.Allocation == AllocConservative:
		return plan
	case s.policy.Allocation == AllocStrict:
		return s.strict
	}
	return s.easy
}

func (s *sim) run(ctx context.Context) error {
	for s.started < s.toStart {
		if err := s.advance(ctx); err != nil {
			return err
		}
		if s.policy.Pass == PassPerEvent {
			if s.instantPerEvent(); s.err != nil {
				return s.err
			}
			continue
		}
		s.enter()
		s.pass()
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

// advance moves s.now to the next instant with an event. The loop of run
// and the Stepper's (stepper.go) are this and enter, then a pass.
func (s *sim) advance(ctx context.Context) error {
	next, ok := s.nextInstant()
	if !ok {
		return fmt.Errorf("simulating %s: no event left with %d jobs unstarted", s.w.Name, s.toStart-s.started)
	}
	if s.sched.Stats.Events&1023 == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("simulating %s at %d s: %w", s.w.Name, next, err)
		}
	}
	s.sched.Stats.Events++
	s.now = next
	return nil
}

// enter processes the completions, then the arrivals, of the instant
// s.now.
func (s *sim) enter() {
	for len(s.ends) > 0 && s.ends[0].seconds == s.now {
		s.complete(s.ends.pop().job)
	}
	for s.nextArrive < len(s.jobs) && s.jobs[s.nextArrive].SubmitSeconds == s.now {
		s.arrive()
	}
}

func (s *sim) nextInstant() (int64, bool) {
	var next int64
	ok := false
	if s.nextArrive < len(s.jobs) {
		next, ok = s.jobs[s.nextArrive].SubmitSeconds, true
	}
	if len(s.ends) > 0 && (!ok || s.ends[0].seconds < next) {
		next, ok = s.ends[0].seconds, true
	}
	return next, ok
}

// arrive queues the next job to arrive, its estimate predicted and its
// key fixed when the policy needs them.
func (s *sim) arrive() {
	j := s.nextArrive
	s.nextArrive++
	s.queue = append(s.queue, j)
	job := &s.jobs[j]
	if s.history != nil {
		h := &s.history[s.userOf[j]]
		s.est[j] = rigid.PredictSeconds(h.ended, h.lastSeconds, h.previousSeconds, job.RequestedSeconds)
		s.firstEst[j] = s.est[j]
	}
	if s.staticKey != nil {
		k := keyedJob{s.staticKey(float64(s.est[j]), float64(job.Procs), float64(job.SubmitSeconds)), j}
		i, _ := slices.BinarySearchFunc(s.byKey, k, compareKeyed)
		s.byKey = slices.Insert(s.byKey, i, k)
	}
}

func (s *sim) complete(j int) {
	if s.history != nil {
		s.history[s.userOf[j]].ended1(s.now - s.sched.StartSeconds[j])
	}
	s.free += s.jobs[j].Procs
	s.alloc.release(s, j)
	k := s.runningPos[j]
	last := s.running[len(s.running)-1]
	s.running[k] = last
	s.runningPos[last] = k
	s.running = s.running[:len(s.running)-1]
	s.runningPos[j] = -1
	job := &s.jobs[j]
	s.usage.completed(s.userOf[j], s.usage.weight(j, job.Procs), s.sched.StartSeconds[j], s.now)
}

func (s *sim) start(j int) {
	job := &s.jobs[j]
	s.free -= job.Procs
	end := s.now + job.RunSecondsUnder(s.policy.Kill)
	s.sched.StartSeconds[j] = s.now
	s.sched.EndSeconds[j] = end
	s.runningPos[j] = len(s.running)
	s.running = append(s.running, j)
	s.ends.push(endEvent{seconds: end, job: j})
	if j < s.toStart {
		s.started++
	}
}

// pass runs one scheduling pass at s.now.
func (s *sim) pass() {
	if !s.alloc.ready(s) {
		if s.policy.Head == HeadCommitted && s.committed < 0 && len(s.queue) > 0 {
			// Nothing fits: the first of the order is blocked, and so
			// committed, as RLScheduler picks a job at every decision.
			s.sortQueue()
			s.committed = s.order[0]
		}
		return
	}
	s.sched.Stats.Passes++
	if s.correct {
		s.correctEstimates()
	}
	runningBefore := len(s.running)
	if s.err = s.rule(); s.err != nil {
		return
	}
	if s.policy.Head == HeadCommitted {
		s.commitHead()
	}
	if len(s.running) == runningBefore {
		return // nothing started (a pass only adds running jobs)
	}
	s.queue = slices.DeleteFunc(s.queue, func(j int) bool { return s.sched.StartSeconds[j] >= 0 })
	if s.staticKey != nil {
		s.byKey = slices.DeleteFunc(s.byKey, func(k keyedJob) bool { return s.sched.StartSeconds[k.job] >= 0 })
	}
}

// commitHead makes the first job of this pass's order left waiting the
// committed head (HeadCommitted).
func (s *sim) commitHead() {
	s.committed = -1
	for _, j := range s.order {
		if s.sched.StartSeconds[j] < 0 {
			s.committed = j
			return
		}
	}
}

// easy is one EASY backfilling pass, recording the head's reservation
// when a job started past it.
func (s *sim) easy() error {
	s.sortQueue()
	p := s.alloc.snapshot(s)
	r := easyPass(p, s.now, s.order, s.starts)
	s.starts = r.starts
	p.commit(s, r.starts)
	if r.backfilled() {
		s.sched.Reservations = append(s.sched.Reservations, r.promise)
	}
	return nil
}

// strict starts from the head while it fits and stops at the first job
// that does not: EASY without its reservation and backfilling.
func (s *sim) strict() error {
	s.sortQueue()
	p := s.alloc.snapshot(s)
	s.starts = p.fit(s.order, s.starts[:0])
	p.commit(s, s.starts)
	return nil
}

// plan runs one pass of conservative backfilling or Tradeoff-fs.
func (s *sim) plan() error {
	s.sortQueue()
	s.planner.plan()
	return nil
}

// sortQueue computes this pass's priority order into s.order, the
// committed head first under HeadCommitted.
func (s *sim) sortQueue() {
	switch {
	case s.policy.Order == OrderFCFS:
		s.order = append(s.order[:0], s.queue...) // the queue is in arrival order already
	case s.policy.Order.keyed():
		s.sortByKey()
	default:
		s.sortByUsage()
	}
	if s.committed >= 0 {
		// The committed head is waiting: only a pass starts jobs, and
		// commitHead follows every pass.
		i := slices.Index(s.order, s.committed)
		copy(s.order[1:i+1], s.order[:i])
		s.order[0] = s.committed
	}
}

// sortByUsage computes RelShare's order into s.order: by the owner's
// usage, then job index.
//
// The queue is in arrival order, which is job index order, so the order is
// the queue bucketed stably by usage: the distinct usages of the waiting
// users are sorted (a few dozen), and each job goes to its usage's bucket.
// Sorting the whole queue with a comparator cost a third of conservative
// backfilling's time at a queue of hundreds.
func (s *sim) sortByUsage() {
	usage := s.usage.at(s.now, s.running, s.sched.StartSeconds, s.jobs, s.userOf)
	b := &s.buckets
	b.usages, b.users = b.usages[:0], b.users[:0]
	for _, j := range s.queue {
		u := s.userOf[j]
		if b.rank[u] < 0 {
			b.rank[u] = 0
			b.users = append(b.users, u)
			b.usages = append(b.usages, usage[u])
		}
	}
	slices.Sort(b.usages)
	b.usages = slices.Compact(b.usages)
	b.next = slices.Grow(b.next[:0], len(b.usages)+1)[:len(b.usages)+1]
	clear(b.next)
	for _, u := range b.users {
		b.rank[u], _ = slices.BinarySearch(b.usages, usage[u])
	}
	for _, j := range s.queue {
		b.next[b.rank[s.userOf[j]]+1]++
	}
	for r := 1; r < len(b.next); r++ {
		b.next[r] += b.next[r-1]
	}
	s.order = slices.Grow(s.order[:0], len(s.queue))[:len(s.queue)]
	for _, j := range s.queue {
		r := b.rank[s.userOf[j]]
		s.order[b.next[r]] = j
		b.next[r]++
	}
	for _, u := range b.users {
		b.rank[u] = -1
	}
}

// usageBuckets is sortQueue's scratch space.
type usageBuckets struct {
	rank   []int   // per user: its usage's bucket; -1 when not waiting
	users  []int   // the users waiting
	usages []int64 // their distinct usages, ascending
	next   []int   // per bucket: the next free place in the order
}

type endEvent struct {
	seconds int64
	job     int
}

// endHeap orders completions by time, then job index, so that equal
// instants pop deterministically. It is a binary heap with typed push and
// pop: container/heap's interface boxes every event it pushes, which was a
// sixth of a 10,000-job EASY run's time and half its allocations.
type endHeap []endEvent

func (h endHeap) less(a, b int) bool {
	return h[a].seconds < h[b].seconds || h[a].seconds == h[b].seconds && h[a].job < h[b].job
}

func (h *endHeap) push(e endEvent) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			break
		}
		q[i], q[parent] = q[parent], q[i]
		i = parent
	}
}

// pop removes and returns the earliest completion.
func (h *endHeap) pop() endEvent {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(q) && q.less(l, least) {
			least = l
		}
		if r < len(q) && q.less(r, least) {
			least = r
		}
		if least == i {
			break
		}
		q[i], q[least] = q[least], q[i]
		i = least
	}
	*h = q
	return top
}
