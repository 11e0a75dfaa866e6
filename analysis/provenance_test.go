package analysis

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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
	if p.CPUSessions != 0 || p.cpuText() != "CPU not recorded (a run before sweep recorded it)" {
		t.Errorf("%d sessions with CPU, %q; want none", p.CPUSessions, p.cpuText())
	}
	// Two of the three sessions recorded their CPU time (the third was
	// killed, say): sweep 3.25 + 1.5 s, child processes 10 + 0.5 s.
	if err := os.MkdirAll(filepath.Join(dir, table.CPUDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"s1.json": `{"run_started":"2026-01-02T03:04:05Z","shard":"all","sweep_cpu_seconds":3.25,"children_cpu_seconds":10}`,
		"s2.json": `{"run_started":"2026-01-02T04:04:05Z","shard":"all","sweep_cpu_seconds":1.5,"children_cpu_seconds":0.5}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, table.CPUDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if p, err = ReadProvenance(dir, planned, ""); err != nil {
		t.Fatal(err)
	}
	if want := "CPU 15s (sweep 5s + child processes 11s, recorded by 2 of the 3 sessions)"; p.cpuText() != want {
		t.Errorf("CPU %q; want %q", p.cpuText(), want)
	}
	if inc := p.Incomplete(); len(inc) != 1 || inc[0].Workload != "b" {
		t.Errorf("incomplete %+v, want b alone", inc)
	}
	md := p.Metadata()
	for k, v := range map[string]string{"provenance.cells_done": "4", "provenance.cells_planned": "5", "provenance.cells_failed": "1",
		"provenance.run_wall_seconds": "140.000", "provenance.run_cpu_seconds": "11.500", "provenance.run_cores": "3",
		"provenance.run_sweep_cpu_seconds": "4.750", "provenance.run_child_cpu_seconds": "10.500",
		"provenance.experiment": "x", "provenance.sweep_version": "v1", "provenance.partial": "false"} {
		if md[k] != v {
			t.Errorf("metadata %s = %q, want %q", k, md[k], v)
		}
	}
}

// TestCoveredSeconds: the wall time is the length of the union of the
// sessions' spans (start to last part file), computed by hand for each
// case.
func TestCoveredSeconds(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	span := func(from, to int) *runSession {
		return &runSession{start: t0.Add(time.Duration(from) * time.Second), last: t0.Add(time.Duration(to) * time.Second)}
	}
	tests := []struct {
		name  string
		spans []*runSession
		want  float64
	}{
		{"no session", nil, 0},
		{"one run", []*runSession{span(0, 90)}, 90},
		{"a run and a resume an hour later", []*runSession{span(3600, 3630), span(0, 90)}, 120},
		{"two shards overlapping: [3600, 3650]", []*runSession{span(3600, 3630), span(3610, 3650)}, 50},
		{"a shard within another", []*runSession{span(0, 100), span(10, 50)}, 100},
		{"two shards started together", []*runSession{span(0, 60), span(0, 30)}, 60},
		{"last part before the start (clock skew): nothing", []*runSession{span(100, 90)}, 0},
	}
	for _, tc := range tests {
		sessions := map[string]*runSession{}
		for i, s := range tc.spans {
			sessions[strconv.Itoa(i)] = s
		}
		if got := coveredSeconds(sessions); got != tc.want {
			t.Errorf("%s: %v s, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWorkloadProgress: without a plan every cell with a row counts
// under its workload, in the order the workloads' cells first appear; a
// cell is done when any of its rows is ok (a retried failure), failed
// when its rows are all failed.
func TestWorkloadProgress(t *testing.T) {
	c := cellStatuses{
		status:     map[string]string{"b0": "ok", "a0": "failed", "a1": "ok", "b1": "failed", "b2": "ok"},
		workloadOf: map[string]string{"b0": "b", "a0": "a", "a1": "a", "b1": "b", "b2": "b"},
		order:      []string{"b", "a"},
	}
	want := []WorkloadProgress{{"b", 2, 1, 0}, {"a", 1, 1, 0}}
	if got := c.progress(); !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	// With a plan, only the planned cells count, in the plan's order.
	planned := []PlannedCell{{"a0", "a"}, {"a1", "a"}, {"a2", "a"}, {"c0", "c"}, {"b0", "b"}}
	want = []WorkloadProgress{{"a", 1, 1, 3}, {"c", 0, 0, 1}, {"b", 1, 0, 1}}
	if got := c.plannedProgress(planned); !reflect.DeepEqual(got, want) {
		t.Errorf("planned: %+v, want %+v", got, want)
	}
}
