package backfill

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// validateNodes refuses what a machine of nodes does not support yet and
// checks the node options where they apply.
func (p *Policy) validateNodes(w *rigid.Workload) error {
	if p.Nodes > SelectBestFit {
		return fmt.Errorf("policy: node selection %d: want first-fit or best-fit", p.Nodes)
	}
	if p.Charge > ChargeBilling {
		return fmt.Errorf("policy: charge %d: want cores, dominant or billing", p.Charge)
	}
	if b := p.Billing; b.Core < 0 || b.MemoryGiB < 0 || b.GPU < 0 {
		return fmt.Errorf("policy: billing weights %+v: want each at least 0", b)
	}
	if w.Machine == nil {
		return nil
	}
	switch {
	case p.Planner != nil:
		return fmt.Errorf("policy: Tradeoff-fs on a machine of nodes is not built yet; use an order with easy or conservative backfilling")
	case p.Placement != PlaceProcessors:
		return fmt.Errorf("policy: placement %s is for processors; a machine of nodes has its node selection (first-fit or best-fit)", p.Placement)
	}
	return nil
}

// useNodes makes the simulation place jobs on the workload's nodes: the
// nodes allocator, and the rule of the policy's allocation over it.
func (s *sim) useNodes() {
	// A Decider's State works on named nodes (nodesdecide.go), which
	// the counting allocator of whole nodes does not keep.
	if wholeNodesOf(s.w) && s.policy.Decider == nil {
		s.useWholeNodes()
		return
	}
	n := newNodes(s, s.policy.Nodes)
	s.alloc = n
	s.planner = nil
	s.usage.charge = make([]int64, len(s.jobs))
	s.rule = s.ruleWith(func() error {
		s.sortQueue()
		n.conservative()
		return nil
	})
}

// useWholeNodes is useNodes on a machine whose jobs take whole nodes
// (nodewhole.go).
func (s *sim) useWholeNodes() {
	n := newWholeNodes(s)
	s.alloc = n
	s.planner = nil
	if !chargesProcessors(s.w, s.policy.Charge) {
		s.usage.charge = make([]int64, len(s.jobs))
	}
	s.rule = s.ruleWith(func() error {
		s.sortQueue()
		n.conservative()
		return nil
	})
}

// estimatedEnds returns, in buf's space, the estimated end of every
// running job and of each job of starts (starting now, named -1-i for
// starts[i]), by time: what a node allocator's reservation releases.
func (s *sim) estimatedEnds(buf []endEvent, starts []int) []endEvent {
	ends := buf[:0]
	for _, j := range s.running {
		ends = append(ends, endEvent{seconds: s.sched.StartSeconds[j] + s.est[j], job: j})
	}
	for i, j := range starts {
		ends = append(ends, endEvent{seconds: s.now + s.est[j], job: -1 - i})
	}
	slices.SortFunc(ends, func(a, b endEvent) int { return cmp.Compare(a.seconds, b.seconds) })
	return ends
}
