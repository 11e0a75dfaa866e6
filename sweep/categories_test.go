package sweep

import (
	"testing"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// TestCellsStateManifestOrder checks that every cells part of a run lists
// small.yaml's workloads, platform and policies in the manifest's order
// (pslr, random, fairshare: not alphabetical), which pandas then reads as
// the Categorical's order.
func TestCellsStateManifestOrder(t *testing.T) {
	m := loadSmall(t)
	dir := t.TempDir()
	mustRun(t, m, RunOptions{Out: dir, Jobs: 2})
	parts, problems, err := parquet.ListParts(dir, table.Cells)
	if err != nil || len(problems) > 0 || len(parts) == 0 {
		t.Fatalf("cells parts: %d, problems %v, err %v", len(parts), problems, err)
	}
	want := `{"platform":["burkimsher2013"],"policy":["pslr","random","fairshare"],"workload":["fan-chain","logind"]}`
	for _, p := range parts {
		if got := p.Metadata[store.CategoriesKey]; got != want {
			t.Errorf("%s: %s %s, want %s", p.Path, store.CategoriesKey, got, want)
		}
	}
}
