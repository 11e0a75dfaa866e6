package grid

import (
	"math"
	"math/rand/v2"

	"github.com/sweep-sched/sweep/internal/draw"
)

// An Order keeps one cluster's ready tasks in the order of an ordering
// policy; tasks are global task indices of the Instance. Push adds a task
// at the tick it becomes ready. The allocation rule reads the order a pass
// at a time: BeginPass fixes the tick, then Head and Pop walk the tasks in
// policy order at that tick; the simulation starts every task it pops, at
// once, on the order's cluster. An Order may change its order between
// passes (P-SLR, random) or after a Pop (fair share), but not between Head
// and the following Pop.
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

// A Finisher is an Order whose priorities depend on what runs (fair share
// counts the cores each share uses on the whole platform). The simulation
// tells it when each task it gave out finishes, before the task's
// successors become ready.
type Finisher interface {
	// Finished is told that task g, popped from this order, finished at
	// now.
	Finished(g int32, now int64)
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

// keyHeap is a min-heap of task keys. It is internal/pqueue's heap
// specialised to taskKey, for the reason tickQueue is (event.go): with the
// comparison inlined, BenchmarkSimulate's srtf, lrtf and fifo-job cases
// take 8-11% fewer instructions (callgrind) than on pqueue, whose
// comparator is a function value (and a generic method would be called
// through the shape's dictionary, not inlined either).
type keyHeap struct{ items []taskKey }

func (q *keyHeap) push(x taskKey) {
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

// pop removes and returns the least key; q must not be empty.
func (q *keyHeap) pop() taskKey {
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

// keyedOrder keeps tasks whose priority is fixed when they become ready
// (fifo-job, srtf, lrtf) in a heap of their keys.
type keyedOrder struct {
	view *View
	key  func(v *View, g int32, readyTick int64) taskKey
	q    keyHeap
}

func newKeyedOrder(v *View, key func(v *View, g int32, readyTick int64) taskKey) *keyedOrder {
	// Ready queues reach thousands at overload.
	return &keyedOrder{view: v, key: key, q: keyHeap{items: make([]taskKey, 0, 256)}}
}

func (o *keyedOrder) Len() int                { return len(o.q.items) }
func (o *keyedOrder) BeginPass(int64)         {}
func (o *keyedOrder) Push(g int32, now int64) { o.q.push(o.key(o.view, g, now)) }
func (o *keyedOrder) Pop() int32              { return o.q.pop().g }

// steady holds: a static order's head moves only by Push and Pop.
func (o *keyedOrder) steady(int64) bool { return true }

func (o *keyedOrder) Head() (int32, bool) {
	if len(o.q.items) == 0 {
		return 0, false
	}
	return o.q.items[0].g, true
}

// fifoQueue keeps tasks in fifo-task order: ready tick, then task index. A
// task is pushed at the tick it becomes ready, and the simulation's tick
// never decreases, so a push passes at most the tasks of its own tick with
// larger indices: the queue is a slice read from the front, a push and a
// pop O(1) but for those few swaps.
type fifoQueue struct {
	items []fifoItem
	head  int // items[head:] are queued
}

type fifoItem struct {
	readyTick int64
	g         int32
}

func (a fifoItem) less(b fifoItem) bool {
	return a.readyTick < b.readyTick || (a.readyTick == b.readyTick && a.g < b.g)
}

func (q *fifoQueue) len() int { return len(q.items) - q.head }

func (q *fifoQueue) push(g int32, readyTick int64) {
	if q.head > 0 && q.head >= len(q.items)/2 {
		// Reuse the popped half: amortised O(1) per push.
		q.items = q.items[:copy(q.items, q.items[q.head:])]
		q.head = 0
	}
	q.items = append(q.items, fifoItem{readyTick, g})
	for i := len(q.items) - 1; i > q.head && q.items[i].less(q.items[i-1]); i-- {
		q.items[i], q.items[i-1] = q.items[i-1], q.items[i]
	}
}

// peek returns the first task; q must not be empty.
func (q *fifoQueue) peek() fifoItem { return q.items[q.head] }

// pop removes and returns the first task; q must not be empty.
func (q *fifoQueue) pop() int32 {
	g := q.items[q.head].g
	q.head++
	return g
}

// fifoOrder is the fifo-task policy.
type fifoOrder struct{ q fifoQueue }

func (o *fifoOrder) Len() int                { return o.q.len() }
func (o *fifoOrder) BeginPass(int64)         {}
func (o *fifoOrder) Push(g int32, now int64) { o.q.push(g, now) }
func (o *fifoOrder) Pop() int32              { return o.q.pop() }

// steady holds: a static order's head moves only by Push and Pop.
func (o *fifoOrder) steady(int64) bool { return true }

func (o *fifoOrder) Head() (int32, bool) {
	if o.q.len() == 0 {
		return 0, false
	}
	return o.q.peek().g, true
}

// randomOrder gives a uniformly random order of the ready tasks at every
// pass. Drawing the head lazily, one uniform pick among the tasks not yet
// taken in this pass, is a fresh shuffle without shuffling the whole queue.
type randomOrder struct {
	src   *rand.PCG
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
		// rand.New(o.src).IntN's draw, without its interface call: the
		// head of every pass is drawn.
		o.cur = draw.IntN(o.src, len(o.items))
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
// every node of the share tree. Every cluster's fair-share order updates
// it: a task starts when its order pops it and ends when the order is told
// it finished.
type shareUsage struct {
	in      *Instance
	tree    shareTree
	running []int64 // per share-tree node
	// version counts the changes to running. factors[leaf] is the leaf's
	// factor as of version factorAt[leaf]: the clusters' passes at one
	// tick, and the heads a pass reads between two starts, ask the same
	// factors again (in BenchmarkSimulate's fan-chain, the factors cost as
	// much as the rest of fair share's order).
	version  uint64
	factors  []float64
	factorAt []uint64
}

func newShareUsage(in *Instance) *shareUsage {
	n := len(in.shares.parent)
	return &shareUsage{in: in, tree: in.shares, running: make([]int64, n), version: 1,
		factors: make([]float64, n), factorAt: make([]uint64, n)}
}

// add counts task g's cores once more (sign 1) or once less (sign -1) on
// every node of its share's path.
func (u *shareUsage) add(g int32, sign int64) {
	t := &u.in.task[g]
	cores := sign * int64(t.cores)
	for n := u.tree.leafOf[t.job]; n >= 0; n = u.tree.parent[n] {
		u.running[n] += cores
	}
	u.version++
}

// factor is the leaf's fair-share priority: the product down its path of
// entitled share / used share, where the used share is the node's running
// cores over its parent's. A share using nothing is infinitely
// under-served.
func (u *shareUsage) factor(leaf int32) float64 {
	if u.factorAt[leaf] == u.version {
		return u.factors[leaf]
	}
	f := 1.0
	for n := leaf; u.tree.parent[n] >= 0; n = u.tree.parent[n] {
		used := u.running[n]
		if used == 0 {
			f = math.Inf(1)
			break
		}
		f *= u.tree.entitled[n] * float64(u.running[u.tree.parent[n]]) / float64(used)
	}
	u.factors[leaf], u.factorAt[leaf] = f, u.version
	return f
}

// fairShareOrder keeps a FIFO (fifo-task keys) per share-tree leaf and
// serves the leaf with the highest factor; equal factors fall back to the
// fifo-task keys of the leaves' heads.
type fairShareOrder struct {
	view   *View
	usage  *shareUsage
	queues []*fifoQueue // per share-tree node; nil until a task of the leaf arrives
	leaves []int32      // leaves with a queue, in first-seen order
	n      int
	cur    int32 // leaf of the current head, -1 if not chosen
	// curAt is the usage version at which cur was chosen.
	curAt uint64
}

func newFairShareOrder(v *View, usage *shareUsage) *fairShareOrder {
	return &fairShareOrder{view: v, usage: usage, queues: make([]*fifoQueue, len(usage.tree.parent)), cur: -1}
}

func (o *fairShareOrder) Len() int        { return o.n }
func (o *fairShareOrder) BeginPass(int64) { o.cur = -1 }

// steady holds while the share usage is as it was when the head was
// chosen: the factors are then too.
func (o *fairShareOrder) steady(int64) bool         { return o.curAt == o.usage.version }
func (o *fairShareOrder) Finished(g int32, _ int64) { o.usage.add(g, -1) }

func (o *fairShareOrder) Push(g int32, now int64) {
	leaf := o.usage.tree.leafOf[o.usage.in.task[g].job]
	q := o.queues[leaf]
	if q == nil {
		// Room for the share's ready tasks at overload, so that its
		// queue is not grown a doubling at a time.
		q = &fifoQueue{items: make([]fifoItem, 0, 64)}
		o.queues[leaf] = q
		o.leaves = append(o.leaves, leaf)
	}
	q.push(g, now)
	o.n++
	o.cur = -1
}

func (o *fairShareOrder) Head() (int32, bool) {
	if o.n == 0 {
		return 0, false
	}
	if o.cur < 0 {
		o.curAt = o.usage.version
		bestF := math.Inf(-1)
		for _, leaf := range o.leaves {
			q := o.queues[leaf]
			if q.len() == 0 {
				continue
			}
			f := o.usage.factor(leaf)
			if o.cur < 0 || f > bestF || (f == bestF && q.peek().less(o.queues[o.cur].peek())) {
				o.cur, bestF = leaf, f
			}
		}
	}
	return o.queues[o.cur].peek().g, true
}

func (o *fairShareOrder) Pop() int32 {
	o.Head()
	g := o.queues[o.cur].pop()
	o.usage.add(g, 1)
	o.n--
	o.cur = -1
	return g
}
