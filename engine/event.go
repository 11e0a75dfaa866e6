package engine

import (
	"github.com/sweep-sched/sweep/internal/pqueue"
	"github.com/sweep-sched/sweep/workload"
)

// never is the tick of no event. It is workload.MaxTicks, which bounds a
// workload's ticks before network delays are added.
const never = int64(workload.MaxTicks)

// A tickItem is an event of the simulation: something happens to id, a
// job or global task index, at tick.
type tickItem struct {
	tick int64
	id   int32
}

func (a tickItem) less(b tickItem) bool {
	return a.tick < b.tick || (a.tick == b.tick && a.id < b.id)
}

// newTickQueue returns an event queue ordered by tick, then id. Ordering
// ties by id makes the order of events within a tick independent of the
// order they were scheduled in.
func newTickQueue() pqueue.Queue[tickItem] { return pqueue.New(tickItem.less) }

// nextTick returns the tick of q's first event, or never if q is empty.
func nextTick(q *pqueue.Queue[tickItem]) int64 {
	if q.Len() == 0 {
		return never
	}
	return q.Peek().tick
}
