package backfill

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// easyPass on counted processors, by hand. Jobs are given as processors
// x estimate (seconds); the estimates are the run times.
//
//   - Example 5 of the design note: 4 processors free, J0 2x5, J1 1x5,
//     J2 3x2, J3 1x10, nothing running. J0 and J1 fit (1 left); J2 needs
//     3: at 5 J0 frees 2 (3 available, enough) and J1, ending then too,
//     1 more: shadow 5, 1 spare. J3 outlives the shadow but its 1
//     processor is spare: it starts, nothing spare left.
//   - Running jobs: now 4 on 10 processors, R0 6x10 started at 0 (ends
//     at 10), 4 free; waiting A 5x1, B 2x7, C 2x3, D 2x20. A does not
//     fit; R0's end leaves 10 at 10: shadow 10, 5 spare. B ends at 11,
//     past the shadow, on 2 of the spare (3 left); C ends at 7, by the
//     shadow; D finds no processor free.
//   - Everything fits: no head, no promise.
//   - The head is the last job: nothing to backfill, no promise.
func TestEasyPassByHand(t *testing.T) {
	type job struct {
		procs int
		est   int64
	}
	tests := []struct {
		name       string
		now        int64
		free       int
		jobs       []job // waiting, in priority order, then running
		waiting    int
		runStarts  []int64 // starts of the running jobs
		starts     []int
		before     int
		promised   bool
		head       int
		shadow     int64
		extraAfter int
	}{
		{"example 5", 0, 4, []job{{2, 5}, {1, 5}, {3, 2}, {1, 10}}, 4, nil, []int{0, 1, 3}, 2, true, 2, 5, 0},
		{"running jobs", 4, 4, []job{{5, 1}, {2, 7}, {2, 3}, {2, 20}, {6, 10}}, 4, []int64{0}, []int{1, 2}, 0, true, 0, 10, 3},
		{"everything fits", 0, 4, []job{{2, 5}, {2, 1}}, 2, nil, []int{0, 1}, 2, false, 0, 0, 0},
		{"head is last", 0, 4, []job{{2, 5}, {3, 1}}, 2, nil, []int{0}, 1, false, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &counted{nowSeconds: tt.now, free: tt.free, startSeconds: make([]int64, len(tt.jobs))}
			for j, x := range tt.jobs {
				c.jobs = append(c.jobs, rigid.Job{Procs: x.procs})
				c.est = append(c.est, x.est)
				c.startSeconds[j] = -1
				if j >= tt.waiting {
					c.startSeconds[j] = tt.runStarts[j-tt.waiting]
					c.running = append(c.running, j)
				}
			}
			order := make([]int, tt.waiting)
			for j := range order {
				order[j] = j
			}
			r := easyPass(c, tt.now, order, nil)
			if !slices.Equal(r.starts, tt.starts) || r.before != tt.before {
				t.Errorf("starts %v (%d before the head), want %v (%d)", r.starts, r.before, tt.starts, tt.before)
			}
			if r.promised != tt.promised {
				t.Fatalf("promised %v, want %v", r.promised, tt.promised)
			}
			want := Reservation{AtSeconds: tt.now, Head: tt.head, ShadowSeconds: tt.shadow}
			if tt.promised && (r.promise != want || c.extra != tt.extraAfter) {
				t.Errorf("promise %+v with %d spare left, want %+v with %d", r.promise, c.extra, want, tt.extraAfter)
			}
		})
	}
}
