package engine

// tickHeap is a min-heap of (tick, id) pairs ordered by tick, then id: the
// event queues of the simulation. Ordering ties by id (a job or global task
// index) makes the order of events within a tick independent of the order
// they were scheduled in.
type tickHeap struct{ items []tickItem }

type tickItem struct {
	tick int64
	id   int32
}

func (h *tickHeap) len() int { return len(h.items) }

func (h *tickHeap) peekTick(empty int64) int64 {
	if len(h.items) == 0 {
		return empty
	}
	return h.items[0].tick
}

func (a tickItem) less(b tickItem) bool {
	return a.tick < b.tick || (a.tick == b.tick && a.id < b.id)
}

func (h *tickHeap) push(tick int64, id int32) {
	h.items = append(h.items, tickItem{tick, id})
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.items[i].less(h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *tickHeap) pop() (int64, int32) {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.items[r].less(h.items[l]) {
			m = r
		}
		if !h.items[m].less(h.items[i]) {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top.tick, top.id
}
