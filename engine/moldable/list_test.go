package moldable_test

import (
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/verify"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// TestListModes: m = 2; B runs 3 s on one processor, C 1 s on two, D 1 s
// on one; list B, C, D. Overtaking starts D beside B at 0 and C when B
// ends; strict keeps D behind the blocked C. Computed by hand.
func TestListModes(t *testing.T) {
	w := &workload.Workload{Processors: 2, Tasks: []workload.Task{
		{Weight: 1, Times: []float64{3, 3}}, // B
		{Weight: 1, Times: []float64{2, 1}}, // C
		{Weight: 1, Times: []float64{1, 1}}, // D
	}}
	allot := []int{1, 2, 1}
	list := []int{0, 1, 2}
	for _, c := range []struct {
		mode   moldable.ListMode
		starts []float64
	}{
		{moldable.ListOvertake, []float64{0, 3, 0}},
		{moldable.ListStrict, []float64{0, 3, 4}},
	} {
		s := moldable.ListSchedule(w, allot, list, c.mode)
		if err := verify.Moldable(w, s); err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		for i, want := range c.starts {
			if s.Tasks[i].Start != want {
				t.Errorf("%s: task %d starts at %v, want %v", c.mode, i, s.Tasks[i].Start, want)
			}
		}
	}
}

func TestGamma(t *testing.T) {
	// EX1's T2: p = (2, 3/2, 3/2, 3/2).
	task := workload.Task{Weight: 2, Times: []float64{2, 1.5, 1.5, 1.5}}
	for _, c := range []struct {
		length float64
		want   int
	}{{2, 1}, {3, 1}, {1.9, 2}, {1.5, 2}, {1.49, 0}} {
		if got := moldable.Gamma(task, c.length); got != c.want {
			t.Errorf("gamma(%v) = %d, want %d", c.length, got, c.want)
		}
	}
}

func TestParseListMode(t *testing.T) {
	for in, want := range map[string]moldable.ListMode{"": moldable.ListOvertake, "overtake": moldable.ListOvertake, "strict": moldable.ListStrict} {
		if got, err := moldable.ParseListMode(in); err != nil || got != want {
			t.Errorf("ParseListMode(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := moldable.ParseListMode("lazy"); err == nil {
		t.Error("ParseListMode accepted lazy")
	}
}
