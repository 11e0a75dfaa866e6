package rigid

import (
	"math"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The load-sweep measures of a hand-made schedule on 4 processors, the
// first job a warm-up job (not measured), jobs 2-4 measured by index:
//
//	job  submit  start  run  procs  wait  bsld = max(1, (w + r) / max(r, 10))
//	 1     0      0     100    4      0    (warm-up)
//	 2    10    100       5    2     90    (90 + 5) / 10  = 9.5
//	 3    20    100      50    2     80    (80 + 50) / 50 = 2.6
//	 4    30    150      40    4    120    (120 + 40) / 40 = 4
//
// mean bsld 16.1 / 3; p95 the nearest rank ceil(0.95 x 3) = 3rd of
// 2.6, 4, 9.5: 9.5. Waits 90, 80, 120: mean 290 / 3, max 120; responses
// 95, 130, 160: mean 385 / 3. Makespan from the first measured submit (10)
// to the last measured end (190): 180 s; work 10 + 100 + 160 = 270
// processor-seconds over 4 x 180: utilisation 0.375.
func TestLoadSweepMeasures(t *testing.T) {
	w := &rigid.Workload{Procs: 4, MeasureFromSeconds: 10, MeasureToSeconds: 31, MeasureFromJob: 1, MeasureToJob: 4, Jobs: []rigid.Job{
		{Number: 1, SubmitSeconds: 0, Procs: 4, RunSeconds: 100, RequestedSeconds: 100},
		{Number: 2, SubmitSeconds: 10, Procs: 2, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 3, SubmitSeconds: 20, Procs: 2, RunSeconds: 50, RequestedSeconds: 50},
		{Number: 4, SubmitSeconds: 30, Procs: 4, RunSeconds: 40, RequestedSeconds: 40},
	}}
	sched := &backfill.Schedule{StartSeconds: []int64{0, 100, 100, 150}, EndSeconds: []int64{100, 105, 150, 190}}
	st := (&Outcome{Workload: w, Schedule: sched}).stats()
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(st.bsldMean, 16.1/3) || st.bsldP95 != 9.5 || !near(st.waitMeanSeconds, 290.0/3) || st.waitMaxSeconds != 120 ||
		!near(st.responseMeanSeconds, 385.0/3) || st.makespanSeconds != 180 || st.utilisation != 0.375 {
		t.Errorf("got %+v; want bsld mean %v p95 9.5, wait mean %v max 120, response mean %v, makespan 180, utilisation 0.375",
			*st, 16.1/3, 290.0/3, 385.0/3)
	}
}
