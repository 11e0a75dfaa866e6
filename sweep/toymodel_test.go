package sweep

import (
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
)

// toyModel is a model that exists only in this test: n identical jobs of
// `size` seconds each on a single:m platform, all at time 0, under "lpt" or
// "spt" (both give the same makespan, ceil(n/m) x size, and a sum of
// completion times that is easy to count by hand). It proves a model
// needs nothing outside its own package but one registration line: the
// runner plans, runs, resumes and replays it without knowing it.
type toyModel struct{}

func (toyModel) Name() string    { return "toy" }
func (toyModel) Doc() string     { return "identical jobs on identical machines" }
func (toyModel) Version() string { return "1" }
func (toyModel) Section() string { return "toy" }
func (toyModel) UsesLoads() bool { return false }
func (toyModel) Policies() []model.Policy {
	return []model.Policy{{Name: "toy-fill", Doc: "fill the machines in order", Params: []model.Param{{Name: "size", Doc: "seconds per job", Default: "3"}}}}
}
func (toyModel) Generators() []string { return []string{"toy/jobs"} }
func (toyModel) Takes(w *model.WorkloadSpec) bool {
	return w.Generator == "toy/jobs"
}
func (toyModel) Measures() []table.Measure {
	return []table.Measure{{Name: "toy_makespan", Integer: true, Better: table.LowerIsBetter}, {Name: "toy_sum_completion", Integer: true, Better: table.LowerIsBetter}}
}
func (toyModel) Tables(model.Record) []store.Schema { return nil }

type toySettings struct{ scale int }

func (s toySettings) Canonical() string { return fmt.Sprintf("scale=%d", s.scale) }

func (toyModel) ParseSettings(section *yaml.Node) (model.Settings, error) {
	s := struct {
		Scale int `yaml:"scale"`
	}{Scale: 1}
	if section != nil {
		if err := section.Decode(&s); err != nil {
			return nil, err
		}
	}
	return toySettings{s.Scale}, nil
}

func (toyModel) NewSource(w *model.WorkloadSpec, _ model.Env) (model.Source, error) {
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	n := 0
	if _, err := fmt.Sscan(w.Set["jobs"], &n); err != nil || n < 1 {
		return nil, fmt.Errorf("set: jobs %q; want a count >= 1", w.Set["jobs"])
	}
	return toySource{jobs: n}, nil
}

type toySource struct{ jobs int }

func (s toySource) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d jobs)", label, s.jobs)
}
func (toySource) Report() string        { return "" }
func (toySource) Allows(p string) error { return nil }
func (toySource) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("toy jobs want one cluster, not %s", name)
	}
	return nil
}
func (s toySource) Groups(ax model.Axes) [][]model.Cell {
	var groups [][]model.Cell
	for inst := range ax.Instances {
		groups = append(groups, model.InstanceCells(ax, "1", fmt.Sprint("toy jobs=", s.jobs), ax.Settings.Canonical(), inst, [2]uint64{uint64(inst), 0}))
	}
	return groups
}
func (s toySource) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	return toyPrepared{jobs: s.jobs, machines: env.Platforms[c.Platform].TotalCores(), scale: env.Settings.(toySettings).scale}, nil
}

type toyPrepared struct{ jobs, machines, scale int }

// Simulate fills the machines in order: job k starts at (k / m) x size
// and ends size seconds later.
func (p toyPrepared) Simulate(_ context.Context, c model.Cell) (model.Outcome, error) {
	size := 3 * p.scale
	var makespan, sum int64
	for k := range p.jobs {
		end := int64((k/p.machines)*size + size)
		makespan = max(makespan, end)
		sum += end
	}
	return toyOutcome{makespan, sum}, nil
}

type toyOutcome struct{ makespan, sum int64 }

func (o toyOutcome) Measure(model.Record) (model.Measured, error) {
	return model.Measured{Values: []store.Value{store.Int64(o.makespan), store.Int64(o.sum)}}, nil
}

const toyManifest = `experiment: toy
seed: 1
platform: single:2
toy: {scale: 2}
workloads:
  - {generator: toy/jobs, instances: 2, set: {jobs: "5"}}
policies: [toy-fill]
`

// TestToyModel: a model registered only here runs a manifest end to end:
// plan, run, the cells table with its measures, resume (nothing left to
// run) and a replay equal to the row. 5 jobs of 6 s on 2 machines end at
// 6, 6, 12, 12, 18: makespan 18, sum 54.
func TestToyModel(t *testing.T) {
	reg := builtin.Registry()
	if err := reg.Register(toyModel{}); err != nil { // the one registration line
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "toy.yaml")
	if err := os.WriteFile(path, []byte(toyManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadManifest(path, WithModels(reg))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum := mustRun(t, m, RunOptions{Out: dir, Jobs: 2})
	if sum.Ran != 2 || sum.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 2 cells, none failed", sum.Ran, sum.Failed)
	}
	got, _, err := parquet.ReadColumns(dir, table.Cells, []string{table.Instance, "toy_makespan", "toy_sum_completion"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows != 2 {
		t.Fatalf("%d cells rows; want 2", got.Rows)
	}
	for i := range got.Rows {
		if ms, s := got.Columns[1].Int64s[i], got.Columns[2].Int64s[i]; ms != 18 || s != 54 {
			t.Errorf("instance %d: makespan %d, sum %d; want 18, 54", got.Columns[0].Int64s[i], ms, s)
		}
	}
	cols := m.CellsSchema().Columns
	if names := []string{cols[len(cols)-2].Name, cols[len(cols)-1].Name}; !slices.Equal(names, []string{"toy_makespan", "toy_sum_completion"}) || len(cols) != len(table.CellHead())+2 {
		t.Errorf("cells columns end with %v, %d in all; want only the toy measures after the identity", names, len(cols))
	}
	if again := mustRun(t, m, RunOptions{Out: dir, Jobs: 2}); again.Ran != 0 || again.AlreadyDone != 2 {
		t.Errorf("resume ran %d, found %d done; want 0 and 2", again.Ran, again.AlreadyDone)
	}
	r, err := m.Replay(context.Background(), m.Cells()[1])
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Measured.Values; v[0].Any() != int64(18) || v[1].Any() != int64(54) {
		t.Errorf("replay %v; want 18, 54", v)
	}

	// Without the registration, the manifest names an unknown section.
	if _, err := ParseManifest([]byte(toyManifest), "toy.yaml"); err == nil || !strings.Contains(err.Error(), "toy: unknown key") {
		t.Errorf("built-in models only: %v; want the toy section refused", err)
	}
	// A parameter the policy does not take is refused at plan time.
	bad := strings.Replace(toyManifest, "[toy-fill]", "[{name: toy-fill, params: {colour: red}}]", 1)
	if _, err := ParseManifest([]byte(bad), "toy.yaml", WithModels(reg)); err == nil || !strings.Contains(err.Error(), `policy "toy-fill" takes no parameter "colour"; valid parameters: size`) {
		t.Errorf("unknown parameter: %v", err)
	}
}
