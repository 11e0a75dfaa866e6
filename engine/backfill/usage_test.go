package backfill

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestRelShareDailyUsageByHand follows RelShare(1d)'s usage (design note
// fairshare.md section 3) step by step on a log that starts at 20:00 UTC,
// so that its first calendar day ends at t = 4 h. Times in hours; usage
// in processor-hours; users A (0) and B (1):
//
//	jA1: A, 2 processors, runs 0-3
//	jB1: B, 1 processor,  runs 2-7 (across midnight)
//	jA2: A, 3 processors, runs 4.5-5.5
//
// Tumbling (the calendar day from 00:00 UTC):
//
//	3.5  A: jA1 done, 2 x 3 = 6; B: jB1 running, 1 x (3.5 - 2) = 1.5
//	5    the day began at 4: A 3 x (5 - 4.5) = 1.5 (jA2 running; jA1 was
//	     yesterday); B 1 x (5 - 4) = 1
//	6    A: jA2 done, 3 x 1 = 3; B 1 x (6 - 4) = 2
//	8    A 3; B: jB1 done at 7, counted from 4: 3
//	28.5 a new day: both 0
//
// Sliding (the last 24 h):
//
//	3.5  as tumbling: 6, 1.5
//	5    A 6 + 1.5 (jA1 ended within 24 h); B 1 x (5 - 2) = 3
//	6    A 6 + 3 = 9; B 4
//	8    A 9; B 5
//	28.5 the window starts at 4.5: A 3 x (5.5 - 4.5) = 3; B 1 x (7 - 4.5) = 2.5
func TestRelShareDailyUsageByHand(t *testing.T) {
	const h = 3600
	jobs := []rigid.Job{
		{Number: 1, User: 'A', Procs: 2}, // jA1
		{Number: 2, User: 'B', Procs: 1}, // jB1
		{Number: 3, User: 'A', Procs: 3}, // jA2
	}
	userOf := []int{0, 1, 0}
	starts := []int64{0, 2 * h, 9 * h / 2}
	ends := []int64{3 * h, 7 * h, 11 * h / 2}
	type step struct {
		atSeconds int64
		usage     [2]float64 // processor-hours of A, B
	}
	tests := []struct {
		window UsageWindow
		steps  []step
	}{
		{WindowTumbling, []step{{7 * h / 2, [2]float64{6, 1.5}}, {5 * h, [2]float64{1.5, 1}}, {6 * h, [2]float64{3, 2}}, {8 * h, [2]float64{3, 3}}, {57 * h / 2, [2]float64{0, 0}}}},
		{WindowSliding, []step{{7 * h / 2, [2]float64{6, 1.5}}, {5 * h, [2]float64{7.5, 3}}, {6 * h, [2]float64{9, 4}}, {8 * h, [2]float64{9, 5}}, {57 * h / 2, [2]float64{3, 2.5}}}},
	}
	for _, tt := range tests {
		book := newUsageBook(tt.window, DaySeconds, CountRunning, 20*h, 2)
		done := make([]bool, len(jobs))
		for _, st := range tt.steps {
			// Completions up to now, in time order, as the simulation
			// applies them; then the jobs running at now.
			for _, j := range []int{0, 2, 1} { // by end time
				if !done[j] && ends[j] <= st.atSeconds {
					book.completed(userOf[j], int64(jobs[j].Procs), starts[j], ends[j])
					done[j] = true
				}
			}
			var running []int
			for j := range jobs {
				if !done[j] && starts[j] <= st.atSeconds {
					running = append(running, j)
				}
			}
			got := book.at(st.atSeconds, running, starts, jobs, userOf)
			want := []int64{int64(st.usage[0] * h), int64(st.usage[1] * h)}
			if !slices.Equal(got, want) {
				t.Errorf("window %d at %g h: usage %v processor-seconds, want %v", tt.window, float64(st.atSeconds)/h, got, want)
			}
		}
	}
}
