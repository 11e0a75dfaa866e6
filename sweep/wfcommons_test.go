package sweep

import (
	"testing"

	"github.com/sweep-sched/sweep/gen/wfcommons"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// TestWfCommonsSource: a manifest draws streams of WfCommons workflows as
// grid jobs; each cell's jobs and volume equal those of the stream the
// generator draws directly for its instance (with the manifest's root seed
// and parameters), and every policy of an instance sees the same stream.
func TestWfCommonsSource(t *testing.T) {
	m := loadTestManifest(t, "testdata/wfcommons.yaml")
	dir := t.TempDir()
	if sum := mustRun(t, m, RunOptions{Out: dir, Jobs: 2}); sum.Ran != 6 || sum.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 6 cells, none failed", sum.Ran, sum.Failed)
	}
	src, err := wfcommons.LoadSource("../gen/wfcommons/testdata")
	if err != nil {
		t.Fatal(err)
	}
	params := wfcommons.Defaults()
	if err := params.SetAll([]string{"jobs=12", "ticks-per-second=10"}); err != nil {
		t.Fatal(err)
	}
	var want [2]int64
	for inst := range want {
		w, err := wfcommons.Generate(params, src, ReplicateSeed(m.Seed, 0), inst)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range w.Jobs {
			want[inst] += j.Volume()
		}
	}
	if want[0] == want[1] {
		t.Fatalf("instances 0 and 1 drew the same volume %d; the test needs different streams", want[0])
	}
	got, _, err := parquet.ReadColumns(dir, table.Cells, []string{table.Instance, table.Policy, "jobs", "volume_total"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Rows {
		inst := got.Columns[0].Int64s[i]
		if jobs, volume := got.Columns[2].Int64s[i], got.Columns[3].Int64s[i]; jobs != 12 || volume != want[inst] {
			t.Errorf("instance %d under %s: %d jobs, volume %d; want 12 jobs, volume %d", inst, got.Columns[1].Strings[i], jobs, volume, want[inst])
		}
	}
}
