package backfill

import (
	"github.com/sweep-sched/sweep/workload/rigid"
)

// usageBook keeps each user's usage, in processor-seconds, for the
// RelShare order: the part of every job's run inside the usage window.
type usageBook struct {
	window        UsageWindow
	windowSeconds int64
	count         UsageCount
	// epochSeconds shifts simulation seconds to Unix seconds, so that
	// tumbling windows start at 00:00 UTC.
	epochSeconds int64

	// done holds the usage of completed jobs inside the current tumbling
	// window (window id windowID), or ever for WindowUnbounded.
	done     []int64
	windowID int64
	// recent holds the completed jobs that may still overlap a sliding
	// window, in completion order.
	recent []doneJob
	total  []int64 // scratch: the usage returned by at
	// charge is, on a machine of nodes, what each started job is
	// charged per second (nodecharge.go); nil: its processors.
	charge []int64
}

// weight returns what job j, of procs processors, is charged per second.
func (b *usageBook) weight(j, procs int) int64 {
	if b.charge == nil {
		return int64(procs)
	}
	return b.charge[j]
}

type doneJob struct {
	user       int
	procs      int64
	start, end int64
}

func newUsageBook(window UsageWindow, windowSeconds int64, count UsageCount, epochSeconds int64, users int) usageBook {
	return usageBook{window: window, windowSeconds: windowSeconds, count: count, epochSeconds: epochSeconds,
		done: make([]int64, users), total: make([]int64, users), windowID: -1 << 62}
}

// windowStart returns the start of the usage window at time t.
func (b *usageBook) windowStart(t int64) int64 {
	switch b.window {
	case WindowSliding:
		return t - b.windowSeconds
	case WindowUnbounded:
		return -1 << 62
	}
	return t - floorMod(t+b.epochSeconds, b.windowSeconds)
}

func floorMod(a, m int64) int64 {
	r := a % m
	if r < 0 {
		r += m
	}
	return r
}

// sync resets the completed usage when t falls in a new tumbling window.
func (b *usageBook) sync(t int64) {
	if b.window != WindowTumbling {
		return
	}
	id := (t + b.epochSeconds - floorMod(t+b.epochSeconds, b.windowSeconds)) / b.windowSeconds
	if id != b.windowID {
		clear(b.done)
		b.windowID = id
	}
}

// completed records a job of user u that ran on procs from start to end,
// completing now (end).
func (b *usageBook) completed(u int, procs int64, start, end int64) {
	if b.window == WindowSliding {
		b.recent = append(b.recent, doneJob{user: u, procs: procs, start: start, end: end})
		return
	}
	b.sync(end)
	b.done[u] += procs * (end - max(start, b.windowStart(end)))
}

// at returns every user's usage at time t, running jobs counted up to t
// unless the book counts completed jobs only. The slice is reused by the
// next call.
func (b *usageBook) at(t int64, running []int, starts []int64, jobs []rigid.Job, userOf []int) []int64 {
	ws := b.windowStart(t)
	switch b.window {
	case WindowSliding:
		// Completions arrive in time order, so the jobs that ended before
		// the window are a prefix.
		k := 0
		for k < len(b.recent) && b.recent[k].end <= ws {
			k++
		}
		b.recent = b.recent[k:]
		clear(b.total)
		for _, d := range b.recent {
			b.total[d.user] += d.procs * (d.end - max(d.start, ws))
		}
	default:
		b.sync(t)
		copy(b.total, b.done)
	}
	if b.count == CountRunning {
		for _, j := range running {
			b.total[userOf[j]] += b.weight(j, jobs[j].Procs) * (t - max(starts[j], ws))
		}
	}
	return b.total
}
