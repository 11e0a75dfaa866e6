package gantt

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model"
)

func TestTakeCores(t *testing.T) {
	tests := []struct {
		name   string
		freeAt []int64
		need   int
		runs   []coreRun
		after  []int64
	}{
		// Cores 0, 2 and 3 are free at tick 5: the only block of 2 is 2-3.
		{"block", []int64{0, 9, 5, 3}, 2, []coreRun{{2, 2}}, []int64{0, 9, 20, 20}},
		// No block of 3: the lowest free cores 0, 2, 3, in two runs.
		{"scattered", []int64{0, 9, 5, 3}, 3, []coreRun{{0, 1}, {2, 2}}, []int64{20, 9, 20, 20}},
		// Free runs 0-2 (3 cores) and 4-5 (2 cores): a task of 2 takes the
		// narrower 4-5, keeping 0-2 for a wider task; a task of 1 takes
		// the lowest narrowest run, core 7.
		{"best fit", []int64{0, 0, 0, 9, 0, 0, 9, 0}, 2, []coreRun{{4, 2}}, []int64{0, 0, 0, 9, 20, 20, 9, 0}},
		{"best fit, one core", []int64{0, 0, 0, 9, 0, 0, 9, 0}, 1, []coreRun{{7, 1}}, []int64{0, 0, 0, 9, 0, 0, 9, 20}},
	}
	for _, tt := range tests {
		runs, err := takeCores(tt.freeAt, 5, 20, tt.need)
		if err != nil || !slices.Equal(runs, tt.runs) || !slices.Equal(tt.freeAt, tt.after) {
			t.Errorf("%s: runs %v, %v, cores free at %v; want %v, %v", tt.name, runs, err, tt.freeAt, tt.runs, tt.after)
		}
	}
	if _, err := takeCores([]int64{9, 9}, 5, 20, 1); err == nil {
		t.Error("no free core: no error")
	}
}

// TestAxisTicks: about ten round ticks, 1, 2 or 5 times a power of ten
// apart, in ticks or, with TicksPerHour, in hours from tick 0.
func TestAxisTicks(t *testing.T) {
	for _, tt := range []struct {
		from, to, perHour int64
		at                []int64
		labels            string
	}{
		{0, 12, 0, []int64{0, 2, 4, 6, 8, 10, 12}, "0 2 4 6 8 10 12"},
		{0, 100000, 0, []int64{0, 10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000, 90000, 100000}, "0 10000 20000 30000 40000 50000 60000 70000 80000 90000 100000"},
		{150, 260, 0, []int64{160, 180, 200, 220, 240, 260}, "160 180 200 220 240 260"},
		// 1.5 hours of one-second ticks: a tick every 0.2 h (720 s).
		{0, 5400, 3600, []int64{0, 720, 1440, 2160, 2880, 3600, 4320, 5040}, "0.0 0.2 0.4 0.6 0.8 1.0 1.2 1.4"},
		// 25,000,000 s (6,944 h): a tick every 1,000 h.
		{0, 25000000, 3600, []int64{0, 3600000, 7200000, 10800000, 14400000, 18000000, 21600000}, "0 1000 2000 3000 4000 5000 6000"},
	} {
		ticks := Options{TicksPerHour: tt.perHour}.axisTicks(tt.from, tt.to)
		var at []int64
		var labels []string
		for _, tick := range ticks {
			at, labels = append(at, tick.at), append(labels, tick.label)
		}
		if !slices.Equal(at, tt.at) || strings.Join(labels, " ") != tt.labels {
			t.Errorf("axisTicks(%d, %d) per hour %d = %v %q; want %v %q", tt.from, tt.to, tt.perHour, at, labels, tt.at, tt.labels)
		}
	}
}

// jobsOnProcessors: on 4 processors (a hand-made schedule, no simulator),
// job A holds processors 2-3 over ticks 0-10, as a contiguous placement
// named them; B (2 processors, ticks 0-5) and C (1 processor, ticks 5-8)
// are counted, and the chart places them: B on the only free block, 0-1,
// C on the narrowest block free at 5, a single processor of 0-1 (the
// lowest).
func jobsOnProcessors() model.Gantt {
	return model.Gantt{
		Words:  model.GanttWords{Bar: "job", Resource: "processor"},
		Groups: []model.GanttGroup{{Name: "c1", Resources: 4}},
		Jobs: []model.GanttJob{{ID: "A", ArrivalTick: 0, FinishTick: 10, AloneTicks: 10},
			{ID: "B", ArrivalTick: 0, FinishTick: 5, AloneTicks: 5}, {ID: "C", ArrivalTick: 1, FinishTick: 8, AloneTicks: 3}},
		Bars: []model.GanttBar{
			{Job: 0, Resources: 2, StartTick: 0, FinishTick: 10, ResourceIDs: []int{2, 3}},
			{Job: 1, Resources: 2, StartTick: 0, FinishTick: 5},
			{Job: 2, Resources: 1, StartTick: 5, FinishTick: 8},
		},
	}
}

// TestJobsOnProcessors draws jobsOnProcessors at 100 px per tick (1000
// px over 10 ticks) from x = 200, one 18 px row per processor from y = 56:
// A at y = 56 + 2*18 = 92, 36 high, 1000 wide; B at y = 56, 500 wide; C
// from x = 700 on processor 0, 300 wide. C waits 4 ticks (arrives at 1,
// starts at 5) over its 3 alone: slowdown 7/3, the worst.
func TestJobsOnProcessors(t *testing.T) {
	g := jobsOnProcessors()
	var svg bytes.Buffer
	sum, err := Write(&svg, g, Options{PlotWidthPx: 1000})
	if err != nil {
		t.Fatal(err)
	}
	text := svg.String()
	for _, want := range []string{
		`x="200.0" y="92.0" width="1000.0" height="36.0" fill="` + jobColour(0) + `"><title>job A: 2 processors on c1, ticks 0-10</title>`,
		`x="200.0" y="56.0" width="500.0" height="36.0" fill="` + jobColour(1) + `"><title>job B: 2 processors on c1, ticks 0-5</title>`,
		`x="700.0" y="56.0" width="300.0" height="18.0" fill="` + jobColour(2) + `"><title>job C: 1 processor on c1, ticks 5-8</title>`,
		">c1 processor 0</text>", ">processor 3</text>",
		"one lane per cluster, one row per processor; one bar per job, coloured by job (hover for details)</text>",
		"ticks 0 to 10: 3 of 3 jobs run in this window; 3 drawn; rows stop at the highest processor used",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if sum.Bars != 3 || sum.Rows != 4 || sum.Delays != 0 || strings.Contains(text, "dashed") {
		t.Errorf("summary %+v, or a legend of waits; want 3 bars on 4 rows, no waits", sum)
	}
	if job, slowdown := WorstJob(g); job != 2 || slowdown != 7.0/3 {
		t.Errorf("WorstJob = %d, %v; want 2 (C), 7/3", job, slowdown)
	}
}

// TestNamedResourcesChecked: with A named on processors 0-1, B named on
// resources that A holds, or outside the group, or fewer than it holds, is
// refused, naming the bar.
func TestNamedResourcesChecked(t *testing.T) {
	for _, tt := range []struct {
		ids  []int
		want string
	}{
		{[]int{0, 1}, "job B on cluster c1 at tick 0: resource 0 is busy until tick 10"},
		{[]int{3, 4}, "resource 4 is not one of the 4"},
		{[]int{3}, "names 1 resources but holds 2"},
	} {
		g := jobsOnProcessors()
		g.Bars[0].ResourceIDs = []int{0, 1}
		g.Bars[1].ResourceIDs = tt.ids
		_, err := Write(&bytes.Buffer{}, g, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("resources %v: %v; want an error saying %q", tt.ids, err, tt.want)
		}
	}
}

// TestJobsOnNodes draws model/rigid's TestNodeGantt schedule (docs/nodes.md's
// example platform: cpu nodes 0-1 of 4 cores, gpu node 2 of 8) at 100 px
// per tick from x = 200: a row per node, 18 px, so a cpu core is 4.5 px
// and a gpu core 2.25. Job 1, on 4 cores of each cpu node over 0-10, is
// a bar on node 0's row (y = 56) and one on node 1's (y = 74), each 1000
// wide and 18 high; job 3 holds gpu cores 2-4 from tick 2: the gpu band
// starts at 56 + 2*18 + 10 = 102, so its bar is at x = 400, y = 106.5;
// job 4's cores 0-1 and 5-6 are two pieces of one bar.
func TestJobsOnNodes(t *testing.T) {
	g := model.Gantt{
		Words:  model.GanttWords{Bar: "job", Resource: "core", Group: "partition"},
		Groups: []model.GanttGroup{{Name: "cpu", Resources: 8, NodeResources: 4}, {Name: "gpu", Resources: 8, NodeResources: 8, FirstNode: 2}},
		Jobs: []model.GanttJob{{ID: "1", FinishTick: 10, AloneTicks: 10}, {ID: "2", FinishTick: 5, AloneTicks: 10},
			{ID: "3", FinishTick: 8, AloneTicks: 10}, {ID: "4", FinishTick: 9, AloneTicks: 10}},
		Bars: []model.GanttBar{
			{Job: 0, Group: 0, Resources: 4, StartTick: 0, FinishTick: 10, ResourceIDs: []int{0, 1, 2, 3}},
			{Job: 0, Group: 0, Resources: 4, StartTick: 0, FinishTick: 10, ResourceIDs: []int{4, 5, 6, 7}},
			{Job: 1, Group: 1, Resources: 2, StartTick: 0, FinishTick: 5, ResourceIDs: []int{0, 1}},
			{Job: 2, Group: 1, Resources: 3, StartTick: 2, FinishTick: 8, ResourceIDs: []int{2, 3, 4}},
			{Job: 3, Group: 1, Resources: 4, StartTick: 5, FinishTick: 9, ResourceIDs: []int{0, 1, 5, 6}},
		},
	}
	var svg bytes.Buffer
	sum, err := Write(&svg, g, Options{PlotWidthPx: 1000})
	if err != nil {
		t.Fatal(err)
	}
	text := svg.String()
	for _, want := range []string{
		`x="200.0" y="56.0" width="1000.0" height="18.0" fill="` + jobColour(0) + `"><title>job 1: 4 cores on cpu node 0, ticks 0-10</title>`,
		`x="200.0" y="74.0" width="1000.0" height="18.0" fill="` + jobColour(0) + `"><title>job 1: 4 cores on cpu node 1, ticks 0-10</title>`,
		`x="400.0" y="106.5" width="600.0"`, `<title>job 3: 3 cores on gpu node 2, ticks 2-8</title>`,
		`d="M700.0 102.00h400.0v4.50h-400.0zM700.0 113.25h400.0v4.50h-400.0z"><title>job 4: 4 cores on gpu node 2, ticks 5-9</title>`,
		">cpu node 0</text>", ">node 1</text>", ">gpu node 2</text>",
		"one lane per partition, one row per node, a bar&#39;s height the cores it holds there; one bar per job on each of its nodes",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if sum.Rows != 3 || sum.NodesPerRow != 1 || sum.Bars != 5 || sum.Scattered != 1 {
		t.Errorf("summary %+v; want 5 bars on 3 rows of one node, 1 scattered", sum)
	}
}
