package grid

import "github.com/sweep-sched/sweep/internal/pqueue"

// A JobPriority gives each job a priority when its first task becomes
// ready: jobs are the jobs whose first task became ready at the view's
// current tick (in the order their tasks became ready), and it returns
// one priority per job, smaller first. A decision process answers a whole
// tick's new jobs in one exchange this way.
type JobPriority func(v *View, jobs []int) []float64

// JobPriorityOrders returns the orders of a policy that ranks ready tasks
// by their job's priority, then job index, then the tick the task became
// ready, then task index: with the job's arrival tick as its priority
// this is fifo-job. Call it once per simulation: the clusters' orders
// share the priorities.
func JobPriorityOrders(priority JobPriority) func(v *View, cluster int) Order {
	var shared *jobPriorities
	return func(v *View, _ int) Order {
		if shared == nil {
			in := v.Instance()
			shared = &jobPriorities{view: v, priority: priority, prio: make([]float64, in.Jobs()), state: make([]uint8, in.Jobs())}
		}
		return &jobPriorityOrder{shared: shared, q: pqueue.New(jobKey.less)}
	}
}

// jobPriorities are the priorities of the jobs of one simulation.
type jobPriorities struct {
	view     *View
	priority JobPriority
	prio     []float64
	state    []uint8 // per job: 0 unseen, 1 asked at the next flush, 2 known
	asked    []int
}

// flush asks the priorities of the jobs seen since the last flush.
func (p *jobPriorities) flush() {
	if len(p.asked) == 0 {
		return
	}
	got := p.priority(p.view, p.asked)
	for i, j := range p.asked {
		if i < len(got) {
			p.prio[j] = got[i]
		}
		p.state[j] = 2
	}
	p.asked = p.asked[:0]
}

type jobKey struct {
	prio      float64
	job       int32
	readyTick int64
	g         int32
}

func (a jobKey) less(b jobKey) bool {
	switch {
	case a.prio != b.prio:
		return a.prio < b.prio
	case a.job != b.job:
		return a.job < b.job
	case a.readyTick != b.readyTick:
		return a.readyTick < b.readyTick
	}
	return a.g < b.g
}

// jobPriorityOrder is one cluster's order; tasks whose job's priority is
// not known yet wait in pending until the next pass asks for it.
type jobPriorityOrder struct {
	shared  *jobPriorities
	q       pqueue.Queue[jobKey]
	pending []jobKey
}

func (o *jobPriorityOrder) Len() int { return o.q.Len() + len(o.pending) }

func (o *jobPriorityOrder) Push(g int32, now int64) {
	p := o.shared
	j := p.view.s.in.task[g].job
	switch p.state[j] {
	case 2:
		o.q.Push(jobKey{p.prio[j], j, now, g})
		return
	case 0:
		p.state[j] = 1
		p.asked = append(p.asked, int(j))
	}
	o.pending = append(o.pending, jobKey{0, j, now, g})
}

func (o *jobPriorityOrder) BeginPass(int64) {
	if len(o.pending) == 0 {
		return
	}
	o.shared.flush()
	for _, k := range o.pending {
		k.prio = o.shared.prio[k.job]
		o.q.Push(k)
	}
	o.pending = o.pending[:0]
}

func (o *jobPriorityOrder) Head() (int32, bool) {
	if o.q.Len() == 0 {
		return 0, false
	}
	return o.q.Peek().g, true
}

func (o *jobPriorityOrder) Pop() int32 { return o.q.Pop().g }
