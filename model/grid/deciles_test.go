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
		{1, 2, 12, 7}, {2, 1, 2, 2}, {3, 1, 3, 3}, {4, 1, 9, 9}, {5, 1, 1, 1},
		{6, 2, 16, 10}, {7, 1, 8, 8}, {8, 1, 4, 4}, {9, 1, 11, 11}, {10, 1, 12, 12},
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
