package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// toyShowModel is a model that exists only in this test, as
// sweep.TestToyModel's: n identical jobs of 6 s each on the machines of a
// single:m platform, all at time 0, filling the machines in order. Its
// outcome draws itself (model.Charted), one bar per job on one machine,
// which the chart places. It proves `sweep show` needs nothing of a model
// but the model package: no edit in cli, report or analysis.
type toyShowModel struct{}

func (toyShowModel) Name() string    { return "toyshow" }
func (toyShowModel) Doc() string     { return "identical jobs on identical machines, drawn" }
func (toyShowModel) Version() string { return "1" }
func (toyShowModel) Section() string { return "" }
func (toyShowModel) UsesLoads() bool { return false }
func (toyShowModel) Policies() []model.Policy {
	return []model.Policy{{Name: "toyshow-fill", Doc: "fill the machines in order"}}
}
func (toyShowModel) Generators() []string { return []string{"toyshow/jobs"} }
func (toyShowModel) Takes(w *model.WorkloadSpec) bool {
	return w.Generator == "toyshow/jobs"
}
func (toyShowModel) Measures() []table.Measure {
	return []table.Measure{{Name: "toyshow_makespan", Integer: true, Better: table.LowerIsBetter},
		{Name: "toyshow_sum_completion", Integer: true, Better: table.LowerIsBetter}}
}
func (toyShowModel) Tables(model.Record) []store.Schema { return nil }

type toyShowSettings struct{}

func (toyShowSettings) Canonical() string { return "" }

func (toyShowModel) ParseSettings(*yaml.Node) (model.Settings, error) { return toyShowSettings{}, nil }

func (toyShowModel) NewSource(w *model.WorkloadSpec, _ model.Env) (model.Source, error) {
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	n := 0
	if _, err := fmt.Sscan(w.Set["jobs"], &n); err != nil || n < 1 {
		return nil, fmt.Errorf("set: jobs %q; want a count >= 1", w.Set["jobs"])
	}
	return toyShowSource{jobs: n}, nil
}

type toyShowSource struct{ jobs int }

func (s toyShowSource) Describe(label string, _ int) string {
	return fmt.Sprintf("%s (%d jobs)", label, s.jobs)
}
func (toyShowSource) Report() string      { return "" }
func (toyShowSource) Allows(string) error { return nil }
func (toyShowSource) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("toyshow jobs want one cluster, not %s", name)
	}
	return nil
}
func (s toyShowSource) Groups(ax model.Axes) [][]model.Cell {
	var groups [][]model.Cell
	for inst := range ax.Instances {
		groups = append(groups, model.InstanceCells(ax, "1", fmt.Sprint("toyshow jobs=", s.jobs), ax.Settings.Canonical(), inst, [2]uint64{uint64(inst), 0}))
	}
	return groups
}
func (s toyShowSource) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	cluster := env.Platforms[c.Platform].Clusters[0]
	return toyShowPrepared{jobs: s.jobs, machines: cluster.Cores, cluster: cluster.Name}, nil
}

type toyShowPrepared struct {
	jobs, machines int
	cluster        string
}

// toyShowSeconds is the length of every toy job.
const toyShowSeconds = 6

// Simulate fills the machines in order: job k starts at (k / m) x 6 s.
func (p toyShowPrepared) Simulate(context.Context, model.Cell) (model.Outcome, error) {
	o := toyShowOutcome{machines: p.machines, cluster: p.cluster}
	for k := range p.jobs {
		o.starts = append(o.starts, int64(k/p.machines*toyShowSeconds))
	}
	return o, nil
}

type toyShowOutcome struct {
	machines int
	cluster  string
	starts   []int64
}

func (o toyShowOutcome) Measure(model.Record) (model.Measured, error) {
	var makespan, sum int64
	for _, s := range o.starts {
		makespan = max(makespan, s+toyShowSeconds)
		sum += s + toyShowSeconds
	}
	return model.Measured{Values: []store.Value{store.Int64(makespan), store.Int64(sum)}}, nil
}

// Gantt draws each job on one machine; the chart picks which.
func (o toyShowOutcome) Gantt() model.Gantt {
	g := model.Gantt{Words: model.GanttWords{Bar: "job", Resource: "machine"},
		Groups: []model.GanttGroup{{Name: o.cluster, Resources: o.machines}}}
	for k, s := range o.starts {
		g.Jobs = append(g.Jobs, model.GanttJob{ID: fmt.Sprint("j", k), ArrivalTick: 0, FinishTick: s + toyShowSeconds, AloneTicks: toyShowSeconds})
		g.Bars = append(g.Bars, model.GanttBar{Job: k, Resources: 1, StartTick: s, FinishTick: s + toyShowSeconds})
	}
	return g
}

const toyShowManifest = `experiment: toyshow
seed: 1
platform: single:2
workloads:
  - {generator: toyshow/jobs, label: five, instances: 1, set: {jobs: "5"}}
policies: [toyshow-fill]
`

// TestToyShow: `sweep show` of a cell of a model registered only here
// prints its measures, equal to the stored row, and draws its Gantt chart
// from the toy's bars. 5 jobs of 6 s on 2 machines end at 6, 6, 12, 12,
// 18: makespan 18, sum 54. The chart is 1200 px over 18 s from x = 200
// (66.7 px a second), a machine a row of 18 px from y = 56: jobs j0, j2
// and j4 on machine 0 (the lowest free one) at x = 200, 600 and 1000, j1
// and j3 on machine 1 (y = 74), each 400 px wide.
func TestToyShow(t *testing.T) {
	reg := builtin.Registry()
	if err := reg.Register(toyShowModel{}); err != nil { // the one registration line
		t.Fatal(err)
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "toyshow.yaml")
	if err := os.WriteFile(manifest, []byte(toyShowManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"run", manifest, "--out", out}, &stdout, &stderr, reg); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	svg := filepath.Join(dir, "toy.svg")
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), []string{"show", out, "five/i000/L-/single:2/toyshow-fill", "--gantt", svg}, &stdout, &stderr, reg); code != 0 {
		t.Fatalf("show: exit %d: %s", code, stderr.String())
	}
	var got showOutput
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("show output %s: %v", stdout.String(), err)
	}
	if got.Model != "toyshow" || got.StoredRow != "equal: all 2 measures" || strings.Join(got.Metrics.names, " ") != "toyshow_makespan toyshow_sum_completion" ||
		got.Metrics.values[0].Any() != 18.0 || got.Metrics.values[1].Any() != 54.0 {
		t.Errorf("show: %+v; want the toy's makespan 18 and sum 54, equal to the stored row", got)
	}
	if want := ": 5 of 5 jobs in ticks 0-18 drawn"; !strings.Contains(stderr.String(), want) {
		t.Errorf("note %q; want %q", stderr.String(), want)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`x="200.0" y="56.0" width="400.0" height="18.0" fill="` + toyShowColour(0) + `"><title>job j0: 1 machine on c1, ticks 0-6</title>`,
		`x="200.0" y="74.0" width="400.0" height="18.0" fill="` + toyShowColour(1) + `"><title>job j1: 1 machine on c1, ticks 0-6</title>`,
		`x="600.0" y="56.0" width="400.0" height="18.0" fill="` + toyShowColour(2) + `"><title>job j2: 1 machine on c1, ticks 6-12</title>`,
		`x="600.0" y="74.0" width="400.0" height="18.0" fill="` + toyShowColour(3) + `"><title>job j3: 1 machine on c1, ticks 6-12</title>`,
		`x="1000.0" y="56.0" width="400.0" height="18.0" fill="` + toyShowColour(4) + `"><title>job j4: 1 machine on c1, ticks 12-18</title>`,
		">c1 machine 0</text>", ">machine 1</text>", "one row per machine; one bar per job",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the chart lacks %s", want)
		}
	}
	if n := strings.Count(string(data), `class="task"`); n != 5 {
		t.Errorf("%d bars; want 5", n)
	}
}

// toyShowColour is job j's colour in a chart without focus (report/gantt:
// hues a golden angle apart), read from a chart of TestShowRigidGantt.
func toyShowColour(j int) string {
	return []string{"#ce3b3b", "#6cda8c", "#762bab", "#cebc3b", "#6cc8da"}[j]
}
