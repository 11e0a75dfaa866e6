package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/studies"
)

// toyModel is a model that exists only in this test, with measures of its
// own and no study: instance i is n = i + 2 jobs of 1, 2, ..., n seconds,
// all at time 0, list-scheduled on the machines of a single:m platform
// (each job on the machine free first, the lowest-numbered on a tie) in
// order of size, shortest first (toy-spt) or longest first (toy-lpt).
// It proves that `sweep analyze` and `sweep report` compare a new model's
// measures with nothing outside the model's package but its registration.
type toyModel struct{}

func (toyModel) Name() string    { return "toy" }
func (toyModel) Doc() string     { return "jobs of sizes 1..n on identical machines" }
func (toyModel) Version() string { return "1" }
func (toyModel) Section() string { return "" }
func (toyModel) UsesLoads() bool { return false }
func (toyModel) Policies() []model.Policy {
	return []model.Policy{{Name: "toy-spt", Doc: "shortest job first"}, {Name: "toy-lpt", Doc: "longest job first"}}
}
func (toyModel) Generators() []string                             { return []string{"toy/sizes"} }
func (toyModel) Takes(w *model.WorkloadSpec) bool                 { return w.Generator == "toy/sizes" }
func (toyModel) Tables(model.Record) []store.Schema               { return nil }
func (toyModel) ParseSettings(*yaml.Node) (model.Settings, error) { return toySettings{}, nil }
func (toyModel) Measures() []table.Measure {
	return []table.Measure{
		{Name: "toy_makespan", Integer: true, Unit: "seconds", Better: table.LowerIsBetter, Doc: "the last end"},
		{Name: "toy_sum_completion", Integer: true, Unit: "seconds", Better: table.LowerIsBetter, Doc: "the sum of the ends"},
		{Name: "toy_jobs", Integer: true, Unit: "jobs", Doc: "jobs of the instance"},
	}
}

// Figures asks the report for the sum's boxes and the makespan's means.
func (toyModel) Figures() []model.Figure {
	return []model.Figure{
		{Kind: model.BoxByPolicy, Measure: "toy_sum_completion"},
		{Kind: model.MeanByLoad, Measure: "toy_makespan", Title: "toy makespan by load"},
	}
}

func (toyModel) NewSource(w *model.WorkloadSpec, _ model.Env) (model.Source, error) {
	return toySource{}, w.CheckOptions()
}

type toySettings struct{}

func (toySettings) Canonical() string { return "" }

type toySource struct{}

func (toySource) Describe(label string, instances int) string { return label }
func (toySource) Report() string                              { return "" }
func (toySource) Allows(string) error                         { return nil }
func (toySource) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("toy jobs want one cluster, not %s", name)
	}
	return nil
}
func (toySource) Groups(ax model.Axes) [][]model.Cell {
	var groups [][]model.Cell
	for i := range ax.Instances {
		groups = append(groups, model.InstanceCells(ax, "1", "toy sizes", "", i, [2]uint64{uint64(i), 0}))
	}
	return groups
}
func (toySource) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	return toyPrepared{jobs: c.Instance + 2, machines: env.Platforms[c.Platform].TotalCores()}, nil
}

type toyPrepared struct{ jobs, machines int }

func (p toyPrepared) Simulate(_ context.Context, c model.Cell) (model.Outcome, error) {
	sizes := make([]int64, p.jobs)
	for k := range sizes {
		sizes[k] = int64(k + 1)
	}
	if c.Policy == "toy-lpt" {
		slices.Reverse(sizes)
	}
	free := make([]int64, p.machines)
	var makespan, sum int64
	for _, size := range sizes {
		m := slices.Index(free, slices.Min(free))
		free[m] += size
		makespan = max(makespan, free[m])
		sum += free[m]
	}
	return toyOutcome{makespan, sum, int64(p.jobs)}, nil
}

type toyOutcome struct{ makespan, sum, jobs int64 }

func (o toyOutcome) Measure(model.Record) (model.Measured, error) {
	return model.Measured{Values: []store.Value{store.Int64(o.makespan), store.Int64(o.sum), store.Int64(o.jobs)}}, nil
}

const toyManifest = `experiment: toy
seed: 1
platform: single:2
workloads:
  - {generator: toy/sizes, instances: 4}
policies: [toy-spt, toy-lpt]
`

// TestToyModel: a model registered only here runs, analyses and reports
// with the built-in studies, none of which is its: `sweep analyze` writes
// and prints the paired tables of its ranked measures against its first
// policy, `sweep report` a page with the figures it asks for. By hand (2 machines): n = 2, 3, 4, 5 jobs
// give makespans 2, 4, 6, 9 shortest first and 2, 3, 5, 8 longest first
// (e.g. n = 3 longest first: 3 on one machine, 2 then 1 on the other, all
// done at 3), sums of ends 3, 7, 13, 22 and 3, 8, 17, 31. So toy-spt is
// at least as good as toy-lpt in 1 of 4 pairs on makespan (25%) and 4 of
// 4 on the sum (100%); mean makespans 5.25 and 4.5, mean sums 11.25 and
// 14.75 (printed to three digits).
func TestToyModel(t *testing.T) {
	reg := builtin.Registry()
	if err := reg.Register(toyModel{}); err != nil { // the one registration line
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "toy.yaml")
	if err := os.WriteFile(path, []byte(toyManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sweep := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, &stdout, &stderr, reg, studies.Builtin()...); code != 0 {
			t.Fatalf("sweep %s: exit %d: %s", args[0], code, stderr.String())
		}
		return stdout.String()
	}
	sweep("run", path, "--out", out)

	text := sweep("analyze", out)
	for _, want := range []string{
		"Dominance over the last end (toy_makespan): % of pairs where toy-spt is at least as good",
		"Dominance over the sum of the ends (toy_sum_completion)",
		"mean toy_makespan (seconds, lower is better) by load",
		"toy-spt  5.25 ± 4.75", "toy-lpt  4.50 ± 4.21", "toy-spt  11.2 ± 13.1", "toy-lpt  14.8 ± 19.5",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("sweep analyze lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "toy_jobs") {
		t.Errorf("sweep analyze compares the descriptive toy_jobs:\n%s", text)
	}
	dominance, err := parquet.ReadPart(filepath.Join(out, "analysis", "dominance.parquet"), []string{"metric", "policy", "n", "dominance_pct"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for i := range dominance.Rows {
		if n := dominance.Columns[2].Int64s[i]; n != 4 {
			t.Errorf("dominance row %d: %d pairs; want 4", i, n)
		}
		got[dominance.Columns[0].Strings[i]+"/"+dominance.Columns[1].Strings[i]] = dominance.Columns[3].Float64s[i]
	}
	if want := map[string]float64{"toy_makespan/toy-lpt": 25, "toy_sum_completion/toy-lpt": 100}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("dominance.parquet %v; want %v", got, want)
	}

	if wrote := sweep("report", out); !strings.Contains(wrote, "index.html") {
		t.Errorf("sweep report wrote %q; want the page", wrote)
	}
	page, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"toy_sum_completion by policy", "toy makespan by load", "Measures by policy", "Dominance over the last end"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report page lacks %q", want)
		}
	}
	if bytes.Contains(page, []byte("toy_makespan by policy")) {
		t.Error("report page has a figure the model did not ask for")
	}
}
