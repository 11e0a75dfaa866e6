package rigid

import (
	"reflect"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestGantt converts a hand-made schedule of the contiguity trace
// (sweep/testdata/contiguity.swf.txt: jobs 1-4 on one processor each from
// 0 s, 2 and 4 ending at 2 s, job 5 on 2 processors submitted at 2 s) and
// a job 6 that never started: one bar per started job, named by its SWF
// number, its time alone its run. Counting processors the bars name no
// ids; with contiguous placement (job 5's block from processor 0 at 10 s)
// they are the blocks, from engine/placement's schedule; a Batsim
// scheduler's ids are taken as they are.
func TestGantt(t *testing.T) {
	w := &rigid.Workload{Name: "contiguity", Procs: 4}
	for i, procs := range []int{1, 1, 1, 1, 2, 4} {
		run := []int64{10, 2, 10, 2, 5, 1}[i]
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: []int64{0, 0, 0, 0, 2, 3}[i], Procs: procs, RunSeconds: run, RequestedSeconds: run})
	}
	counted := &backfill.Schedule{StartSeconds: []int64{0, 0, 0, 0, 2, -1}, EndSeconds: []int64{10, 2, 10, 2, 7, -1}}
	contiguous := &backfill.Schedule{StartSeconds: []int64{0, 0, 0, 0, 10, -1}, EndSeconds: []int64{10, 2, 10, 2, 15, -1},
		FirstResource: []int{0, 1, 2, 3, 0, 0}}
	batsim := [][]int{{3}, {2}, {1}, {0}, {0, 2}, nil}
	for _, tt := range []struct {
		name  string
		o     *Outcome
		ids   [][]int
		job5  model.GanttJob
		start int64
	}{
		{"counted", &Outcome{Workload: w, Schedule: counted, Cluster: "c1"}, [][]int{nil, nil, nil, nil, nil},
			model.GanttJob{ID: "5", ArrivalTick: 2, FinishTick: 7, AloneTicks: 5}, 2},
		{"contiguous", &Outcome{Workload: w, Schedule: contiguous, Cluster: "c1"}, [][]int{{0}, {1}, {2}, {3}, {0, 1}},
			model.GanttJob{ID: "5", ArrivalTick: 2, FinishTick: 15, AloneTicks: 5}, 10},
		{"batsim", &Outcome{Workload: w, Schedule: counted, Processors: batsim, Cluster: "c1"}, batsim[:5],
			model.GanttJob{ID: "5", ArrivalTick: 2, FinishTick: 7, AloneTicks: 5}, 2},
	} {
		g := tt.o.Gantt()
		if len(g.Bars) != 5 || len(g.Jobs) != 5 || g.Groups[0] != (model.GanttGroup{Name: "c1", Resources: 4}) || g.Words.Bar != "job" {
			t.Fatalf("%s: %d bars, %d jobs, groups %v, words %v; want 5 job bars on c1's 4 processors", tt.name, len(g.Bars), len(g.Jobs), g.Groups, g.Words)
		}
		var ids [][]int
		for _, b := range g.Bars {
			ids = append(ids, b.ResourceIDs)
		}
		if !reflect.DeepEqual(ids, tt.ids) {
			t.Errorf("%s: processor ids %v; want %v", tt.name, ids, tt.ids)
		}
		if b := g.Bars[4]; g.Jobs[4] != tt.job5 || b.Job != 4 || b.Resources != 2 || b.StartTick != tt.start || b.FinishTick != tt.job5.FinishTick {
			t.Errorf("%s: job 5 %+v, bar %+v; want %+v from %d", tt.name, g.Jobs[4], b, tt.job5, tt.start)
		}
	}
}
