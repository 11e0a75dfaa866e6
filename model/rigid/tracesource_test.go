package rigid

import (
	"context"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/rigid"
	"gopkg.in/yaml.v3"
)

// sharedTraces are the Parallel Workloads Archive logs of the team's
// shared folder, when present.
const sharedTraces = "../../../shared/traces"

// wholeTraceCells resolves a whole-trace workload (no months) on the
// trace platform at loads, and simulates every cell under fcfs-easy.
func wholeTraceCells(t *testing.T, path string, loads []float64) []*Outcome {
	return traceCells(t, "{trace: "+path+", estimates: [R]}", loads)
}

// traceCells resolves a trace workload entry on the trace platform at
// loads, and simulates every cell under fcfs-easy.
func traceCells(t *testing.T, entry string, loads []float64) []*Outcome {
	t.Helper()
	var w model.WorkloadSpec
	if err := yaml.Unmarshal([]byte(entry), &w); err != nil {
		t.Fatal(err)
	}
	s := settings(t, "")
	env := model.Env{Path: func(p string) string { return p }, Platforms: map[string]*platform.Platform{PlatformTrace: platform.Single(1)}, Settings: s}
	src, err := Model{}.NewSource(&w, env)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.CheckPlatform(PlatformTrace, nil); err != nil {
		t.Fatal(err)
	}
	return firstGroupCells(t, src, model.Axes{Experiment: "x", Label: "w", Platforms: []string{PlatformTrace}, Loads: loads,
		Policies: []string{PolicyFCFSEasy}, Settings: s, Env: env})
}

// The acceptance check of the load rule: every cell's achieved offered
// load within 0.5% of its target, on our 40-job fixture (where one second
// of rounding is a larger share of the span) and, when the shared folder
// has them, on the whole KTH-SP2 and SDSC-SP2 logs at 0.5..0.95.
func TestWholeTraceAchievesLoads(t *testing.T) {
	loads := []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95}
	paths := []string{"testdata/loads.swf.txt"}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz"} {
		if p := filepath.Join(sharedTraces, name); fileExists(p) {
			paths = append(paths, p)
		} else {
			t.Logf("%s absent: checked on the fixture only", p)
		}
	}
	for _, path := range paths {
		for _, o := range wholeTraceCells(t, path, loads) {
			if rel := math.Abs(o.AchievedLoad-o.TargetLoad) / o.TargetLoad; !(rel <= 0.005) {
				t.Errorf("%s at load %v: achieved %v (%.3f%% off)", path, o.TargetLoad, o.AchievedLoad, 100*rel)
			}
			t.Logf("%s: target %v achieved %.6f bsld %.2f utilisation %.3f", filepath.Base(path), o.TargetLoad, o.AchievedLoad, o.stats().bsldMean, o.stats().utilisation)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// A whole trace at its recorded arrivals is the log as it was: the cell's
// schedule is engine/backfill's fcfs-easy schedule of the trace's jobs on
// the header's machine, job for job, and its achieved load the log's own
// (fixture: the 40 jobs' processor-seconds over 16 x their submit span).
func TestWholeTraceRecordedArrivals(t *testing.T) {
	o := wholeTraceCells(t, "testdata/loads.swf.txt", nil)[0]
	tr, err := rigidtrace.Load("testdata/loads.swf.txt", rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := rigid.Workload{Name: "direct", Procs: 16, Jobs: tr.Jobs}
	want, err := backfill.Simulate(context.Background(), &w, rigid.EstimateRequested, backfill.FCFSEasy())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Schedule.StartSeconds, want.StartSeconds) || o.TargetLoad != 0 || o.Period != 0 || o.WarmUpJobs != 0 {
		t.Errorf("whole trace at recorded arrivals: starts %v, want %v (target %v period %d warm-up %d)", o.Schedule.StartSeconds, want.StartSeconds, o.TargetLoad, o.Period, o.WarmUpJobs)
	}
	var work int64
	for _, j := range tr.Jobs {
		work += j.WorkProcSeconds()
	}
	span := tr.Jobs[len(tr.Jobs)-1].SubmitSeconds - tr.Jobs[0].SubmitSeconds
	if want := float64(work) / float64(16*span); math.Abs(o.AchievedLoad-want) > 1e-12 {
		t.Errorf("achieved load %v, want %v", o.AchievedLoad, want)
	}
}

// BenchmarkWholeTrace simulates whole Parallel Workloads Archive logs
// under fcfs-easy with requested times (simulation only: the trace is
// read and cut before the timer).
func BenchmarkWholeTrace(b *testing.B) {
	for _, name := range []string{"SDSC-SP2-1998-4.2-cln.swf.gz", "LPC-EGEE-2004-1.2-cln.swf.gz"} {
		path := filepath.Join(sharedTraces, name)
		if !fileExists(path) {
			b.Logf("%s absent", path)
			continue
		}
		tr, err := rigidtrace.Load(path, rigidtrace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		c, err := tr.Whole()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportMetric(float64(len(c.Workload.Jobs)), "jobs")
			for b.Loop() {
				if _, err := backfill.Simulate(context.Background(), &c.Workload, rigid.EstimateRequested, backfill.FCFSEasy()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// RelShare's day in a cell at a load: 24 h under day: fixed (the
// default), 24 h x the time factor under day: scaled (3/2: 129600 s);
// fcfs-easy has no day.
func TestRelShareDay(t *testing.T) {
	l := &loaded{factor: big.NewRat(3, 2)}
	for _, tt := range []struct {
		section string
		want    int64
	}{{"", 0}, {"{day: fixed}", 0}, {"{day: scaled}", 129600}} {
		r := l.runner(policyRunner{settings: settings(t, tt.section)})
		if got := r.settings.Policy(PolicyRelShare).WindowSeconds; got != tt.want {
			t.Errorf("%q: RelShare window %d s, want %d (0: a day)", tt.section, got, tt.want)
		}
	}
	recorded := (&loaded{}).runner(policyRunner{settings: settings(t, "{day: scaled}")})
	if got := recorded.settings.Policy(PolicyRelShare).WindowSeconds; got != 0 {
		t.Errorf("recorded arrivals under day: scaled: window %d s, want 0 (a day)", got)
	}
	if _, err := (Model{}).ParseSettings(yamlNode(t, "{day: weekly}")); err == nil || !strings.Contains(err.Error(), `day "weekly"; want fixed`) {
		t.Errorf("day weekly: %v", err)
	}
}

func yamlNode(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// A trace month at a load measures the month's jobs by index whatever
// the scaled times: October 1996 of rigidtrace's months fixture (second 0
// is 1996-09-20) measures the four jobs submitted at 960000 (two), 970000
// and 3628799 s, whose 12010 processor-seconds over 32 x 2668799 s offer
// 12010 / 85401568 = 0.0001406; at load 0.0002 the gaps shrink by 0.703
// and the same four jobs are measured, the load achieved within 0.5%.
func TestMonthAtALoad(t *testing.T) {
	entry := "{trace: rigidtrace/testdata/months.swf.txt, months: {from: 1996-10, to: 1996-10}, estimates: [T]}"
	cells := traceCells(t, entry, []float64{0.0002})
	recorded := traceCells(t, entry, nil)[0]
	if want := 12010.0 / 85401568; math.Abs(recorded.AchievedLoad-want) > 1e-15 || recorded.Period != 199610 {
		t.Errorf("recorded: offered %v, want %v (month %d)", recorded.AchievedLoad, want, recorded.Period)
	}
	o := cells[0]
	w := o.Workload
	measured := 0
	for i := range w.Jobs {
		if w.Measured(i) {
			measured++
			if n := w.Jobs[i].Number; n != 5 && n != 6 && n != 7 && n != 10 {
				t.Errorf("measured SWF job %d, want 5, 6, 7 and 10", n)
			}
		}
	}
	if measured != 4 || o.WarmUpJobs != 2 || math.Abs(o.AchievedLoad-0.0002)/0.0002 > 0.005 {
		t.Errorf("at load 0.0002: %d measured, %d warm-up, achieved %v", measured, o.WarmUpJobs, o.AchievedLoad)
	}
}
