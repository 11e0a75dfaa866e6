package backfill

import (
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Placement is how a started job's processors are chosen: two modelling
// options on which simulators of the literature differ.
type Placement uint8

// The placements.
const (
	// PlaceProcessors counts processors: a job fits when enough are free,
	// wherever they are, and the schedule names no processor. The
	// default: the rigid model as the design note fixes it.
	PlaceProcessors Placement = iota
	// PlaceContiguous gives every job a block of consecutive resource ids
	// (0 to Procs-1), chosen as pybatsim 3.2.1's easyBackfill chooses
	// them (contiguous.go, docs/batsim.md): first fit over the free
	// blocks in id order, each block allocated from the end its history
	// says; the head's reservation is a block too. A job then waits while
	// enough processors are free but fragmented. EASY backfilling only.
	PlaceContiguous
)

// Pass is when the simulator runs a scheduling pass.
type Pass uint8

// The passes.
const (
	// PassPerInstant runs one pass per instant, after all its completions
	// and arrivals: a scheduler sees the state of the whole instant. The
	// default.
	PassPerInstant Pass = iota
	// PassPerEvent runs one pass after each completion and each arrival,
	// in the order Batsim tells them (policy/batsim: completions by job
	// index, then arrivals by job index), as pybatsim's schedulers do for
	// the events of one message: a pass after the first of two jobs
	// ending at one second still counts the second as running until its
	// estimated end.
	PassPerEvent
)

// Head is whether the head of the queue may change while it waits.
type Head uint8

// The head rules.
const (
	// HeadReevaluated sorts the queue afresh at every pass, so a job
	// that arrives with a better key overtakes a blocked head. The
	// default.
	HeadReevaluated Head = iota
	// HeadCommitted keeps a blocked head at the head until it starts, as
	// RLScheduler's environment does (it picks a job, then waits until it
	// fits): the first job of the order that a pass leaves waiting (with
	// no pass, the first of the order when nothing fits) stays first
	// until it starts; the rest are re-sorted behind it.
	HeadCommitted
)

var (
	placementNames = []string{"processors", "contiguous"}
	passNames      = []string{"per-instant", "per-event"}
	headNames      = []string{"reevaluated", "committed"}
)

func (p Placement) String() string { return enumName(placementNames, int(p)) }
func (p Pass) String() string      { return enumName(passNames, int(p)) }
func (h Head) String() string      { return enumName(headNames, int(h)) }

// ParseHead reads a head rule by name: reevaluated or committed.
func ParseHead(name string) (Head, error) {
	if i := slices.Index(headNames, name); i >= 0 {
		return Head(i), nil
	}
	return 0, fmt.Errorf("head %q: want reevaluated (the queue re-sorted at every decision point, the default) or committed (a blocked head stays the head until it starts, as RLScheduler)", name)
}

func enumName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%d", i)
}

// ParsePlacement reads a placement by name: processors or contiguous.
func ParsePlacement(name string) (Placement, error) {
	if i := slices.Index(placementNames, name); i >= 0 {
		return Placement(i), nil
	}
	return 0, fmt.Errorf("placement %q: want processors (count free processors, the default) or contiguous (blocks of consecutive resource ids, as pybatsim's easyBackfill)", name)
}

// ParsePass reads a pass by name: per-instant or per-event.
func ParsePass(name string) (Pass, error) {
	if i := slices.Index(passNames, name); i >= 0 {
		return Pass(i), nil
	}
	return 0, fmt.Errorf("pass %q: want per-instant (one scheduling pass per instant, the default) or per-event (one after each completion and arrival, as pybatsim)", name)
}

// validateModelling checks the placement and pass options against the
// rest of the policy.
func (p *Policy) validateModelling() error {
	if p.Placement > PlaceContiguous {
		return fmt.Errorf("policy: placement %d: want processors or contiguous", p.Placement)
	}
	if p.Pass > PassPerEvent {
		return fmt.Errorf("policy: pass %d: want per-instant or per-event", p.Pass)
	}
	if p.Placement == PlaceContiguous && (p.Allocation != AllocEASY || p.Planner != nil || p.Decider != nil) {
		return fmt.Errorf("policy: contiguous placement is EASY backfilling's (pybatsim's easyBackfill); not with conservative or strict allocation, Tradeoff-fs or a Decider")
	}
	if p.Pass == PassPerEvent && p.Decider != nil {
		return fmt.Errorf("policy: a Decider is asked once per instant; per-event passes are for the built-in rules")
	}
	if p.Head > HeadCommitted {
		return fmt.Errorf("policy: head %d: want reevaluated or committed", p.Head)
	}
	if p.Head == HeadCommitted && (p.Decider != nil || p.Planner != nil) {
		return fmt.Errorf("policy: head committed is for the built-in queue orders; a Decider or Tradeoff-fs chooses its own")
	}
	if p.Kill > rigid.KillNever {
		return fmt.Errorf("policy: kill %d: want request or never", p.Kill)
	}
	return nil
}
