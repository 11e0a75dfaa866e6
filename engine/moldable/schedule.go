package moldable

import (
	"fmt"
	"math"

	"github.com/sweep-sched/sweep/internal/pqueue"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// A Placement is where one task runs: on Processors processors from Start
// to End = Start + Time(Processors), in seconds.
type Placement struct {
	Processors int
	Start, End float64
}

// A Schedule places every task of a workload once, by task index.
type Schedule struct {
	Tasks []Placement
}

// Makespan returns the latest completion time C_max.
func (s Schedule) Makespan() float64 {
	var cmax float64
	for _, p := range s.Tasks {
		cmax = max(cmax, p.End)
	}
	return cmax
}

// WeightedCompletion returns sum w_i C_i, summed in task order.
func (s Schedule) WeightedCompletion(w *workload.Workload) float64 {
	var sum float64
	for i, p := range s.Tasks {
		sum += w.Tasks[i].Weight * p.End
	}
	return sum
}

// ListMode is the semantics of the list algorithm.
type ListMode string

const (
	// ListOvertake is Garey and Graham's list scheduling: at every event
	// the whole list is scanned and every task that fits starts, so a
	// later task may overtake a blocked one.
	ListOvertake ListMode = "overtake"
	// ListStrict starts tasks in list order only: a blocked task blocks
	// the rest of the list until it fits.
	ListStrict ListMode = "strict"
)

// ParseListMode returns the mode called s ("" is ListOvertake).
func ParseListMode(s string) (ListMode, error) {
	switch ListMode(s) {
	case "", ListOvertake:
		return ListOvertake, nil
	case ListStrict:
		return ListStrict, nil
	}
	return "", fmt.Errorf("list mode %q: want %s or %s", s, ListOvertake, ListStrict)
}

// ListSchedule schedules the tasks of list, in that order, with the fixed
// allotment allot[i] processors for task i, starting at time 0 on the
// workload's m processors. At time 0 and at every completion time it
// scans the waiting tasks from the head of the list and starts those that
// fit in the free processors (all of them with ListOvertake, up to the
// first that does not fit with ListStrict). Every completion at an event
// time frees its processors before the scan. Tasks not in list keep a
// zero Placement.
func ListSchedule(w *workload.Workload, allot []int, list []int, mode ListMode) Schedule {
	s := Schedule{Tasks: make([]Placement, len(w.Tasks))}
	free := w.Processors
	// The running tasks by end time: the next completion is the least.
	type running struct {
		end        float64
		processors int
	}
	busy := pqueue.New(func(a, b running) bool { return a.end < b.end })
	busy.Grow(min(len(list), w.Processors))
	now := 0.0
	start := func(i int) {
		q := allot[i]
		end := now + w.Tasks[i].Time(q)
		s.Tasks[i] = Placement{Processors: q, Start: now, End: end}
		busy.Push(running{end, q})
		free -= q
	}
	// The scan of the waiting tasks starts, in list order, each that fits
	// in what the tasks started before it leave free: with ListStrict a
	// prefix of the list, else each time the first waiting task that
	// fits, which fitting finds from its root.
	head := 0 // ListStrict: the list before head has started
	var fitting minTree
	if mode != ListStrict {
		fitting = newMinTree(len(list), func(k int) int { return allot[list[k]] })
	}
	for left := len(list); ; {
		// Every task needs a processor: at none free, the rest waits.
		for free > 0 {
			k := head
			if mode == ListStrict {
				if k == len(list) || allot[list[k]] > free {
					break
				}
				head++
			} else if k = fitting.first(free); k < 0 {
				break
			} else {
				fitting.remove(k)
			}
			start(list[k])
			left--
		}
		if left == 0 {
			break
		}
		// Advance to the next completion and free everything ending then.
		now = busy.Peek().end
		for busy.Len() > 0 && busy.Peek().end <= now {
			free += busy.Pop().processors
		}
	}
	return s
}

// A minTree holds a value per position, the least of each subtree at its
// root, to find the first position whose value is at most a bound in
// O(log n): node 1 is the root, the children of node v are 2v and 2v+1,
// and position k is leaf size + k.
type minTree struct {
	size int
	min  []int
}

// newMinTree returns the tree of value(k) for positions 0..n-1.
func newMinTree(n int, value func(k int) int) minTree {
	size := 1
	for size < n {
		size *= 2
	}
	t := minTree{size: size, min: make([]int, 2*size)}
	for k := range size {
		t.min[size+k] = math.MaxInt
		if k < n {
			t.min[size+k] = value(k)
		}
	}
	for v := size - 1; v >= 1; v-- {
		t.min[v] = min(t.min[2*v], t.min[2*v+1])
	}
	return t
}

// first returns the first position whose value is at most bound, or -1.
func (t minTree) first(bound int) int {
	if t.min[1] > bound {
		return -1
	}
	v := 1
	for v < t.size {
		v *= 2
		if t.min[v] > bound {
			v++
		}
	}
	return v - t.size
}

// remove takes position k out: its value becomes larger than any bound.
func (t minTree) remove(k int) {
	v := t.size + k
	t.min[v] = math.MaxInt
	for v > 1 {
		v /= 2
		t.min[v] = min(t.min[2*v], t.min[2*v+1])
	}
}
