package grid

import (
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/resultstest"
)

// TestWorstCells: in resultstest.SmallRun, the largest slr_max of pslr is 5 (load 1.0,
// instance 3), of lrtf 6 (1.0, instance 3), of srtf 9 (1.0, instance 3;
// its 8 at 1.2 is smaller). Utilisation is higher-is-better and 1
// everywhere, so the worst is the first cell in pair-group order.
func TestWorstCells(t *testing.T) {
	r, err := analysis.Analyze(resultstest.SmallRunDir(t), analysis.Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	worst := WorstCells(r, "slr_max")
	want := []struct {
		policy, id string
		value      float64
	}{{"pslr", "pslr-1.0-3", 5}, {"lrtf", "lrtf-1.0-3", 6}, {"srtf", "srtf-1.0-3", 9}}
	if len(worst) != len(want) {
		t.Fatalf("worst cells %+v; want %d", worst, len(want))
	}
	for i, w := range want {
		if got := worst[i]; got.Policy != w.policy || got.Cell.ID != w.id || got.Value != w.value {
			t.Errorf("worst %s: %s with %v; want %s with %v", w.policy, got.Cell.ID, got.Value, w.id, w.value)
		}
	}
	if u := WorstCells(r, "utilisation"); len(u) != 3 || u[0].Cell.ID != "pslr-1.0-0" {
		t.Errorf("worst utilisation: %+v; want pslr-1.0-0 first", u)
	}
	if WorstCells(r, "jobs") != nil || WorstCells(r, "nosuch") != nil {
		t.Error("a descriptive or unknown metric has worst cells")
	}
}

// testMeasures are the measures of the fixtures' models in seed 004's
// order of policies.
func testMeasures() analysis.Measures {
	m := analysis.MeasuresOf(resultstest.Models()...)
	m.PolicyOrder = PolicyOrder()
	return m
}
