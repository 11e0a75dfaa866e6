package placement

import (
	"slices"
	"strings"
	"testing"
)

const s = NanosPerSecond

// Three jobs on 4 resources, hand-made: job 0 (2 resources, 10 s) at 0 on
// 0-1; job 1 (2 resources, 5 s) at 0 on 2-3; job 2 (3 resources, 4 s),
// submitted at 1, starts at 10 on 0-1 and 3 once job 0 ends (resource 3
// free since 5).
var jobs = []Job{
	{SubmitNanos: 0, RunNanos: 10 * s, Resources: 2},
	{SubmitNanos: 0, RunNanos: 5 * s, Resources: 2},
	{SubmitNanos: 1 * s, RunNanos: 4 * s, Resources: 3},
}

func good() *Schedule {
	return &Schedule{Runs: []Run{
		{Job: 0, StartNanos: 0, EndNanos: 10 * s, Resources: []int{0, 1}},
		{Job: 1, StartNanos: 0, EndNanos: 5 * s, Resources: []int{2, 3}},
		{Job: 2, StartNanos: 10 * s, EndNanos: 14 * s, Resources: []int{0, 1, 3}},
	}}
}

func TestCheck(t *testing.T) {
	if err := Check(4, jobs, 3, good()); err != nil {
		t.Fatalf("the hand-made schedule is valid, got %v", err)
	}
	cases := []struct {
		name       string
		mutate     func(*Schedule)
		mustDecide int
		want       string
	}{
		{"overlap", func(sc *Schedule) {
			sc.Runs[2].StartNanos, sc.Runs[2].EndNanos = 9*s, 13*s
		}, 3, "resource 0 holds job 0 (0 s to 10 s) and job 2 (9 s to 13 s) at once"},
		{"overlap by a fraction", func(sc *Schedule) {
			sc.Runs[2].StartNanos, sc.Runs[2].EndNanos = 10*s-1, 14*s-1
		}, 3, "resource 0 holds job 0 (0 s to 10 s) and job 2 (9.999999999 s to 13.999999999 s) at once"},
		{"before submit", func(sc *Schedule) {
			sc.Runs[1].EndNanos = 1 * s
			sc.Runs[1].Resources = []int{2}
			sc.Runs[2] = Run{Job: 2, StartNanos: 0, EndNanos: 4 * s, Resources: []int{3}}
		}, 3, "job 2 starts at 0 s before its submission at 1 s"},
		{"run twice", func(sc *Schedule) {
			sc.Runs = append(sc.Runs, Run{Job: 1, StartNanos: 20 * s, EndNanos: 25 * s, Resources: []int{2, 3}})
		}, 3, "job 1 is run after being run already"},
		{"run and rejected", func(sc *Schedule) { sc.Rejected = []int{0} }, 3, "job 0 is rejected after being run already"},
		{"too few resources", func(sc *Schedule) { sc.Runs[2].Resources = []int{0, 1} }, 3, "job 2 holds 2 resources, want the 3 it asked for"},
		{"no such resource", func(sc *Schedule) { sc.Runs[1].Resources = []int{3, 4} }, 3, "job 1 holds resource 4: no such resource (want 0..3)"},
		{"repeated resource", func(sc *Schedule) { sc.Runs[1].Resources = []int{2, 2} }, 3, "job 1's resources are not strictly ascending at 2 (after 2)"},
		{"wrong run time", func(sc *Schedule) { sc.Runs[1].EndNanos = 6 * s }, 3, "job 1 runs 6 s (from 0 s to 6 s), want its run time 5 s"},
		{"unknown job", func(sc *Schedule) { sc.Rejected = []int{3} }, 3, "rejected of job 3: no such job (want 0..2)"},
		{"undecided", func(sc *Schedule) { sc.Runs = sc.Runs[:2] }, 3, "job 2 (submitted at 1 s) was neither run nor rejected"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := good()
			c.mutate(sc)
			err := Check(4, jobs, c.mustDecide, sc)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want a problem saying %q", err, c.want)
			}
		})
	}
	// The simulation may stop before deciding the jobs it need not.
	sc := good()
	sc.Runs = sc.Runs[:2]
	if err := Check(4, jobs, 2, sc); err != nil {
		t.Errorf("job 2 need not be decided, got %v", err)
	}
}

// TestFit: hand-made free times at start 5 (a resource free at 5 may be
// taken), each job held until 20.
func TestFit(t *testing.T) {
	for _, tt := range []struct {
		name   string
		freeAt []int64
		need   int
		ids    []int
		after  []int64
	}{
		// Resources 0, 2 and 3 are free at 5: the only run of 2 is 2-3.
		{"block", []int64{0, 9, 5, 3}, 2, []int{2, 3}, []int64{0, 9, 20, 20}},
		// No run of 3: the lowest free ones, 0, 2 and 3.
		{"scattered", []int64{0, 9, 5, 3}, 3, []int{0, 2, 3}, []int64{20, 9, 20, 20}},
		// Free runs 0-2 (3 wide) and 4-5 (2 wide) and 7 (1 wide): a job of
		// 2 takes the narrower 4-5, keeping 0-2 for a wider job; a job of 1
		// takes 7, the narrowest; lowest-free would take 0-1 and 0.
		{"best fit", []int64{0, 0, 0, 9, 0, 0, 9, 0}, 2, []int{4, 5}, []int64{0, 0, 0, 9, 20, 20, 9, 0}},
		{"best fit, one", []int64{0, 0, 0, 9, 0, 0, 9, 0}, 1, []int{7}, []int64{0, 0, 0, 9, 0, 0, 9, 20}},
		// Two runs of 2 (0-1, 3-4): the lowest.
		{"tie", []int64{0, 0, 9, 0, 0}, 2, []int{0, 1}, []int64{20, 20, 9, 0, 0}},
		// Only 1 of 2 free: nil, nothing marked.
		{"full", []int64{9, 0}, 2, nil, []int64{9, 0}},
	} {
		ids := Fit(tt.freeAt, 5, 20, tt.need)
		if !slices.Equal(ids, tt.ids) || !slices.Equal(tt.freeAt, tt.after) {
			t.Errorf("%s: ids %v, free at %v; want %v, %v", tt.name, ids, tt.freeAt, tt.ids, tt.after)
		}
	}
}
