package moldable

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable/moldabletest"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// listScheduleScan is ListSchedule as first written: it scans the whole
// waiting list at every event and every running task for the next
// completion, the oracle of the faster one.
func listScheduleScan(w *workload.Workload, allot []int, list []int, mode ListMode) Schedule {
	s := Schedule{Tasks: make([]Placement, len(w.Tasks))}
	waiting := slices.Clone(list)
	free := w.Processors
	type running struct {
		end        float64
		processors int
	}
	var busy []running
	now := 0.0
	for len(waiting) > 0 {
		kept := waiting[:0]
		for k, i := range waiting {
			if free == 0 {
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
			busy = append(busy, running{end, q})
			free -= q
		}
		waiting = kept
		if len(waiting) == 0 {
			break
		}
		next := busy[0].end
		for _, r := range busy[1:] {
			next = min(next, r.end)
		}
		now = next
		still := busy[:0]
		for _, r := range busy {
			if r.end <= now {
				free += r.processors
			} else {
				still = append(still, r)
			}
		}
		busy = still
	}
	return s
}

// TestListScheduleIsTheScan: on random instances, allotments and lists
// (all tasks or some, every allotment from 1 to m, dyadic times with many
// simultaneous completions and continuous ones), both list modes give
// the oracle's schedule exactly.
func TestListScheduleIsTheScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 31))
	for trial := range 2000 {
		n, m := 1+rng.IntN(60), 1+rng.IntN(20)
		w := moldabletest.RandomWorkload(rng, n, m, 0, 1)
		if trial%2 == 0 {
			for i := range w.Tasks {
				a, d := float64(int(1)<<rng.IntN(4)), 1+rng.IntN(m)
				for k := range w.Tasks[i].Times {
					w.Tasks[i].Times[k] = a / float64(min(k+1, d))
				}
			}
		}
		allot := make([]int, n)
		for i := range allot {
			allot[i] = 1 + rng.IntN(m)
			if trial%3 == 0 {
				allot[i] = 1 + rng.IntN(min(m, 2))
			}
		}
		list := rng.Perm(n)
		if trial%4 == 0 {
			list = list[:rng.IntN(n+1)]
		}
		for _, mode := range []ListMode{ListOvertake, ListStrict} {
			got, want := ListSchedule(w, allot, list, mode), listScheduleScan(w, allot, list, mode)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d (n %d, m %d) %s: schedule differs from the scan's", trial, n, m, mode)
			}
		}
	}
}
