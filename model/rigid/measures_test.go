package rigid

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/store"
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

// A cell's measures and rows under both kill rules, by hand, FCFS-EASY
// with estimates R (and T under kill: never) on 4 processors, every job measured (window [0, 21) s,
// user 1). Job 1 requests 100 s and its log ran 150 s:
//
//	job  submit  procs  request  run (request / never)
//	 1      0      4      100      100 / 150
//	 2     10      2       50        5
//	 3     20      2       60       40
//
// Jobs 2 and 3 wait behind job 1 (2 + 2 processors, all 4 held) and start
// at its end. kill: request (today's values): job 1 killed at 100, jobs 2
// and 3 start at 100. Waits 0, 90, 80 (mean 170/3, max 90); bounded
// slowdowns max(1, (w + r) / max(r, 10)) 100/100 = 1, 95/10 = 9.5,
// 120/40 = 3 (mean 4.5, p95 the 3rd of 3: 9.5); responses 100, 95, 120
// (mean 105); last end 140, makespan 140; work 400 + 10 + 80 = 490 over
// 4 x 140: 0.875. kill: never: job 1 runs 0-150, jobs 2 and 3 start at
// 150. Waits 0, 140, 130 (mean 90, max 140); slowdowns 150/150 = 1,
// 145/10 = 14.5, 170/40 = 4.25 (mean 19.75/3, p95 14.5); responses 150,
// 145, 170 (mean 155); last end 190; work 600 + 10 + 80 = 690 over 4 x
// 190: 690/760. The clamped run time (100) would give job 1 a response of
// 100 and work 400. Job 1 is killed only under kill: request. The jobs'
// estimated_run is their request under R (100, 50, 60) and under T the
// time they ran, 150 for job 1 under kill: never (the simulator's T
// estimate); T gives the same schedule, as jobs 2 and 3 need job 1's
// processors whatever its estimate.
func TestMeasuresUnderKill(t *testing.T) {
	tests := []struct {
		variant                              rigid.Variant
		kill                                 rigid.Kill
		ends                                 []int64
		waitMean, waitMax, bsldMean, bsldP95 float64
		responseMean, utilisation            float64
		makespan                             int64
		bslds                                []float64
		killed                               []bool
	}{
		{rigid.EstimateRequested, rigid.KillAtRequest, []int64{100, 105, 140}, 170.0 / 3, 90, 4.5, 9.5, 105, 0.875, 140,
			[]float64{1, 9.5, 3}, []bool{true, false, false}},
		{rigid.EstimateRequested, rigid.KillNever, []int64{150, 155, 190}, 90, 140, 19.75 / 3, 14.5, 155, 690.0 / 760, 190,
			[]float64{1, 14.5, 4.25}, []bool{false, false, false}},
		{rigid.EstimateExact, rigid.KillNever, []int64{150, 155, 190}, 90, 140, 19.75 / 3, 14.5, 155, 690.0 / 760, 190,
			[]float64{1, 14.5, 4.25}, []bool{false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.variant.String()+"/"+tt.kill.String(), func(t *testing.T) {
			w := &rigid.Workload{Name: "kill", Procs: 4, MeasureFromSeconds: 0, MeasureToSeconds: 21, Jobs: []rigid.Job{
				{Number: 1, User: 1, SubmitSeconds: 0, Procs: 4, RunSeconds: 100, RequestedSeconds: 100, LoggedRunSeconds: 150},
				{Number: 2, User: 1, SubmitSeconds: 10, Procs: 2, RunSeconds: 5, RequestedSeconds: 50},
				{Number: 3, User: 1, SubmitSeconds: 20, Procs: 2, RunSeconds: 40, RequestedSeconds: 60},
			}}
			p := backfill.FCFSEasy()
			p.Kill = tt.kill
			sched, err := backfill.Simulate(context.Background(), w, tt.variant, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sched.EndSeconds, tt.ends) {
				t.Fatalf("ends %v, want %v", sched.EndSeconds, tt.ends)
			}
			o := &Outcome{CellID: "c", Variant: tt.variant, Workload: w, Schedule: sched}
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
			st := o.stats()
			if !near(st.waitMeanSeconds, tt.waitMean) || st.waitMaxSeconds != tt.waitMax || !near(st.bsldMean, tt.bsldMean) ||
				st.bsldP95 != tt.bsldP95 || st.responseMeanSeconds != tt.responseMean || !near(st.utilisation, tt.utilisation) ||
				st.makespanSeconds != tt.makespan {
				t.Errorf("stats %+v, want wait mean %v max %v, bsld mean %v p95 %v, response mean %v, utilisation %v, makespan %d",
					*st, tt.waitMean, tt.waitMax, tt.bsldMean, tt.bsldP95, tt.responseMean, tt.utilisation, tt.makespan)
			}
			m, err := fairness.Measure(w, sched.StartSeconds, sched.EndSeconds)
			if err != nil {
				t.Fatal(err)
			}
			if !near(m.MeanWaitSeconds, tt.waitMean) || !near(m.MeanSlowdownTau10, tt.bsldMean) ||
				m.DemandProcSeconds != int64(tt.utilisation*4*float64(tt.makespan)+0.5) {
				t.Errorf("month: wait mean %v, slowdown tau 10 %v, demand %d; want %v, %v, %v", m.MeanWaitSeconds,
					m.MeanSlowdownTau10, m.DemandProcSeconds, tt.waitMean, tt.bsldMean, tt.utilisation*4*float64(tt.makespan))
			}
			rows := o.jobRows()
			s, err := o.ExportSchedule()
			if err != nil {
				t.Fatal(err)
			}
			for j, row := range rows {
				start := sched.StartSeconds[j]
				estimate := w.Jobs[j].RequestedSeconds
				if tt.variant == rigid.EstimateExact {
					estimate = tt.ends[j] - start
				}
				want := store.Row{store.String("c"), store.Int64(int64(j + 1)), store.Int64(w.Jobs[j].SubmitSeconds), store.Int64(start),
					store.Int64(tt.ends[j]), store.Int64(int64(w.Jobs[j].Procs)), store.Int64(estimate),
					store.Int64(w.Jobs[j].RequestedSeconds), store.String("u1"), store.Int64(start - w.Jobs[j].SubmitSeconds),
					store.Float64(tt.bslds[j]),
					// nodes, memory, GPUs, partition, node ids: on processors, none
					store.Null(), store.Null(), store.Null(), store.Null(), store.Null()}
				if !reflect.DeepEqual(row, want) {
					t.Errorf("job %d: row %v, want %v", j+1, row, want)
				}
				if got := s.Jobs[j]; got.FinishSeconds != tt.ends[j] || got.ReachedRequest != tt.killed[j] {
					t.Errorf("job %d exported ending %d, killed %v; want %d, %v", j+1, got.FinishSeconds, got.ReachedRequest, tt.ends[j], tt.killed[j])
				}
			}
		})
	}
}
