package moldable

import (
	"fmt"
	"slices"

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
	waiting := slices.Clone(list)
	free := w.Processors
	// The running tasks by end time: the next completion is the least.
	type running struct {
		end        float64
		processors int
	}
	busy := pqueue.New(func(a, b running) bool { return a.end < b.end })
	busy.Grow(min(len(list), w.Processors))
	now := 0.0
	for len(waiting) > 0 {
		kept := waiting[:0]
		for k, i := range waiting {
			if free == 0 {
				// Every task needs a processor: the rest waits, and
				// scanning it would only keep it.
				kept = append(kept, waiting[k:]...)
				break
			}
			q := allot[i]
			if q > free {
				if mode == ListStrict {
					kept = append(kept, waiting[k:]...)
					break
				}
				kept = append(kept, i)
				continue
			}
			end := now + w.Tasks[i].Time(q)
			s.Tasks[i] = Placement{Processors: q, Start: now, End: end}
			busy.Push(running{end, q})
			free -= q
		}
		waiting = kept
		if len(waiting) == 0 {
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
