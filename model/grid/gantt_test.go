package grid

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/report/gantt"
	"github.com/sweep-sched/sweep/workload/dag"
)

// simulate runs workload JSON on platform under policy.
func simulate(t *testing.T, workloadJSON string, plat *platform.Platform, policy string) *gridengine.Schedule {
	t.Helper()
	w, err := dag.Decode(strings.NewReader(workloadJSON), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	in, err := gridengine.Compile(w, plat, gridengine.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	s, err := gridengine.Simulate(context.Background(), in, gridengine.Options{Policy: policy, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// element is an SVG element of a chart.
type element struct {
	Class string
	Attr  map[string]string
	Title string
}

// elements parses svg and returns its rect and line elements with a class.
func elements(t *testing.T, svg []byte) []element {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []element
	var current *element
	inTitle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "title" {
				inTitle = true
				continue
			}
			e := element{Attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.Attr[a.Name.Local] = a.Value
			}
			e.Class = e.Attr["class"]
			if e.Class != "" {
				out = append(out, e)
				current = &out[len(out)-1]
			}
		case xml.EndElement:
			inTitle = false
		case xml.CharData:
			if inTitle && current != nil {
				current.Title += string(tok)
			}
		}
	}
	return out
}

func count(es []element, class string) int {
	n := 0
	for _, e := range es {
		if e.Class == class {
			n++
		}
	}
	return n
}

func attr(t *testing.T, e element, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.Attr[name], 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, e.Attr[name], err)
	}
	return v
}

// TestGraham draws Graham's anomaly example (engine/grid/testdata/graham.json:
// 9 tasks on 3 cores) under fifo-task. Every task has exactly one bar,
// titled with its job and task. The schedule (engine tests):
// T1 0-3, T2 and T3 0-2, T4 2-4, T9 3-12, T5 and T6 4-8, T7 and T8 8-12.
// At 100 px per tick (PlotWidthPx 1200 over 12 ticks), T1's bar is at
// x = 200 (the label margin), 300 px wide, on core 0's row (y = 56, the top
// margin), 18 px high; T2 on core 1 (y = 74); T3 on core 2 (y = 92).
func TestGraham(t *testing.T) {
	data, err := os.ReadFile("../../engine/grid/testdata/graham.json")
	if err != nil {
		t.Fatal(err)
	}
	s := simulate(t, string(data), platform.Single(3), "fifo-task")
	var svg bytes.Buffer
	sum, err := gantt.Write(&svg, Gantt(s), gantt.Options{Title: "graham"})
	if err != nil {
		t.Fatal(err)
	}
	es := elements(t, svg.Bytes())
	if n := count(es, "task"); n != 9 || sum.Bars != 9 || sum.Tasks != 9 || sum.TooShort+sum.OverBudget != 0 {
		t.Fatalf("%d task bars, summary %+v; want 9 bars, one per task, none elided", n, sum)
	}
	seen := map[string]int{}
	for _, e := range es {
		if e.Class == "task" {
			seen[strings.SplitN(e.Title, ":", 2)[0]]++
		}
	}
	for _, task := range []string{"job J1, task T1", "job J1, task T9", "job J2, task T2", "job J3, task T3",
		"job J4, task T4", "job J4, task T5", "job J4, task T6", "job J4, task T7", "job J4, task T8"} {
		if seen[task] != 1 {
			t.Errorf("%s: %d bars; want 1", task, seen[task])
		}
	}
	want := map[string][4]float64{ // x, y, width, height
		"job J1, task T1: 1 core on c1, ticks 0-3": {200, 56, 300, 18},
		"job J2, task T2: 1 core on c1, ticks 0-2": {200, 74, 200, 18},
		"job J3, task T3: 1 core on c1, ticks 0-2": {200, 92, 200, 18},
	}
	for _, e := range es {
		if w, ok := want[e.Title]; ok {
			got := [4]float64{attr(t, e, "x"), attr(t, e, "y"), attr(t, e, "width"), attr(t, e, "height")}
			if got != w {
				t.Errorf("%s: x, y, width, height %v; want %v", e.Title, got, w)
			}
			delete(want, e.Title)
		}
	}
	if len(want) > 0 {
		t.Errorf("no bar titled %v", want)
	}
	if n := count(es, "delay"); n != 0 {
		t.Errorf("%d delay lines on one cluster; want 0", n)
	}
}

// TestNetworkDelay: task a (Kind1, 10 ticks) on c1 feeds task b (Kind2,
// 5 ticks) on c2. With CCR 0.2 the edge's delay is ceil(10 x 0.2) = 2
// ticks, so b starts at 12 and the schedule ends at 17. At PlotWidthPx 1700
// (100 px per tick) the delay runs from x = 200 + 1000 to 200 + 1200 on b's
// row (c2, below c1's row and the 10 px gap: y = 56 + 18 + 10 + 9).
func TestNetworkDelay(t *testing.T) {
	plat, err := platform.New("two", []platform.Cluster{{Name: "c1", Cores: 1, Kind: "Kind1"}, {Name: "c2", Cores: 1, Kind: "Kind2"}})
	if err != nil {
		t.Fatal(err)
	}
	s := simulate(t, `{"jobs": [{"id": "J", "arrival": 0, "tasks": [
		{"id": "a", "exec": 10, "cores": 1, "kind": "Kind1"},
		{"id": "b", "exec": 5, "cores": 1, "kind": "Kind2", "after": ["a"]}]}]}`, plat, "fifo-task")
	var svg bytes.Buffer
	sum, err := gantt.Write(&svg, Gantt(s), gantt.Options{PlotWidthPx: 1700})
	if err != nil {
		t.Fatal(err)
	}
	es := elements(t, svg.Bytes())
	if n := count(es, "task"); n != 2 || sum.Delays != 1 {
		t.Fatalf("%d bars, summary %+v; want 2 bars and 1 delay", n, sum)
	}
	for _, e := range es {
		switch {
		case e.Class == "delay":
			if got := [3]float64{attr(t, e, "x1"), attr(t, e, "x2"), attr(t, e, "y1")}; got != [3]float64{1200, 1400, 93} {
				t.Errorf("delay line x1, x2, y %v; want [1200 1400 93]", got)
			}
		case e.Class == "task" && strings.HasPrefix(e.Title, "job J, task b"):
			if got := [3]float64{attr(t, e, "x"), attr(t, e, "width"), attr(t, e, "y")}; got != [3]float64{1400, 500, 84} {
				t.Errorf("b's bar x, width, y %v; want [1400 500 84]", got)
			}
		}
	}
}

// TestElision: 1,000 one-tick tasks and one of 100,000 ticks, one job each,
// on 2 cores. At 1200 px over about 100,500 ticks a tick is 0.012 px, under
// the 0.5 px minimum, so only the long task is drawn and the caption says
// the 1,000 others were elided. With a window of ticks 0-200, each short
// task is 6 px wide and all are drawn. A budget of 100 bars keeps 100.
func TestElision(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"jobs": [{"id": "long", "arrival": 0, "tasks": [{"id": "L", "exec": 100000, "cores": 1}]}`)
	for i := range 1000 {
		b.WriteString(`, {"id": "j` + strconv.Itoa(i) + `", "arrival": 0, "tasks": [{"id": "t", "exec": 1, "cores": 1}]}`)
	}
	b.WriteString("]}")
	s := simulate(t, b.String(), platform.Single(2), "fifo-job")

	var svg bytes.Buffer
	sum, err := gantt.Write(&svg, Gantt(s), gantt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(elements(t, svg.Bytes()), "task"); n != 1 || sum.TooShort != 1000 || sum.InWindow != 1001 {
		t.Errorf("whole schedule: %d bars, summary %+v; want 1 bar, 1000 too short", n, sum)
	}
	if !strings.Contains(svg.String(), "elided: 1000 tasks shorter than") {
		t.Error("the caption does not say what was elided")
	}

	svg.Reset()
	sum, err = gantt.Write(&svg, Gantt(s), gantt.Options{FromTick: 0, ToTick: 200})
	if err != nil {
		t.Fatal(err)
	}
	// Fifo-job runs the long job first on core 0 and the short ones one
	// after another on core 1, ticks 0-1000: 200 of them in the window.
	if n := count(elements(t, svg.Bytes()), "task"); n != 201 || sum.InWindow != 201 || sum.TooShort != 0 {
		t.Errorf("window 0-200: %d bars, summary %+v; want 201 bars (the long task and 200 short ones)", n, sum)
	}

	svg.Reset()
	sum, err = gantt.Write(&svg, Gantt(s), gantt.Options{FromTick: 0, ToTick: 200, MaxBars: 100})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(elements(t, svg.Bytes()), "task"); n != 100 || sum.OverBudget != 101 {
		t.Errorf("budget 100: %d bars, summary %+v; want 100 bars, 101 over budget", n, sum)
	}
}

// TestScatteredTask: on 3 cores under fifo-job, Z (1 core, ticks 0-5)
// takes core 0 and X (1 core, ticks 0-10) core 1; W (2 cores) arrives at 1
// and waits for a second free core. At tick 5 Z frees core 0, and W starts
// on cores 0 and 2, which are not consecutive: one task element in two
// pieces.
func TestScatteredTask(t *testing.T) {
	s := simulate(t, `{"jobs": [
		{"id": "Z", "arrival": 0, "tasks": [{"id": "z", "exec": 5, "cores": 1}]},
		{"id": "X", "arrival": 0, "tasks": [{"id": "x", "exec": 10, "cores": 1}]},
		{"id": "W", "arrival": 1, "tasks": [{"id": "w", "exec": 3, "cores": 2}]}]}`, platform.Single(3), "fifo-job")
	var svg bytes.Buffer
	sum, err := gantt.Write(&svg, Gantt(s), gantt.Options{PlotWidthPx: 1000})
	if err != nil {
		t.Fatal(err)
	}
	es := elements(t, svg.Bytes())
	if n := count(es, "task"); n != 3 || sum.Scattered != 1 {
		t.Fatalf("%d task elements, summary %+v; want 3, one scattered", n, sum)
	}
	text := svg.String()
	group := text[strings.Index(text, `<path class="task"`):]
	group = group[:strings.Index(group, "</path>")]
	// Rows of 18 px from y = 56, one core each: cores 0 and 2 at 56 and
	// 92; ticks 5-8 of a 10-tick window 1000 px wide from x = 200.
	if !strings.Contains(group, "job W, task w: 2 cores on c1, ticks 5-8") || strings.Count(group, "M") != 2 ||
		!strings.Contains(group, `M700.0 56.00h300.0v18.00h-300.0z`) || !strings.Contains(group, `M700.0 92.00h300.0v18.00h-300.0z`) {
		t.Errorf("W is not one path of two pieces on cores 0 and 2 (y = 56 and 92): %s", group)
	}
}

// TestFocusOnWorstJob: in the schedule of TestScatteredTask, W arrives at
// 1, waits until 5 and finishes at 8 with a critical path of 3: SLR 7/3,
// the worst (Z and X run at once: SLR 1). Its window is its life [1, 8]
// widened by a fifth of it (1 tick) on each side; in focus, its bar is
// vermillion, the others grey, and its arrival and finish are marked.
func TestFocusOnWorstJob(t *testing.T) {
	s := simulate(t, `{"jobs": [
		{"id": "Z", "arrival": 0, "tasks": [{"id": "z", "exec": 5, "cores": 1}]},
		{"id": "X", "arrival": 0, "tasks": [{"id": "x", "exec": 10, "cores": 1}]},
		{"id": "W", "arrival": 1, "tasks": [{"id": "w", "exec": 3, "cores": 2}]}]}`, platform.Single(3), "fifo-job")
	job, slr := gantt.WorstJob(Gantt(s))
	if job != 2 || slr != 7.0/3 {
		t.Fatalf("WorstJob = %d, %v; want 2 (W), 7/3", job, slr)
	}
	from, to := gantt.JobWindow(Gantt(s), job)
	if from != 0 || to != 9 {
		t.Errorf("JobWindow = [%d, %d]; want [0, 9]", from, to)
	}
	var svg bytes.Buffer
	if _, err := gantt.Write(&svg, Gantt(s), gantt.Options{FromTick: from, ToTick: to, Focus: true, FocusJob: job, TicksPerHour: 3600}); err != nil {
		t.Fatal(err)
	}
	text := svg.String()
	for _, want := range []string{
		`fill="#d55e00" d="M`,                                        // W, on scattered cores: one path
		`fill="#b8b8b8"><title>job Z`, `fill="#d6d6d6"><title>job X`, // jobs 0 and 1
		">job W arrives</text>", ">job W finishes</text>",
		"time (hours from the cell's start)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("focused chart lacks %q", want)
		}
	}
}

// TestGanttGolden: the charts of the schedules above are byte for byte
// the ones report/gantt drew from the grid schedule itself before the
// chart took the model-neutral input (testdata/gantt, written by the
// chart at commit 02f8416).
func TestGanttGolden(t *testing.T) {
	graham, err := os.ReadFile("../../engine/grid/testdata/graham.json")
	if err != nil {
		t.Fatal(err)
	}
	plat, err := platform.New("two", []platform.Cluster{{Name: "c1", Cores: 1, Kind: "Kind1"}, {Name: "c2", Cores: 1, Kind: "Kind2"}})
	if err != nil {
		t.Fatal(err)
	}
	var many strings.Builder
	many.WriteString(`{"jobs": [{"id": "long", "arrival": 0, "tasks": [{"id": "L", "exec": 100000, "cores": 1}]}`)
	for i := range 1000 {
		many.WriteString(`, {"id": "j` + strconv.Itoa(i) + `", "arrival": 0, "tasks": [{"id": "t", "exec": 1, "cores": 1}]}`)
	}
	many.WriteString("]}")
	scattered := simulate(t, `{"jobs": [
		{"id": "Z", "arrival": 0, "tasks": [{"id": "z", "exec": 5, "cores": 1}]},
		{"id": "X", "arrival": 0, "tasks": [{"id": "x", "exec": 10, "cores": 1}]},
		{"id": "W", "arrival": 1, "tasks": [{"id": "w", "exec": 3, "cores": 2}]}]}`, platform.Single(3), "fifo-job")
	elision := simulate(t, many.String(), platform.Single(2), "fifo-job")
	for _, tt := range []struct {
		file string
		s    *gridengine.Schedule
		opts gantt.Options
	}{
		{"graham", simulate(t, string(graham), platform.Single(3), "fifo-task"), gantt.Options{Title: "graham"}},
		{"delay", simulate(t, `{"jobs": [{"id": "J", "arrival": 0, "tasks": [
			{"id": "a", "exec": 10, "cores": 1, "kind": "Kind1"},
			{"id": "b", "exec": 5, "cores": 1, "kind": "Kind2", "after": ["a"]}]}]}`, plat, "fifo-task"), gantt.Options{PlotWidthPx: 1700}},
		{"elision", elision, gantt.Options{}},
		{"elision-window", elision, gantt.Options{FromTick: 0, ToTick: 200}},
		{"elision-budget", elision, gantt.Options{FromTick: 0, ToTick: 200, MaxBars: 100}},
		{"scattered", scattered, gantt.Options{PlotWidthPx: 1000}},
		{"focus", scattered, gantt.Options{FromTick: 0, ToTick: 9, Focus: true, FocusJob: 2, TicksPerHour: 3600}},
	} {
		var svg bytes.Buffer
		if _, err := gantt.Write(&svg, Gantt(tt.s), tt.opts); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		want, err := os.ReadFile("testdata/gantt/" + tt.file + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(svg.Bytes(), want) {
			t.Errorf("%s: the chart differs from testdata/gantt/%s.svg", tt.file, tt.file)
		}
	}
}
