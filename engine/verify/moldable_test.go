package verify

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

func TestMoldable(t *testing.T) {
	// Two tasks on m = 2: A = (2, 1), B = (4, 3).
	w := &workload.Workload{Processors: 2, Tasks: []workload.Task{
		{Weight: 1, Times: []float64{2, 1}},
		{Weight: 1, Times: []float64{4, 3}},
	}}
	pl := func(q int, start, end float64) moldable.Placement {
		return moldable.Placement{Processors: q, Start: start, End: end}
	}
	tests := []struct {
		name  string
		tasks []moldable.Placement
		error string
	}{
		{"back to back", []moldable.Placement{pl(2, 0, 1), pl(2, 1, 4)}, ""},
		{"side by side", []moldable.Placement{pl(1, 0, 2), pl(1, 0, 4)}, ""},
		{"missing task", []moldable.Placement{pl(2, 0, 1)}, "places 1 tasks"},
		{"too wide", []moldable.Placement{pl(3, 0, 1), pl(1, 0, 4)}, "task 0 on 3 processors"},
		{"negative start", []moldable.Placement{pl(2, -1, 0), pl(2, 1, 4)}, "task 0 starts at -1"},
		{"wrong duration", []moldable.Placement{pl(2, 0, 1), pl(2, 1, 3)}, "task 1 runs [1, 3] on 2 processors, want it to end at start + p(2) = 4"},
		{"overlap", []moldable.Placement{pl(2, 0, 1), pl(1, 0.5, 4.5)}, "3 processors busy at time 0.5 (task 1 starts)"},
	}
	for _, tt := range tests {
		err := Moldable(w, moldable.Schedule{Tasks: tt.tasks})
		switch {
		case tt.error == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.error != "" && (err == nil || !strings.Contains(err.Error(), tt.error)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.error)
		}
	}
}
