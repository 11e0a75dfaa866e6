package rigid

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// exportTrace is a hand-made log on 4 processors whose second 0 is 3 s
// before February 1970 (UnixStartTime 2678397): jobs 1-3, submitted at 0,
// warm the month up; job 4, at 6 s, is measured. Job 1 runs 2 s of the 5
// it asked; job 2 runs all its 5 s; job 3 gives no requested time (it
// requests its 20 s run); job 4 ran 9 s in the log past its 3 s request,
// and is cut to 3 s.
const exportTrace = `; UnixStartTime: 2678397
; MaxProcs: 4
1 0 0 2 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
2 0 0 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
3 0 0 20 2 -1 -1 2 -1 -1 1 2 1 -1 1 -1 -1 -1
4 6 0 9 1 -1 -1 1 3 -1 1 2 1 -1 1 -1 -1 -1
`

// TestExportContiguousAndKilled exports the month simulated by EASY with
// contiguous placement (engine/backfill's pybatsim rules), computed by
// hand: at 0 jobs 1, 2 and 3 take 0, 1 and 2-3 from the low end of the
// free block 0-3; job 1 ends at 2 (free block 0); job 2 ends at 5 and
// joins only the free block below it, which is then allocated from its
// high end, so job 4 starts at 6 on resource 1 (best fit would give 0).
// Killed at their request (run time = request, the log giving one): job 2
// (5 of 5 s) and job 4 (cut at 3 s); job 3's request is its run for want
// of one, so it completed. Jobs 1-3 are the warm-up, job 4 measured, all
// of Batsim's workload w0.
func TestExportContiguousAndKilled(t *testing.T) {
	tr, err := rigidtrace.Read(strings.NewReader(exportTrace), "hand.swf", rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(rigidtrace.Month{Year: 1970, Month: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := backfill.FCFSEasy()
	p.Placement = backfill.PlaceContiguous
	sched, err := backfill.Simulate(context.Background(), &mw.Workload, rigid.EstimateRequested, p)
	if err != nil {
		t.Fatal(err)
	}
	o := &Outcome{CellID: "c", Period: 197002, Variant: rigid.EstimateRequested, Workload: &mw.Workload, Schedule: sched,
		NoRequest: mw.NoRequest, Cluster: "c1"}
	s, err := o.ExportSchedule()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := export.WriteBatsimCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(export.BatsimColumns, ",") + `,phase
1,w0,,0,1,5,1,COMPLETED_SUCCESSFULLY,0,2,2,0,2,1,0,-1,,warm-up
2,w0,,0,1,5,0,COMPLETED_WALLTIME_REACHED,0,5,5,0,5,1,1,-1,,warm-up
3,w0,,0,2,20,1,COMPLETED_SUCCESSFULLY,0,20,20,0,20,1,2-3,-1,,warm-up
4,w0,,6,1,3,0,COMPLETED_WALLTIME_REACHED,6,3,9,0,3,1,1,-1,,measured
`
	if b.String() != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", b.String(), want)
	}
	// The Gantt chart draws the same ids.
	for k, bar := range o.Gantt().Bars {
		if got, want := export.IntervalSet(bar.ResourceIDs), export.IntervalSet(s.Jobs[k].Allocated); got != want {
			t.Errorf("Gantt bar %d on %q, export on %q", k, got, want)
		}
	}
	// Counting processors, job 4 gets the lowest of the run 0-1 that is
	// free at 6 (engine/placement.Fit, as the chart would draw it).
	counted, err := backfill.Simulate(context.Background(), &mw.Workload, rigid.EstimateRequested, backfill.FCFSEasy())
	if err != nil {
		t.Fatal(err)
	}
	o.Schedule = counted
	if s, err = o.ExportSchedule(); err != nil {
		t.Fatal(err)
	}
	alloc, err := export.AssignResources(s)
	if err != nil || export.IntervalSet(alloc[3]) != "0" || s.Jobs[3].Allocated != nil {
		t.Errorf("counted: job 4 on %v (%v), named %v; want 0, named by the export", alloc, err, s.Jobs[3].Allocated)
	}
}

// TestPhase: a trace month's jobs by submit time against its measured
// window [10, 20): before it warm-up, in it measured, from its end on
// cool-down; a whole workload (period 0) has no phases.
func TestPhase(t *testing.T) {
	w := &rigid.Workload{MeasureFromSeconds: 10, MeasureToSeconds: 20}
	for _, submit := range []int64{9, 10, 19, 20} {
		w.Jobs = append(w.Jobs, rigid.Job{SubmitSeconds: submit})
	}
	o := &Outcome{Period: 197001, Workload: w}
	want := []string{export.PhaseWarmUp, export.PhaseMeasured, export.PhaseMeasured, export.PhaseCoolDown}
	for j := range w.Jobs {
		if got := o.phase(j); got != want[j] {
			t.Errorf("job submitted at %d: %q; want %q", w.Jobs[j].SubmitSeconds, got, want[j])
		}
	}
	o.Period = 0
	if got := o.phase(0); got != "" {
		t.Errorf("whole workload: %q; want no phase", got)
	}
}
