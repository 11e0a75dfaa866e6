package analysis

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// TestReadProvenance: three sessions of one run (a first run; an hour
// later a resume on 3 workers and, 10 s after it, a shard beside it)
// wrote cells of two workloads; the manifest plans 3 cells of "a" and 2
// of "b". Hand-computed: "a" has 3 done (a1 failed first, then ok on
// resume) of 3, "b" 1 done and 1 failed of 2; wall time 90 s, then
// [3600 s, 3630 s] and [3610 s, 3650 s] covering 50 s: 140 s; CPU time
// the cells' 1.5 + 2.5 + 0.5 + 4 + 1 + 2 s, 3 cores.
func TestReadProvenance(t *testing.T) {
	dir := t.TempDir()
	schema := store.Schema{Table: table.Cells, Columns: []store.Column{
		{Name: table.CellID, Type: store.TypeString}, {Name: table.Workload, Type: store.TypeString},
		{Name: table.Status, Type: store.TypeString}, {Name: table.WallMS, Type: store.TypeInt64},
	}}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(tag string, started time.Time, workers string, took time.Duration, rows [][]any) {
		md := map[string]string{table.RunStartedKey: started.Format(time.RFC3339Nano), table.WorkersKey: workers,
			"sweep.experiment": "x", "sweep.tool_version": "v1", "sweep.model_version": "grid=1"}
		w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: tag, Metadata: md})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if err := w.Append(store.Row{store.String(r[0].(string)), store.String(r[1].(string)), store.String(r[2].(string)), store.Int64(int64(r[3].(int)))}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		parts, _ := filepath.Glob(filepath.Join(dir, table.Cells, "part-"+tag+"*.parquet"))
		for _, p := range parts {
			if err := os.Chtimes(p, started.Add(took), started.Add(took)); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("s1", start, "2", 90*time.Second, [][]any{{"a0", "a", "ok", 1500}, {"a1", "a", "failed", 2500}, {"b0", "b", "ok", 500}})
	write("s2", start.Add(time.Hour), "3", 30*time.Second, [][]any{{"a1", "a", "ok", 4000}, {"b1", "b", "failed", 1000}})
	write("s3", start.Add(time.Hour+10*time.Second), "1", 40*time.Second, [][]any{{"a2", "a", "ok", 2000}})
	planned := []PlannedCell{{"a0", "a"}, {"a1", "a"}, {"a2", "a"}, {"b0", "b"}, {"b1", "b"}}
	p, err := ReadProvenance(dir, planned, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []WorkloadProgress{{"a", 3, 0, 3}, {"b", 1, 1, 2}}
	if len(p.Workloads) != 2 || p.Workloads[0] != want[0] || p.Workloads[1] != want[1] {
		t.Errorf("workloads %+v, want %+v", p.Workloads, want)
	}
	if p.WallSeconds != 140 || p.CellSeconds != 11.5 || p.Workers != 3 || p.Sessions != 3 {
		t.Errorf("wall %v s, CPU %v s, %d cores, %d sessions; want 140, 11.5, 3, 3", p.WallSeconds, p.CellSeconds, p.Workers, p.Sessions)
	}
	if inc := p.Incomplete(); len(inc) != 1 || inc[0].Workload != "b" {
		t.Errorf("incomplete %+v, want b alone", inc)
	}
	md := p.Metadata()
	for k, v := range map[string]string{"provenance.cells_done": "4", "provenance.cells_planned": "5", "provenance.cells_failed": "1",
		"provenance.run_wall_seconds": "140.000", "provenance.run_cpu_seconds": "11.500", "provenance.run_cores": "3",
		"provenance.experiment": "x", "provenance.sweep_version": "v1", "provenance.partial": "false"} {
		if md[k] != v {
			t.Errorf("metadata %s = %q, want %q", k, md[k], v)
		}
	}
}
