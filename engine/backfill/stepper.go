package backfill

import (
	"context"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// A Stepper is the simulation loop of Simulate driven from outside, one
// decision at a time, as a learning environment drives it (RLScheduler's
// HPCEnv; cmd/sweep-gym): it stops at each decision point, takes the job
// to start and goes on. A decision point is an instant (after all its
// completions and arrivals) at which jobs wait and none is committed.
// The chosen job starts if it fits; otherwise it is committed, as
// HeadCommitted commits a blocked head, and waits at the head of the
// queue until it fits, no other decision being asked meanwhile; under
// EASY backfilling the simulator backfills the other waiting jobs
// behind it at every instant with the one EASY rule (easyPass), in the
// policy's order. A started job leaves the decision point open: the next
// one is at the same instant while jobs wait.
//
// So an agent that picks, at every decision, the first job of a built-in
// order gives that order's schedule under HeadCommitted, strict or EASY,
// job for job (stepper_test.go).
type Stepper struct {
	s    *sim
	easy bool
	// decided says the instant at s.now has had its pass; the next
	// Next call looks for a decision point from there.
	decided bool
	// wait says the open decision was to wait: Next moves on to the next
	// instant first.
	wait bool
	// warmUpJobs are the first jobs of the workload, which the policy's
	// order starts without asking: the warm-up of a window.
	warmUpJobs int
	st         State
	// startOrder lists the started jobs in the order they started.
	startOrder []int
}

// NewStepper prepares a stepped simulation of workload w under the
// estimates of variant v. Of policy p it takes the allocation (AllocStrict
// for no backfilling, AllocEASY), the order (EASY's order for the jobs
// behind the head, and the order that starts the warm-up jobs) and the kill
// rule; the head is committed. The first warmUpJobs jobs are started by
// the order without a decision; the simulation ends when every job has
// started.
func NewStepper(w *rigid.Workload, v rigid.Variant, p Policy, warmUpJobs int) (*Stepper, error) {
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("stepping: %w", err)
	}
	switch {
	case p.Decider != nil || p.Planner != nil:
		return nil, fmt.Errorf("stepping %s: the steps replace a Decider or a planner; give an order and an allocation", w.Name)
	case p.Allocation != AllocStrict && p.Allocation != AllocEASY:
		return nil, fmt.Errorf("stepping %s: allocation %d: want strict (no backfilling) or easy", w.Name, p.Allocation)
	case p.Placement != PlaceProcessors || p.Pass != PassPerInstant:
		return nil, fmt.Errorf("stepping %s: steps count processors with one pass per instant", w.Name)
	case warmUpJobs < 0 || warmUpJobs > len(w.Jobs):
		return nil, fmt.Errorf("stepping %s: %d warm-up jobs: want 0 to %d", w.Name, warmUpJobs, len(w.Jobs))
	}
	p.Head = HeadCommitted
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("stepping %s: %w", w.Name, err)
	}
	s := newSim(w, v, p, 0)
	t := &Stepper{s: s, easy: p.Allocation == AllocEASY, warmUpJobs: warmUpJobs, decided: true}
	t.st.s = s
	t.st.Procs = w.Procs
	return t, nil
}

// Next runs the simulation to the next decision point and reports true,
// or to its end and reports false.
func (t *Stepper) Next(ctx context.Context) (bool, error) {
	s := t.s
	for {
		if !t.decided {
			t.decided = true
			t.pass()
		}
		if s.started >= s.toStart {
			return false, nil
		}
		if s.committed < 0 && len(s.queue) > 0 && !t.wait {
			if !t.warmingUp() {
				return true, nil
			}
			if err := t.Start(t.firstWarmUp()); err != nil {
				return false, err
			}
			continue
		}
		if err := s.advance(ctx); err != nil {
			return false, err
		}
		s.enter()
		t.decided, t.wait = false, false
	}
}

// Wait carries out the decision to start nothing: the simulation moves
// on to the next arrival or completion, where the next decision is open
// (RLScheduler's skip, without its 360 s cap: no instant passes without
// an event).
func (t *Stepper) Wait() error {
	s := t.s
	switch {
	case s.committed >= 0 || len(s.queue) == 0:
		return fmt.Errorf("stepping %s at %d s: no decision is open", s.w.Name, s.now)
	case len(s.running) == 0 && s.nextArrive == len(s.jobs):
		return fmt.Errorf("stepping %s at %d s: nothing runs and every job has arrived: there is nothing to wait for", s.w.Name, s.now)
	}
	t.wait = true
	return nil
}

// warmingUp reports whether a warm-up job waits.
func (t *Stepper) warmingUp() bool {
	return t.warmUpJobs > 0 && t.s.queue[0] < t.warmUpJobs // the queue is in job order
}

// firstWarmUp is the first warm-up job of the policy's order.
func (t *Stepper) firstWarmUp() int {
	s := t.s
	s.sortQueue()
	i := slices.IndexFunc(s.order, func(j int) bool { return j < t.warmUpJobs })
	return s.order[i]
}

// Start carries out the decision: job j, waiting, starts now if it fits,
// or is committed and waits at the head (EASY backfilling the others).
func (t *Stepper) Start(j int) error {
	s := t.s
	switch {
	case s.committed >= 0 || len(s.queue) == 0:
		return fmt.Errorf("stepping %s at %d s: no decision is open", s.w.Name, s.now)
	case j < 0 || j >= s.nextArrive || s.sched.StartSeconds[j] >= 0:
		return fmt.Errorf("stepping %s at %d s: cannot pick %w", s.w.Name, s.now, s.canStart(j))
	}
	if s.jobs[j].Procs <= s.free {
		s.start(j)
		t.startOrder = append(t.startOrder, j)
		t.dropStarted()
		return nil
	}
	s.committed = j
	if t.easy {
		t.backfill()
	}
	return nil
}

// pass is the stepped simulation's pass at an instant: the committed
// head starts if it fits, else EASY backfills behind it.
func (t *Stepper) pass() {
	s := t.s
	if s.correct {
		s.correctEstimates()
	}
	j := s.committed
	switch {
	case j < 0:
	case s.jobs[j].Procs <= s.free:
		s.committed = -1
		s.start(j)
		t.startOrder = append(t.startOrder, j)
		t.dropStarted()
	case t.easy:
		t.backfill()
	}
}

// backfill runs one EASY pass with the committed head first, when some
// job fits (the head does not).
func (t *Stepper) backfill() {
	s := t.s
	if !s.alloc.ready(s) {
		return
	}
	s.sched.Stats.Passes++
	_ = s.easy() // the built-in's pass: sortQueue puts the committed head first
	t.startOrder = append(t.startOrder, s.starts...)
	t.dropStarted()
}

func (t *Stepper) dropStarted() {
	s := t.s
	s.queue = slices.DeleteFunc(s.queue, func(j int) bool { return s.sched.StartSeconds[j] >= 0 })
	if s.staticKey != nil {
		s.byKey = slices.DeleteFunc(s.byKey, func(k keyedJob) bool { return s.sched.StartSeconds[k.job] >= 0 })
	}
}

// State is the simulation at the open decision point, as a Decider sees
// it; it changes with the next call of Next or Start.
func (t *Stepper) State() *State {
	s := t.s
	st := &t.st
	st.NowSeconds, st.FreeProcs, st.Waiting, st.Running = s.now, s.free, s.queue, s.running
	return st
}

// Schedule is the schedule so far; complete once Next reported false.
func (t *Stepper) Schedule() *Schedule {
	t.s.sched.Kill = t.s.policy.Kill
	return &t.s.sched
}

// StartOrder lists the jobs started so far in the order they started
// (the backfilled jobs of a pass in the pass's order). It grows with the
// simulation: keep an index into it rather than a copy.
func (t *Stepper) StartOrder() []int { return t.startOrder }

// RunSeconds is the time job j runs under the policy's kill rule.
func (t *Stepper) RunSeconds(j int) int64 { return t.s.jobs[j].RunSecondsUnder(t.s.policy.Kill) }
