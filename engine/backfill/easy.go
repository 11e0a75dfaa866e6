package backfill

import (
	"cmp"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// An easyPlacement is the free resources of one pass as easyPass places
// jobs on them in turn; nothing of the simulation changes until commit.
type easyPlacement interface {
	// fit appends to starts the jobs of order, from the first, while
	// each fits what the ones before it left, and returns them.
	fit(order, starts []int) []int
	// reserve promises head, which does not fit, the earliest time it
	// can start given the running jobs' estimated ends, the jobs of
	// starts included (placed now), and returns that time: the shadow.
	reserve(head int, starts []int) (shadowSeconds int64)
	// backfill appends to starts the jobs of order that fit now without
	// delaying the reservation, each in what the ones before it left:
	// only a job estimated to end by the shadow may use what the head
	// takes then.
	backfill(order []int, shadowSeconds int64, starts []int) []int
	// commit starts the placed jobs in the simulation, in order.
	commit(s *sim, starts []int)
}

// easyPass is EASY backfilling (Lifka; design note section 3), the one
// rule of the built-in EASY on every placement and of State.EASY: the
// jobs of order, in priority order, start from the first while they fit;
// the first that does not, the head, is promised its shadow (the
// earliest time the running jobs' estimated ends leave it room), and
// every later job starts if it fits now without delaying that. Starts
// are appended to starts[:0].
func easyPass(p easyPlacement, nowSeconds int64, order, starts []int) easyResult {
	starts = p.fit(order, starts[:0])
	k := len(starts)
	if len(order)-k < 2 {
		// No job waits behind a blocked head: nothing could break a
		// promise, and pybatsim, whose blocks PlaceContiguous follows,
		// reserves nothing then.
		return easyResult{starts: starts, before: k}
	}
	head := order[k]
	shadow := p.reserve(head, starts)
	starts = p.backfill(order[k+1:], shadow, starts)
	return easyResult{starts: starts, before: k, promised: true,
		promise: Reservation{AtSeconds: nowSeconds, Head: head, ShadowSeconds: shadow}}
}

// easyResult is what one EASY pass decided.
type easyResult struct {
	starts []int
	// before is how many of starts fit ahead of the head; the rest were
	// backfilled.
	before int
	// promise is the head's reservation, when promised: only the starts
	// past before rely on it, so a schedule records it only then.
	promise  Reservation
	promised bool
}

// backfilled reports whether a job started past the blocked head.
func (r *easyResult) backfilled() bool { return r.promised && len(r.starts) > r.before }

// counted is the placement of the design note: a job fits when enough
// processors are free, wherever they are. As an allocator it holds the
// scratch space of the simulation's passes; State.EASY fills one from the
// Decider's state.
type counted struct {
	jobs         []rigid.Job
	est          []int64 // estimate per job
	startSeconds []int64 // start per job
	running      []int

	nowSeconds  int64
	free, extra int
	ends        []endEvent
}

func (c *counted) ready(s *sim) bool {
	if len(s.queue) == 0 || s.free == 0 {
		return false
	}
	for _, j := range s.queue {
		if s.jobs[j].Procs <= s.free {
			return true
		}
	}
	return false
}

func (c *counted) snapshot(s *sim) easyPlacement {
	c.running, c.nowSeconds, c.free = s.running, s.now, s.free
	return c
}

func (c *counted) release(*sim, int) {} // the simulator counts free processors itself

func (c *counted) fit(order, starts []int) []int {
	for _, j := range order {
		n := c.jobs[j].Procs
		if n > c.free {
			break
		}
		c.free -= n
		starts = append(starts, j)
	}
	return starts
}

// reserve returns the shadow, and keeps as extra the processors the head
// leaves spare then: every job ending at or before the shadow counts
// (the note's inclusive rule), so equal ends are all counted.
func (c *counted) reserve(head int, starts []int) int64 {
	ends := c.ends[:0]
	for _, j := range c.running {
		ends = append(ends, endEvent{seconds: c.startSeconds[j] + c.est[j], job: j})
	}
	for _, j := range starts {
		ends = append(ends, endEvent{seconds: c.nowSeconds + c.est[j], job: j})
	}
	c.ends = ends
	slices.SortFunc(ends, func(a, b endEvent) int { return cmp.Compare(a.seconds, b.seconds) })
	need := c.jobs[head].Procs
	avail := c.free
	i := 0
	for ; i < len(ends); i++ {
		avail += c.jobs[ends[i].job].Procs
		if avail >= need {
			break
		}
	}
	shadow := ends[i].seconds
	for i++; i < len(ends) && ends[i].seconds == shadow; i++ {
		avail += c.jobs[ends[i].job].Procs
	}
	c.extra = avail - need
	return shadow
}

func (c *counted) backfill(order []int, shadowSeconds int64, starts []int) []int {
	for _, j := range order {
		n := c.jobs[j].Procs
		if n > c.free {
			continue
		}
		switch {
		case c.nowSeconds+c.est[j] <= shadowSeconds:
		case n <= c.extra:
			c.extra -= n
		default:
			continue
		}
		c.free -= n
		starts = append(starts, j)
	}
	return starts
}

func (c *counted) commit(s *sim, starts []int) {
	for _, j := range starts {
		s.start(j)
	}
}
