package grid

import (
	"reflect"
	"testing"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
)

// TestVolumeDeciles: the first cell of analysis's TestDeciles summarised per decile at run
// time: sums and maxima of the SLRs listed there (decile 1 holds SLRs 5
// and 7, decile 6 holds 10 and 6, the others one job each).
func TestVolumeDeciles(t *testing.T) {
	var jobs []gridengine.JobOutcome
	var measured []JobMetrics
	for j, volume := range []int64{5, 3, 3, 9, 1, 7, 2, 8, 4, 6, 10, 11} {
		jobs = append(jobs, gridengine.JobOutcome{VolumeCoreTicks: volume})
		measured = append(measured, JobMetrics{SLR: float64(j + 1)})
	}
	want := []VolumeDecile{
		{Decile: 1, Jobs: 2, SLRSum: 12, SLRMax: 7}, {Decile: 2, Jobs: 1, SLRSum: 2, SLRMax: 2}, {Decile: 3, Jobs: 1, SLRSum: 3, SLRMax: 3}, {Decile: 4, Jobs: 1, SLRSum: 9, SLRMax: 9}, {Decile: 5, Jobs: 1, SLRSum: 1, SLRMax: 1},
		{Decile: 6, Jobs: 2, SLRSum: 16, SLRMax: 10}, {Decile: 7, Jobs: 1, SLRSum: 8, SLRMax: 8}, {Decile: 8, Jobs: 1, SLRSum: 4, SLRMax: 4}, {Decile: 9, Jobs: 1, SLRSum: 11, SLRMax: 11}, {Decile: 10, Jobs: 1, SLRSum: 12, SLRMax: 12},
	}
	if got := VolumeDeciles(jobs, measured); !reflect.DeepEqual(got, want) {
		t.Errorf("VolumeDeciles:\n got %v\nwant %v", got, want)
	}
	// Three jobs fill deciles 1, 4 and 7 only.
	got := VolumeDeciles(jobs[:3], measured[:3])
	if len(got) != 3 || got[0].Decile != 1 || got[1].Decile != 4 || got[2].Decile != 7 {
		t.Errorf("3 jobs: %v; want deciles 1, 4, 7", got)
	}
}
