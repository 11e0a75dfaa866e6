package sweep

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/toymodel"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

const toyManifest = `experiment: toy
seed: 1
platform: single:2
toy: {scale: 2}
workloads:
  - {generator: toy/jobs, instances: 2, set: {jobs: "5"}}
policies: [toy-spt]
`

// TestToyModel: a model of its own package (model/toymodel), registered
// only here, runs a manifest end to end: plan, run, the cells table with
// its measures, resume (nothing left to run) and a replay equal to the
// row. By hand, with scale 2 job k lasts 2(k+1) s; instance 0 is 5 jobs
// of 2, 4, 6, 8 and 10 s, shortest first on 2 machines: 2 and 4 start at
// 0, 6 at 2 (the machine free first), 8 at 4 and 10 at 8, so they end at
// 2, 4, 8, 12 and 18: makespan 18, sum 44. Instance 1 has a sixth job, of
// 12 s, which starts at 12 on the machine the 8 s job frees: makespan 24,
// sum 44 + 24 = 68.
func TestToyModel(t *testing.T) {
	reg := builtin.Registry()
	if err := reg.Register(toymodel.Model{}); err != nil { // the one registration line
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
	want := [][2]int64{{18, 44}, {24, 68}} // makespan and sum by instance
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
		inst := got.Columns[0].Int64s[i]
		if row := [2]int64{got.Columns[1].Int64s[i], got.Columns[2].Int64s[i]}; row != want[inst] {
			t.Errorf("instance %d: makespan and sum %v; want %v", inst, row, want[inst])
		}
	}
	cols := m.CellsSchema().Columns
	var names []string
	for _, c := range cols[len(table.CellHead()):] {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"toy_makespan", "toy_sum_completion", "toy_jobs"}) {
		t.Errorf("cells columns after the identity %v; want only the toy measures", names)
	}
	if again := mustRun(t, m, RunOptions{Out: dir, Jobs: 2}); again.Ran != 0 || again.AlreadyDone != 2 {
		t.Errorf("resume ran %d, found %d done; want 0 and 2", again.Ran, again.AlreadyDone)
	}
	cell := m.Cells()[1]
	r, err := m.Replay(context.Background(), cell)
	if err != nil {
		t.Fatal(err)
	}
	if v, w := r.Measured.Values, want[cell.Instance]; v[0].Any() != w[0] || v[1].Any() != w[1] || v[2].Any() != int64(5+cell.Instance) {
		t.Errorf("replay of %s: %v; want %v and %d jobs", cell.Name(), v, w, 5+cell.Instance)
	}

	// Without the registration, the manifest names an unknown section.
	if _, err := ParseManifest([]byte(toyManifest), "toy.yaml"); err == nil || !strings.Contains(err.Error(), "toy: unknown key") {
		t.Errorf("built-in models only: %v; want the toy section refused", err)
	}
	// A parameter the policy does not take is refused at plan time.
	bad := strings.Replace(toyManifest, "[toy-spt]", "[{name: toy-spt, params: {colour: red}}]", 1)
	if _, err := ParseManifest([]byte(bad), "toy.yaml", WithModels(reg)); err == nil || !strings.Contains(err.Error(), `policy "toy-spt" takes no parameters; got "colour"`) {
		t.Errorf("unknown parameter: %v", err)
	}
}
