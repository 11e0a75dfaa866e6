package grid

import (
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	mgrid "github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/resultstest"

	"github.com/sweep-sched/sweep/store"
)

func TestDeciles(t *testing.T) {
	dir := resultstest.SmallRunDir(t)
	var rows []store.Row
	// Cell pslr-1.0-0: 12 jobs, job j has SLR j+1. Sorted by volume, ties by
	// job index (jobs 1 and 2 both have volume 3), the jobs are
	// 4 6 1 2 8 0 9 5 7 3 10 11 with SLRs 5 7 2 3 9 1 10 6 8 4 11 12. The
	// k-th (from 0) is in decile floor(10k/12)+1: deciles 1 and 6 get two
	// jobs (k = 0,1 and 6,7), the others one. Per decile: 1: mean 6, max
	// 7; 2: 2; 3: 3; 4: 9; 5: 1; 6: mean 8, max 10; 7: 8; 8: 4; 9: 11; 10: 12.
	for j, volume := range []int64{5, 3, 3, 9, 1, 7, 2, 8, 4, 6, 10, 11} {
		rows = append(rows, resultstest.JobRow("pslr-1.0-0", int64(j), volume, float64(j+1)))
	}
	// Cell pslr-1.0-1: 3 jobs, by volume 10 (SLR 2.5), 20 (3.5), 30 (1.5),
	// in deciles floor(10k/3)+1 = 1, 4, 7.
	rows = append(rows, resultstest.JobRow("pslr-1.0-1", 0, 30, 1.5), resultstest.JobRow("pslr-1.0-1", 1, 10, 2.5), resultstest.JobRow("pslr-1.0-1", 2, 20, 3.5))
	// A row of the failed cell is left out and counted.
	rows = append(rows, resultstest.JobRow("srtf-1.2-2", 0, 1, 99))
	resultstest.WriteJobs(t, dir, rows)

	compared, err := analysis.Analyze(dir, analysis.Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(dir, compared)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Deciles
	if d == nil {
		t.Fatal("no deciles; want them from the jobs table")
	}
	if d.StrayJobRows != 1 {
		t.Errorf("StrayJobRows = %d; want 1 (the failed cell's row)", d.StrayJobRows)
	}
	// 18 successful cells, 2 with job rows.
	if len(d.CellsWithoutJobs) != 16 {
		t.Errorf("%d cells without jobs; want 16", len(d.CellsWithoutJobs))
	}
	if len(d.Rows) != mgrid.DecileCount {
		t.Fatalf("%d rows; want %d (load 1.0, pslr)", len(d.Rows), mgrid.DecileCount)
	}
	// Averages over the cells that have the decile:
	//   1: cells 2, jobs 3, mean (6+2.5)/2 = 4.25, max (7+2.5)/2 = 4.75
	//   2: cell 1, job 1, 2, 2
	//   4: cells 2, jobs 2, (9+3.5)/2 = 6.25, 6.25
	//   6: cell 1, jobs 2, 8, 10
	//   7: cells 2, jobs 2, (8+1.5)/2 = 4.75, 4.75
	//  10: cell 1, job 1, 12, 12
	want := map[int]DecileRow{
		1:  {Jobs: 3, Cells: 2, SLRMean: 4.25, SLRMax: 4.75},
		2:  {Jobs: 1, Cells: 1, SLRMean: 2, SLRMax: 2},
		4:  {Jobs: 2, Cells: 2, SLRMean: 6.25, SLRMax: 6.25},
		6:  {Jobs: 2, Cells: 1, SLRMean: 8, SLRMax: 10},
		7:  {Jobs: 2, Cells: 2, SLRMean: 4.75, SLRMax: 4.75},
		10: {Jobs: 1, Cells: 1, SLRMean: 12, SLRMax: 12},
	}
	for i, row := range d.Rows {
		if row.Load != 1 || row.Policy != "pslr" || row.Decile != i+1 {
			t.Errorf("row %d: load %v policy %s decile %d; want 1 pslr %d", i, row.Load, row.Policy, row.Decile, i+1)
		}
		w, ok := want[row.Decile]
		if !ok {
			continue
		}
		w.Load, w.Policy, w.Decile = 1, "pslr", row.Decile
		if row != w {
			t.Errorf("decile %d: %+v; want %+v", row.Decile, row, w)
		}
	}
}
