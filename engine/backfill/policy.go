// Package backfill is the rigid model's event simulator: rigid parallel
// jobs on one cluster of identical processors (design note fairshare.md,
// after Vasupongayya's fair-share study, seed 003):
// priority orders (fcfs, the RelShare fair-share order over a usage
// window), allocation rules (strict head of queue, EASY and conservative
// backfilling) and the Tradeoff-fs planner, a depth-bounded discrepancy
// search over orders of the waiting jobs.
//
// Time is integer seconds. Decisions are taken at every arrival and every
// completion; at one instant all completions come first, then all
// arrivals (by submit time, then job number), then one scheduling pass
// (or, as an option, a pass after each of them; options.go). The queue
// orders are the standard library's (fcfs, sjf, ..., f1-f4; order.go)
// besides RelShare. Jobs need
// processors, wherever they are (or, as an option, blocks of consecutive
// resource ids as pybatsim's easyBackfill places them; contiguous.go).
// Nothing is kept between passes (but, with contiguous placement, the
// free blocks and the end each is allocated from): orders, reservations
// and plans are recomputed at every decision point, so a schedule is a
// pure function of the workload, the estimate variant and the policy.
package backfill

import (
	"fmt"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Order is the priority order of the waiting jobs.
type Order uint8

// The orders.
const (
	// OrderRelShare sorts by the owner's usage inside the usage window,
	// ascending (equal shares for every user), then submit time, then job
	// number: RelShare of the paper.
	OrderRelShare Order = iota
	// OrderFCFS sorts by submit time, then job number.
	OrderFCFS
)

// UsageWindow is the period over which RelShare sums a user's usage.
type UsageWindow uint8

// The usage windows.
const (
	// WindowTumbling is the calendar day (of WindowSeconds) starting at
	// 00:00 UTC: usage restarts from zero at midnight. The note's default.
	WindowTumbling UsageWindow = iota
	// WindowSliding is the last WindowSeconds before now.
	WindowSliding
	// WindowUnbounded never forgets usage (a contrast of Example 3).
	WindowUnbounded
)

// UsageCount says which jobs count towards a user's usage.
type UsageCount uint8

// The usage counts.
const (
	// CountRunning counts running jobs up to now besides completed ones
	// (the paper, Sec. V).
	CountRunning UsageCount = iota
	// CountCompletedOnly counts completed jobs only (a contrast of
	// Example 3).
	CountCompletedOnly
)

// Allocation is the rule that starts jobs from the ordered queue.
type Allocation uint8

// The allocation rules.
const (
	// AllocEASY starts from the head while it fits, reserves the first
	// job that does not fit at its shadow time and backfills the rest
	// (Lifka), with the inclusive shadow rule of the note's section 3.
	AllocEASY Allocation = iota
	// AllocConservative gives every waiting job, in order, the earliest
	// slot in the profile of the running jobs and the earlier waiting
	// jobs, and starts those whose slot is now.
	AllocConservative
	// AllocStrict starts from the head while it fits and stops at the
	// first job that does not.
	AllocStrict
)

// DaySeconds is the length of the RelShare(1d) window.
const DaySeconds = 86400

// Policy is one scheduling policy.
type Policy struct {
	Order  Order
	Window UsageWindow
	// WindowSeconds is the window's length; 0 means DaySeconds.
	WindowSeconds int64
	Usage         UsageCount
	Allocation    Allocation
	// Planner, when not nil, replaces Allocation by the Tradeoff-fs
	// search; Order is then its branching heuristic.
	Planner *Tradeoff
	// Decider, when not nil, replaces Order, Allocation and Planner: a
	// policy written outside this package decides every pass.
	Decider Decider
	// Placement, Pass, Head and Kill are modelling options (options.go);
	// their zero values, counting processors, one pass per instant, the
	// queue re-sorted at every pass and jobs killed at their request,
	// are the rigid model's as the design note fixes it.
	Placement Placement
	Pass      Pass
	Head      Head
	Kill      rigid.Kill
	// Nodes, Charge and Billing apply on a machine of nodes only
	// (nodes.go, nodecharge.go): how nodes are selected, and what
	// RelShare charges a job's user.
	Nodes   NodeSelection
	Charge  Charge
	Billing Billing

	// checkKept makes every reuse of a kept node reservation check it
	// against one built anew (tests only: export_test.go).
	checkKept bool
}

// Objective is how Tradeoff-fs compares two plans.
type Objective uint8

// The objectives.
const (
	// ObjectiveTradeoff minimises alpha E + A.
	ObjectiveTradeoff Objective = iota
	// ObjectiveHier minimises E, then A.
	ObjectiveHier
)

// Defaults of Tradeoff-fs (design note section 4).
const (
	DefaultTwSeconds        = 48 * 3600
	DefaultAlphaPerHour     = 1.0
	DefaultBudgetPlacements = 10000
)

// Tradeoff holds the parameters of the Tradeoff-fs(Tw:avgX) planner.
type Tradeoff struct {
	// TwSeconds is the wait beyond which a job starves (E counts the
	// excess, in hours).
	TwSeconds int64
	// TwFCFSMax, when set, replaces TwSeconds by the largest wait of a
	// measured job under fcfs-easy on the same workload.
	TwFCFSMax    bool
	AlphaPerHour float64
	Objective    Objective
	// BudgetPlacements bounds the earliest-fit placements per decision
	// point. The heuristic path always completes; a path cut by the
	// budget is discarded.
	BudgetPlacements int
}

// DefaultTradeoff returns Tradeoff-fs with the note's defaults.
func DefaultTradeoff() *Tradeoff {
	return &Tradeoff{TwSeconds: DefaultTwSeconds, AlphaPerHour: DefaultAlphaPerHour, BudgetPlacements: DefaultBudgetPlacements}
}

// RelShare returns RelShare(1d): the fair-share order over the tumbling
// calendar day, running jobs counted, with EASY backfilling.
func RelShare() Policy { return Policy{Order: OrderRelShare} }

// FCFSEasy returns fcfs-easy, the baseline.
func FCFSEasy() Policy { return Policy{Order: OrderFCFS} }

// TradeoffFS returns Tradeoff-fs with the note's defaults and the
// RelShare(1d) branching heuristic.
func TradeoffFS() Policy { return Policy{Order: OrderRelShare, Planner: DefaultTradeoff()} }

func (p *Policy) validate() error {
	if err := p.validateModelling(); err != nil {
		return err
	}
	if p.Decider != nil && (p.Planner != nil || p.Allocation == AllocConservative) {
		return fmt.Errorf("policy: a Decider replaces the planner and conservative backfilling; give one or the other")
	}
	if p.Order > OrderF4 {
		return fmt.Errorf("policy: order %d: want one of %v", p.Order, orderNames)
	}
	if p.Window > WindowUnbounded {
		return fmt.Errorf("policy: window %d: want tumbling, sliding or unbounded", p.Window)
	}
	if p.WindowSeconds < 0 {
		return fmt.Errorf("policy: window %d s: want at least 1 s (0 for a day)", p.WindowSeconds)
	}
	if p.Allocation > AllocStrict {
		return fmt.Errorf("policy: allocation %d: want easy, conservative or strict", p.Allocation)
	}
	if t := p.Planner; t != nil {
		switch {
		case t.TwSeconds < 0:
			return fmt.Errorf("policy: tradeoff Tw %d s: want at least 0", t.TwSeconds)
		case t.AlphaPerHour < 0:
			return fmt.Errorf("policy: tradeoff alpha %g per hour: want at least 0", t.AlphaPerHour)
		case t.Objective > ObjectiveHier:
			return fmt.Errorf("policy: tradeoff objective %d: want tradeoff or hier", t.Objective)
		case t.BudgetPlacements < 0:
			return fmt.Errorf("policy: tradeoff budget %d placements: want at least 0 (the heuristic path always completes)", t.BudgetPlacements)
		}
	}
	return nil
}
