package backfill

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// A Decider is a scheduling policy written outside this package (a Go
// policy of a researcher's own module, or a decision process over pipes):
// it replaces Order and Allocation. The simulator asks it at each
// decision point, with the same event loop as the built-in policies:
// after every completion and then every arrival of an instant, and only
// when some waiting job fits the free processors (nothing else could
// start). It answers with the waiting jobs to start now, in the order
// they start; each must fit what the jobs before it left free.
type Decider interface {
	Decide(st *State) (start []int, err error)
}

// State is what a Decider sees at a decision point. Its slices belong to
// the simulator and change after Decide returns: copy what you keep.
type State struct {
	NowSeconds int64
	Procs      int // the cluster's processors
	FreeProcs  int
	// Waiting are the submitted, unstarted jobs in submit order (then
	// job number); Running the running jobs, in no particular order.
	Waiting, Running []int
	// Machine is the machine of nodes the jobs run on, nil on
	// processors: then Request, FreeOn and OnNodes apply (nodesdecide.go).
	Machine *rigid.Machine

	s     *sim
	named map[int]namedNodes // OnNodes'
}

// A JobInfo is what a policy may know of a job: its estimate is the run
// time of variant T or the requested time of variant R.
type JobInfo struct {
	Number          int64 // SWF job number
	User            int64
	SubmitSeconds   int64
	Procs           int
	EstimateSeconds int64
	StartSeconds    int64 // -1 while not started
}

// Job describes job j.
func (st *State) Job(j int) JobInfo {
	job := &st.s.jobs[j]
	return JobInfo{Number: job.Number, User: job.User, SubmitSeconds: job.SubmitSeconds, Procs: job.Procs,
		EstimateSeconds: st.s.est[j], StartSeconds: st.s.sched.StartSeconds[j]}
}

// Jobs is the number of jobs in the workload, submitted or not.
func (st *State) Jobs() int { return len(st.s.jobs) }

// Workload is the workload's name and size, for messages.
func (st *State) Workload() (name string, jobs int) { return st.s.w.Name, len(st.s.jobs) }

// Variant returns the estimate variant the simulation runs under.
func (st *State) Variant() rigid.Variant { return st.s.variant }

// decide runs one pass of the policy's Decider, refusing a start the
// model cannot carry out, and records what State.EASY promised the head
// when the Decider started a job past it.
func (s *sim) decide() error {
	st := &State{NowSeconds: s.now, Procs: s.w.Procs, FreeProcs: s.free, Waiting: s.queue, Running: s.running, Machine: s.w.Machine, s: s}
	s.promise = nil
	s.eased = s.eased[:0]
	starts, err := s.policy.Decider.Decide(st)
	if err != nil {
		return fmt.Errorf("simulating %s: decision at %d s: %w", s.w.Name, s.now, err)
	}
	switch {
	case s.w.Machine != nil:
		err = s.startOnNodes(st, starts, true)
	case len(st.named) > 0:
		err = errors.New("jobs on named nodes, and the cluster has processors, not nodes")
	default:
		err = s.startOnProcessors(starts)
	}
	if err != nil {
		return fmt.Errorf("simulating %s: decision at %d s: the policy starts %w", s.w.Name, s.now, err)
	}
	if p := s.promise; p != nil && s.relies(p, len(starts)) {
		s.sched.Reservations = append(s.sched.Reservations, p.Reservation)
	}
	return nil
}

// promise is the reservation State.EASY made to a blocked head, and the
// jobs it started ahead of the head, which do not rely on it.
type promise struct {
	Reservation
	before []int
}

// relies reports whether the decision just carried out, of n starts,
// relies on promise p: the head still waits and some job other than the
// ones EASY started ahead of it started (as the built-in records a
// reservation only when it backfilled). A Decider that starts more than
// EASY allowed is held to the promise all the same, so engine/verify
// finds a start that delays the head.
func (s *sim) relies(p *promise, n int) bool {
	if s.sched.StartSeconds[p.Head] >= 0 {
		return false
	}
	for _, j := range p.before {
		if s.sched.StartSeconds[j] == s.now {
			n-- // it waited at this decision, so it started in it
		}
	}
	return n > 0
}

// startOnProcessors starts the Decider's starts in order, each when it
// waits and fits the free processors.
func (s *sim) startOnProcessors(starts []int) error {
	for _, j := range starts {
		if err := s.canStart(j); err != nil {
			return err
		}
		s.start(j)
	}
	return nil
}

// canStart checks that job j waits and fits the free processors.
func (s *sim) canStart(j int) error {
	if err := s.canWait(j, nil); err != nil {
		return err
	}
	if s.jobs[j].Procs > s.free {
		return fmt.Errorf("job %d, which does not fit: it needs %d processors and %d are free", j, s.jobs[j].Procs, s.free)
	}
	return nil
}

// EASY returns the jobs EASY backfilling starts now from the waiting jobs
// in the given priority order (a permutation of st.Waiting, or part of
// it): from the head while they fit; then the first job that does not
// fit is promised its shadow time (when enough running jobs are
// estimated to have ended, every job ending then counted), and later jobs
// start if they fit now and either end by the shadow or use only the
// processors the head leaves spare then. It is the rule of the built-in
// policies (design note fairshare.md section 3), for a Decider that
// brings its own order.
//
// The promise of the last call in a decision is the Decider's: when the
// jobs the Decider starts go past the head, it is recorded in the
// schedule's Reservations, as the built-in's are, and engine/verify
// checks that the starts keep it.
func (st *State) EASY(order []int) []int {
	s := st.s
	var r easyResult
	if n, ok := s.alloc.(*nodes); ok {
		r = st.easyNodes(n, order)
	} else {
		c := &s.counted
		c.running, c.nowSeconds, c.free = st.Running, st.NowSeconds, st.FreeProcs
		r = easyPass(c, st.NowSeconds, order, nil)
	}
	s.promise = nil
	if r.promised {
		s.promise = &promise{Reservation: r.promise, before: slices.Clone(r.starts[:r.before])}
	}
	return r.starts
}
