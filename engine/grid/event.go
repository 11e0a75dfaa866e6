package grid

import (
	"cmp"
	"math"
)

// never is the tick of no event. Compile admits only instances whose every
// tick, network delays included, stays below it (workload.MaxTicks bounds
// arrivals, execs and releases; the delays must fit the rest).
const never = math.MaxInt64

// A tickItem is an event of the simulation: something happens to id, a
// job or global task index, at tick.
type tickItem struct {
	tick int64
	id   int32
}

func (a tickItem) less(b tickItem) bool {
	return a.tick < b.tick || (a.tick == b.tick && a.id < b.id)
}

func (a tickItem) cmp(b tickItem) int {
	return cmp.Or(cmp.Compare(a.tick, b.tick), cmp.Compare(a.id, b.id))
}

// tickQueue is a min-heap of events ordered by tick, then id. Ordering ties
// by id makes the order of events within a tick independent of the order
// they were scheduled in.
//
// It is internal/pqueue's heap specialised to tickItem, so that the
// comparison is inlined: the event queues are the simulation's hottest
// code, and on pqueue, whose comparator is called through a function
// value, BenchmarkSimulate's cases took 12-18% more CPU time (geometric
// mean). (The keyed orders' heaps, under 2% then, are specialised too
// now: keyHeap, order.go.)
//
// The finish heap is still about a sixth of fan-chain/random's CPU time
// (280 instructions per pop at some 420 running tasks). Tried instead
// and measured slower or no better (issue 25, callgrind and task-clock):
// a radix heap, binary digits (13 moves per event: exec times span 2^0
// to 2^27 ticks) or 64-way (5 moves); one heap for finishes and delays
// ordered by tick alone, a tick's events sorted after taking them; a
// 4-ary heap; Floyd's bottom-up deletion (the last event rarely sinks to
// the bottom here); a hole instead of swaps; a branchless comparison.
type tickQueue struct{ items []tickItem }

func (q *tickQueue) Push(x tickItem) {
	q.items = append(q.items, x)
	h := q.items
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// Pop removes and returns the first event; q must not be empty.
func (q *tickQueue) Pop() tickItem {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	h := q.items
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}

// nextTick returns the tick of q's first event, or never if q is empty.
func nextTick(q *tickQueue) int64 {
	if len(q.items) == 0 {
		return never
	}
	return q.items[0].tick
}
