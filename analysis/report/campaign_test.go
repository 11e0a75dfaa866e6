package report

import (
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestECDFSteps: of the stretches 0.5 (below the axis), 1, 1, 2 and 5
// (beyond it), 1/5 lie below 1, 3/5 are <= 1, 4/5 <= 2; the curve is flat
// from 2 to the axis end 4.
func TestECDFSteps(t *testing.T) {
	got := ecdfSteps([]float64{0.5, 1, 1, 2, 5})
	want := plotter.XYs{{X: 1, Y: 0.2}, {X: 1, Y: 0.2}, {X: 1, Y: 0.6}, {X: 2, Y: 0.6}, {X: 2, Y: 0.8}, {X: 4, Y: 0.8}}
	if len(got) != len(want) {
		t.Fatalf("steps %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d = %v; want %v (all: %v)", i, got[i], want[i], got)
		}
	}
}
