package sweep

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
)

// TestRepairByLiveness: at the start of a run, what a killed run left is
// cleared at once, whatever its age, and what a live run (another shard)
// is writing is left alone: a dead writer's orphan jobs part is moved
// aside and its temporary part removed, with a half-written manifest
// copy; the live writer's orphan (its cells part comes a few
// milliseconds later) and temporary part stay. Before, both runs' files
// were judged by age: orphans younger than 10 s made the run sleep, and
// temporary parts younger than 24 h stayed (issue 35).
func TestRepairByLiveness(t *testing.T) {
	out := t.TempDir()
	files := []string{
		"jobs/part-dead-000001.parquet", "jobs/.tmp-part-dead-000002",
		"jobs/part-live-000001.parquet", "jobs/.tmp-part-live-000002",
		".manifest-abc123",
	}
	for _, f := range files {
		path := filepath.Join(out, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other, err := parquet.Admit(out)
	if err != nil {
		t.Fatal(err)
	}
	session, err := other.Join(parquet.Owner{Key: "k", Label: "another shard", Tags: []string{"live"}})
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	other.Release()

	a, err := parquet.Admit(out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := repair(out, &Plan{}, []string{"jobs"}, a); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, f := range append(files, "jobs/part-dead-000001.parquet.bad") {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			left = append(left, f)
		}
	}
	want := []string{"jobs/part-live-000001.parquet", "jobs/.tmp-part-live-000002", "jobs/part-dead-000001.parquet.bad"}
	if !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
}
