package rigid

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/export"
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

// TestNodeGantt converts a hand-made schedule on docs/nodes.md's example
// platform (cpu: nodes 0-1 of 4 cores; gpu: node 2 of 8 cores): job 1
// holds 4 cores on each of nodes 0 and 1 over 0-10 s, job 2 2 cores of
// node 2 over 0-5 s, job 3 3 cores of node 2 over 2-8 s and job 4 4
// cores of node 2 over 5-9 s. A job is a bar per node, on that node's
// cores: job 3 takes node 2's cores 2-4 (0-1 are job 2's), job 4 the
// cores job 2 freed at 5 s, then the lowest free: 0, 1, 5, 6.
func TestNodeGantt(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	w := &rigid.Workload{Name: "nodes", Procs: 16, Machine: m}
	for i, procs := range []int{8, 2, 3, 4} {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), Procs: procs, RunSeconds: 10, RequestedSeconds: 10})
	}
	s := &backfill.Schedule{StartSeconds: []int64{0, 0, 2, 5}, EndSeconds: []int64{10, 5, 8, 9},
		Nodes: [][]backfill.NodeShare{{{Node: 0, Cores: 4}, {Node: 1, Cores: 4}}, {{Node: 2, Cores: 2, GPUs: 1}}, {{Node: 2, Cores: 3}}, {{Node: 2, Cores: 4}}}}
	g := (&Outcome{Workload: w, Schedule: s}).Gantt()
	wantGroups := []model.GanttGroup{{Name: "cpu", Resources: 8, NodeResources: 4}, {Name: "gpu", Resources: 8, NodeResources: 8, FirstNode: 2}}
	if !reflect.DeepEqual(g.Groups, wantGroups) || g.Words.Group != "partition" || len(g.Jobs) != 4 {
		t.Fatalf("groups %+v, words %+v, %d jobs; want %+v, partitions, 4 jobs", g.Groups, g.Words, len(g.Jobs), wantGroups)
	}
	want := []model.GanttBar{
		{Job: 0, Group: 0, Resources: 4, StartTick: 0, FinishTick: 10, ResourceIDs: []int{0, 1, 2, 3}},
		{Job: 0, Group: 0, Resources: 4, StartTick: 0, FinishTick: 10, ResourceIDs: []int{4, 5, 6, 7}},
		{Job: 1, Group: 1, Resources: 2, StartTick: 0, FinishTick: 5, ResourceIDs: []int{0, 1}},
		{Job: 2, Group: 1, Resources: 3, StartTick: 2, FinishTick: 8, ResourceIDs: []int{2, 3, 4}},
		{Job: 3, Group: 1, Resources: 4, StartTick: 5, FinishTick: 9, ResourceIDs: []int{0, 1, 5, 6}},
	}
	if !reflect.DeepEqual(g.Bars, want) {
		t.Errorf("bars\n%+v\nwant\n%+v", g.Bars, want)
	}
}

// TestNodeJobsCSV exports TestNodeGantt's schedule as Batsim's jobs.csv:
// on nodes, Batsim's resources are the nodes (its hosts), so job 1
// (shares on nodes 1 and 0, listed as the allocator chose them) asks 2
// resources and is allocated "0-1", jobs 2-4 one each, node 2, which
// they share. (Each job requests 20 s: none is killed at its request.)
func TestNodeJobsCSV(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	w := &rigid.Workload{Name: "nodes", Procs: 16, Machine: m}
	for i, procs := range []int{8, 2, 3, 4} {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), Procs: procs, RunSeconds: 10, RequestedSeconds: 20, User: 1})
	}
	s := &backfill.Schedule{StartSeconds: []int64{0, 0, 2, 5}, EndSeconds: []int64{10, 5, 8, 9},
		Nodes: [][]backfill.NodeShare{{{Node: 1, Cores: 4}, {Node: 0, Cores: 4}}, {{Node: 2, Cores: 2, GPUs: 1}}, {{Node: 2, Cores: 3}}, {{Node: 2, Cores: 4}}}}
	ex, err := (&Outcome{Workload: w, Schedule: s}).ExportSchedule()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := export.WriteBatsimCSV(&b, ex); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(export.BatsimColumns, ",") + `
1,w0,,0,2,20,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,
2,w0,,0,1,20,1,COMPLETED_SUCCESSFULLY,0,5,5,0,5,1,2,-1,
3,w0,,0,1,20,1,COMPLETED_SUCCESSFULLY,2,6,8,2,8,1.3333333333333333,2,-1,
4,w0,,0,1,20,1,COMPLETED_SUCCESSFULLY,5,4,9,5,9,2.25,2,-1,
`
	if b.String() != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", b.String(), want)
	}
}
