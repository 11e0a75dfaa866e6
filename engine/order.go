package engine

import (
	"math"
	"math/rand/v2"
)

// An Order keeps one cluster's ready tasks in the order of an ordering
// policy; tasks are global task indices of the Instance. Push adds a task
// at the tick it becomes ready. The allocation rule reads the order a pass
// at a time: BeginPass fixes the tick, then Head and Pop walk the tasks in
// policy order at that tick. An Order may change its order between passes
// (P-SLR, random) but not between Head and the following Pop.
type Order interface {
	Push(g int32, now int64)
	BeginPass(now int64)
	Head() (int32, bool)
	Pop() int32
	Len() int
}

// A Waker is an Order that holds ready tasks back until a tick of its own
// choosing (OStrich holds a campaign until its virtual start). The
// simulation makes a pass at the tick NextWake returns even when no other
// event happens then.
type Waker interface {
	// NextWake returns the next tick after now at which the order may
	// release held work, or false if it holds none.
	NextWake(now int64) (int64, bool)
}

// taskKey is a static priority: smaller keys first, compared field by
// field; g (the global task index, in job then task order) breaks ties as
// job index then task index.
type taskKey struct {
	k1, k2, k3 int64
	g          int32
}

func (a taskKey) less(b taskKey) bool {
	switch {
	case a.k1 != b.k1:
		return a.k1 < b.k1
	case a.k2 != b.k2:
		return a.k2 < b.k2
	case a.k3 != b.k3:
		return a.k3 < b.k3
	}
	return a.g < b.g
}

// keyedOrder is a binary heap of tasks whose priority is fixed when they
// become ready: fifo-task, fifo-job, srtf and lrtf.
type keyedOrder struct {
	key   func(g int32, readyTick int64) taskKey
	items []taskKey
}

func (o *keyedOrder) Len() int        { return len(o.items) }
func (o *keyedOrder) BeginPass(int64) {}

func (o *keyedOrder) Head() (int32, bool) {
	if len(o.items) == 0 {
		return 0, false
	}
	return o.items[0].g, true
}

func (o *keyedOrder) Push(g int32, now int64) {
	o.items = append(o.items, o.key(g, now))
	siftUp(o.items, len(o.items)-1)
}

func (o *keyedOrder) Pop() int32 {
	top := o.items[0].g
	last := len(o.items) - 1
	o.items[0] = o.items[last]
	o.items = o.items[:last]
	siftDown(o.items, 0)
	return top
}

func siftUp(h []taskKey, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func siftDown(h []taskKey, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// randomOrder gives a uniformly random order of the ready tasks at every
// pass. Drawing the head lazily, one uniform pick among the tasks not yet
// taken in this pass, is a fresh shuffle without shuffling the whole queue.
type randomOrder struct {
	rng   *rand.Rand
	items []int32
	cur   int // index of the drawn head in this pass, -1 if none
}

func (o *randomOrder) Len() int              { return len(o.items) }
func (o *randomOrder) Push(g int32, _ int64) { o.items = append(o.items, g) }
func (o *randomOrder) BeginPass(int64)       { o.cur = -1 }
func (o *randomOrder) Head() (int32, bool) {
	if len(o.items) == 0 {
		return 0, false
	}
	if o.cur < 0 {
		o.cur = o.rng.IntN(len(o.items))
	}
	return o.items[o.cur], true
}

func (o *randomOrder) Pop() int32 {
	g := o.items[o.cur]
	last := len(o.items) - 1
	o.items[o.cur] = o.items[last]
	o.items = o.items[:last]
	o.cur = -1
	return g
}

// shareUsage counts, over the whole platform, the cores running tasks of
// every node of the share tree.
type shareUsage struct {
	tree    shareTree
	running []int64 // per share-tree node
}

func newShareUsage(t shareTree) *shareUsage {
	return &shareUsage{tree: t, running: make([]int64, len(t.parent))}
}

func (u *shareUsage) add(job int32, cores int64) {
	for n := u.tree.leafOf[job]; n >= 0; n = u.tree.parent[n] {
		u.running[n] += cores
	}
}

// factor is the leaf's fair-share priority: the product down its path of
// entitled share / used share, where the used share is the node's running
// cores over its parent's. A share using nothing is infinitely
// under-served.
func (u *shareUsage) factor(leaf int32) float64 {
	f := 1.0
	for n := leaf; u.tree.parent[n] >= 0; n = u.tree.parent[n] {
		used := u.running[n]
		if used == 0 {
			return math.Inf(1)
		}
		f *= u.tree.entitled[n] * float64(u.running[u.tree.parent[n]]) / float64(used)
	}
	return f
}

// fairShareOrder keeps a FIFO (fifo-task keys) per share-tree leaf and
// serves the leaf with the highest factor; equal factors fall back to the
// fifo-task keys of the leaves' heads.
type fairShareOrder struct {
	usage  *shareUsage
	taskJ  []int32
	queues map[int32]*keyedOrder
	leaves []int32 // leaves with a queue, in first-seen order
	n      int
	cur    int32 // leaf of the current head, -1 if not chosen
}

func newFairShareOrder(s *sim) *fairShareOrder {
	return &fairShareOrder{usage: s.shares, taskJ: s.in.taskJob, queues: map[int32]*keyedOrder{}, cur: -1}
}

func (o *fairShareOrder) Len() int        { return o.n }
func (o *fairShareOrder) BeginPass(int64) { o.cur = -1 }

func (o *fairShareOrder) Push(g int32, now int64) {
	leaf := o.usage.tree.leafOf[o.taskJ[g]]
	q, ok := o.queues[leaf]
	if !ok {
		q = &keyedOrder{key: func(g int32, now int64) taskKey { return taskKey{now, 0, 0, g} }}
		o.queues[leaf] = q
		o.leaves = append(o.leaves, leaf)
	}
	q.Push(g, now)
	o.n++
	o.cur = -1
}

func (o *fairShareOrder) Head() (int32, bool) {
	if o.n == 0 {
		return 0, false
	}
	if o.cur < 0 {
		bestF := math.Inf(-1)
		for _, leaf := range o.leaves {
			q := o.queues[leaf]
			if q.Len() == 0 {
				continue
			}
			f := o.usage.factor(leaf)
			if o.cur < 0 || f > bestF || (f == bestF && q.items[0].less(o.queues[o.cur].items[0])) {
				o.cur, bestF = leaf, f
			}
		}
	}
	return o.queues[o.cur].items[0].g, true
}

func (o *fairShareOrder) Pop() int32 {
	o.Head()
	g := o.queues[o.cur].Pop()
	o.n--
	o.cur = -1
	return g
}
