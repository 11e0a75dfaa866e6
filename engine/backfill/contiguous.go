package backfill

import (
	"cmp"
	"slices"

	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Contiguous placement (PlaceContiguous) follows pybatsim 3.2.1's
// easyBackfill (schedulers/easyBackfill.py, its FreeSpaceContainer) rule
// for rule, so that the built-in EASY with this placement and per-event
// passes starts every job at the second pybatsim does (policy/batsim's
// TestContiguousEasyAgreesWithPybatsim). Its rules, as docs/batsim.md
// states them:
//
//   - The free resources are kept as maximal blocks of consecutive ids in
//     id order, each with the end it is allocated from: its lowest ids
//     or its highest.
//   - A job goes to the first block (lowest ids) with room for it, taking
//     its ids from that block's end.
//   - A block is allocated from its lowest ids when it is the whole
//     platform at the start, when a freed job's block starts a new free
//     block or joins a free block above it, and after a backfilling pass
//     that shortened it (below). A freed job's block that joins only the
//     free block below it makes that block allocated from its highest
//     ids: new jobs go where the ended job was. Joining blocks on both
//     sides keeps the lower block's end.
//   - The head that does not fit is reserved a block: the running jobs
//     are freed, on a copy, in order of estimated end (start + requested
//     time; equal ends in the order they started) until the block that
//     the last one freed joins holds the head; the head's block is taken
//     from that block's end as above, and its shadow is that job's
//     estimated end.
//   - Backfilling (only when a job waits behind the head): the free block
//     holding the reservation's first id and the one holding its last are
//     shortened: only a job whose requested time ends by the shadow may
//     go there. A free block that sticks out below the reservation is
//     split in two views of it: the shortened block, allocated from its
//     highest ids (into the reservation), then the part below the
//     reservation, of unlimited length, allocated from its lowest ids;
//     likewise above, the shortened block from its lowest ids, then the
//     part above from its highest. Every later waiting job, in order,
//     goes to the first view with room (and time) for it. Free blocks
//     strictly inside the reservation are not shortened (pybatsim's
//     rule: a job started there may delay the head).
//   - Passes run whether or not a job can start: a backfilling pass
//     leaves its shortened blocks allocated from their lowest ids.
//
// Ids count from 0 in the order of Batsim's resources.

// freeBlock is a maximal run of free resource ids, first to last
// included; lowFirst tells from which end it is allocated.
type freeBlock struct {
	first, last int
	lowFirst    bool
}

func (b freeBlock) size() int { return b.last - b.first + 1 }

// blocks is the contiguous placement of one simulation: its allocator
// and the placement of its EASY passes.
type blocks struct {
	s    *sim
	free []freeBlock // ascending
	// seq numbers the starts: pybatsim keeps its running jobs sorted by
	// estimated end, equal ends in the order they were added.
	seq     []int64
	nextSeq int64

	// A pass places jobs on work, a copy of free, and keeps the first id
	// of each job it places in firsts, in the order of its starts; once
	// it reserved a block for the head, it places them on views.
	work     []freeBlock
	firsts   []int
	reserved bool

	// scratch space of a pass
	ends  []seqEnd
	copy  []freeBlock
	views []view
}

type seqEnd struct {
	seconds int64
	seq     int64
	first   int // the job's first id
	procs   int
}

// view is a free block as one backfilling pass sees it (pybatsim's
// FreeSpace during allocBackFill).
type view struct {
	first, last int
	lowFirst    bool
	// shortened views take only jobs ending by the head's shadow.
	shortened bool
	// virtual views are the parts of a split block outside the
	// reservation; they overlap the block's view and go after the pass.
	virtual bool
	removed bool
	// linked is the other view of a split block (-1: none): an allocation
	// in one takes the same ids from the other.
	linked int
}

func newBlocks(s *sim) *blocks {
	return &blocks{s: s, free: []freeBlock{{first: 0, last: s.w.Procs - 1, lowFirst: true}}, seq: make([]int64, len(s.jobs))}
}

// ready is true whenever a job waits and a block is free: unlike the
// count of processors, a pass changes the blocks even when no job starts.
func (b *blocks) ready(s *sim) bool { return len(s.queue) > 0 && len(b.free) > 0 }

func (b *blocks) snapshot(*sim) easyPlacement {
	b.work = append(b.work[:0], b.free...)
	b.firsts = b.firsts[:0]
	b.reserved = false
	return b
}

func (b *blocks) release(s *sim, j int) {
	_, b.free = release(b.free, s.sched.FirstResource[j], s.jobs[j].Procs)
}

// firstFit returns the first block with room for n ids, or -1.
func firstFit(free []freeBlock, n int) int {
	for i, b := range free {
		if b.size() >= n {
			return i
		}
	}
	return -1
}

// take allocates n ids from block i, from the end it is allocated from,
// and returns the first of them.
func take(free []freeBlock, i, n int) (first int, rest []freeBlock) {
	b := &free[i]
	if b.lowFirst {
		first = b.first
		b.first += n
	} else {
		first = b.last - n + 1
		b.last -= n
	}
	if b.size() == 0 {
		free = slices.Delete(free, i, i+1)
	}
	return first, free
}

// release frees the ids first to first+n-1 (pybatsim's unassignJob) and
// returns the index of the block that holds them.
func release(free []freeBlock, first, n int) (i int, rest []freeBlock) {
	last := first + n - 1
	i, _ = slices.BinarySearchFunc(free, first, func(b freeBlock, id int) int { return cmp.Compare(b.first, id) })
	below := i > 0 && free[i-1].last+1 == first
	above := i < len(free) && free[i].first-1 == last
	switch {
	case below && above:
		free[i-1].last = free[i].last
		return i - 1, slices.Delete(free, i, i+1)
	case below:
		free[i-1].last = last
		free[i-1].lowFirst = false // next to where the ended job was
		return i - 1, free
	case above:
		free[i].first = first
		free[i].lowFirst = true
		return i, free
	}
	return i, slices.Insert(free, i, freeBlock{first: first, last: last, lowFirst: true})
}

// fit places each job in the first block with room for it (pybatsim's
// _schedule_jobs before its backfilling).
func (b *blocks) fit(order, starts []int) []int {
	for _, j := range order {
		n := b.s.jobs[j].Procs
		i := firstFit(b.work, n)
		if i < 0 {
			break
		}
		var first int
		first, b.work = take(b.work, i, n)
		b.firsts = append(b.firsts, first)
		starts = append(starts, j)
	}
	return starts
}

// reserve reserves the head a block and builds the views the backfilling
// places jobs on around it.
func (b *blocks) reserve(head int, starts []int) int64 {
	n := b.s.jobs[head].Procs
	first, shadow := b.reservedBlock(n, starts)
	b.splitViews(first, first+n-1)
	b.reserved = true
	return shadow
}

// backfill places each job in the first view with room for it, a
// shortened one only if the job is estimated to end by the shadow.
func (b *blocks) backfill(order []int, shadowSeconds int64, starts []int) []int {
	s := b.s
	for _, j := range order {
		n := s.jobs[j].Procs
		for v := range b.views {
			w := &b.views[v]
			if w.removed || w.last-w.first+1 < n || w.shortened && s.est[j] > shadowSeconds-s.now {
				continue
			}
			b.firsts = append(b.firsts, b.allocView(v, n))
			starts = append(starts, j)
			break
		}
	}
	return starts
}

// commit starts the placed jobs on their ids and keeps what is left free:
// after a pass that reserved a block, its views of the free blocks (not
// the virtual parts outside the reservation), the shortened ones
// allocated from their lowest ids from then on, as pybatsim leaves them.
func (b *blocks) commit(s *sim, starts []int) {
	for i, j := range starts {
		s.start(j)
		s.sched.FirstResource[j] = b.firsts[i]
		b.seq[j] = b.nextSeq
		b.nextSeq++
	}
	if !b.reserved {
		b.free, b.work = b.work, b.free
		return
	}
	b.free = b.free[:0]
	for _, w := range b.views {
		if !w.virtual && !w.removed {
			b.free = append(b.free, freeBlock{first: w.first, last: w.last, lowFirst: w.lowFirst || w.shortened})
		}
	}
}

// reservedBlock returns the first id of the block reserved for a head of
// n ids and its shadow (pybatsim's findAllocFuture), the jobs of starts
// (placed now) running too.
func (b *blocks) reservedBlock(n int, starts []int) (first int, shadowSeconds int64) {
	s := b.s
	ends := b.ends[:0]
	for _, j := range s.running {
		ends = append(ends, seqEnd{seconds: s.sched.StartSeconds[j] + s.est[j], seq: b.seq[j], first: s.sched.FirstResource[j], procs: s.jobs[j].Procs})
	}
	for i, j := range starts {
		ends = append(ends, seqEnd{seconds: s.now + s.est[j], seq: b.nextSeq + int64(i), first: b.firsts[i], procs: s.jobs[j].Procs})
	}
	b.ends = ends
	slices.SortFunc(ends, func(x, y seqEnd) int { return cmp.Or(cmp.Compare(x.seconds, y.seconds), cmp.Compare(x.seq, y.seq)) })
	free := append(b.copy[:0], b.work...)
	defer func() { b.copy = free }()
	for _, e := range ends {
		var i int
		i, free = release(free, e.first, e.procs)
		if blk := free[i]; blk.size() >= n {
			if blk.lowFirst {
				return blk.first, e.seconds
			}
			return blk.last - n + 1, e.seconds
		}
	}
	panic("backfill: a job fits no block with every running job ended") // the workload is cut to the cluster
}

// splitViews builds the views of a backfilling pass around the reserved
// ids first to last (pybatsim's allocFutureJob). Since the head fits no
// free block, no free block holds the whole reservation: a block meets
// at most one of its ends.
func (b *blocks) splitViews(first, last int) {
	b.views = b.views[:0]
	for _, blk := range b.work {
		v := view{first: blk.first, last: blk.last, lowFirst: blk.lowFirst, linked: -1}
		switch {
		case blk.first == first || blk.last == last:
			v.shortened = true
		case blk.first < first && first <= blk.last:
			at := len(b.views)
			v.shortened, v.lowFirst, v.linked = true, false, at+1
			b.views = append(b.views, v, view{first: blk.first, last: first - 1, lowFirst: true, virtual: true, linked: at})
			continue
		case blk.first <= last && last < blk.last:
			at := len(b.views)
			v.shortened, v.lowFirst, v.linked = true, true, at+1
			b.views = append(b.views, v, view{first: last + 1, last: blk.last, lowFirst: false, virtual: true, linked: at})
			continue
		}
		b.views = append(b.views, v)
	}
}

// allocView allocates n ids from view v and the same from its linked
// view (pybatsim's assignJob) and returns the first of them.
func (b *blocks) allocView(v, n int) int {
	w := &b.views[v]
	var lo int
	if w.lowFirst {
		lo = w.first
		w.first += n
		if w.linked >= 0 && b.views[w.linked].first < w.first {
			b.views[w.linked].first = w.first
		}
	} else {
		lo = w.last - n + 1
		w.last -= n
		if w.linked >= 0 && b.views[w.linked].last >= lo {
			b.views[w.linked].last = lo - 1
		}
	}
	w.removed = w.first > w.last
	if w.linked >= 0 {
		l := &b.views[w.linked]
		l.removed = l.removed || l.first > l.last
	}
	return lo
}

// ResourceSchedule returns the schedule's runs on resource ids, for
// engine/placement.Check; it needs contiguous placement (FirstResource).
func (s *Schedule) ResourceSchedule(w *rigid.Workload) placement.Schedule {
	var out placement.Schedule
	for j, start := range s.StartSeconds {
		if start < 0 {
			continue
		}
		ids := make([]int, w.Jobs[j].Procs)
		for k := range ids {
			ids[k] = s.FirstResource[j] + k
		}
		out.Runs = append(out.Runs, placement.Run{Job: j, StartNanos: start * placement.NanosPerSecond,
			EndNanos: s.EndSeconds[j] * placement.NanosPerSecond, Resources: ids})
	}
	return out
}

// instantPerEvent processes the instant at s.now with a pass after each
// completion and each arrival (PassPerEvent). The completions due are
// taken first: a job started by one of these passes and ending at once is
// told at the next instant, as Batsim tells it in its next message.
func (s *sim) instantPerEvent() {
	due := s.due[:0]
	for len(s.ends) > 0 && s.ends[0].seconds == s.now {
		due = append(due, s.ends.pop().job)
	}
	s.due = due
	for _, j := range due {
		s.complete(j)
		if s.pass(); s.err != nil {
			return
		}
	}
	for s.nextArrive < len(s.jobs) && s.jobs[s.nextArrive].SubmitSeconds == s.now {
		s.arrive()
		if s.pass(); s.err != nil {
			return
		}
	}
}
