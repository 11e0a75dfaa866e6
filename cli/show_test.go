package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// TestShow runs the small test manifest with two replicates, then replays
// a cell of each replicate: the metrics must equal the stored rows
// exactly, and the Gantt chart must account for every task of the cell's
// workload (the sum of the tasks column of its job rows): one bar per
// task drawn, plus the ones the chart says it elided.
func TestShow(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", "../sweep/testdata/small.yaml", "--out", out, "-j", "2", "--replicates", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	cells, _, _, err := analysis.ReadCells(out, analysis.MeasuresOf(builtin.Registry().Models()...))
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := parquet.ReadColumns(out, table.Jobs, []string{table.CellID, table.JobTasks})
	if err != nil {
		t.Fatal(err)
	}
	tasks := map[string]int64{}
	for i := range jobs.Rows {
		tasks[jobs.Columns[0].Strings[i]] += jobs.Columns[1].Int64s[i]
	}
	shown := 0
	for _, c := range cells {
		// One random-policy cell of each replicate: its policy seed
		// derives from the whole cell, so it is the hardest to replay.
		if c.Policy != "random" || c.Load != 1.2 || c.Instance != 1 || c.Workload != "fan-chain" {
			continue
		}
		shown++
		svg := filepath.Join(t.TempDir(), "cell.svg")
		stdout.Reset()
		stderr.Reset()
		if code := run(context.Background(), []string{"show", out, c.ID, "--gantt", svg}, &stdout, &stderr); code != 0 {
			t.Fatalf("show %s: exit %d: %s", c.ID, code, stderr.String())
		}
		var got showOutput
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("show output %s: %v", stdout.String(), err)
		}
		if got.Cell != c.ID || !strings.HasPrefix(got.StoredRow, "equal: all") {
			t.Errorf("replicate %d: %+v; want cell %s equal to its stored row", c.Replicate, got, c.ID)
		}
		if c.Replicate == 1 && !strings.HasSuffix(got.Name, "/r1") {
			t.Errorf("replicate 1 cell named %q; want a /r1 suffix", got.Name)
		}
		note := regexp.MustCompile(`: (\d+) of (\d+) tasks in ticks \d+-\d+ drawn(; (\d+) elided)?`).FindStringSubmatch(stderr.String())
		if note == nil {
			t.Fatalf("no gantt note in %q", stderr.String())
		}
		drawn, _ := strconv.Atoi(note[1])
		total, _ := strconv.ParseInt(note[2], 10, 64)
		data, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		if bars := strings.Count(string(data), `class="task"`); bars != drawn || total != tasks[c.ID] {
			t.Errorf("replicate %d: %d bars, note %q; want %d bars of %d tasks", c.Replicate, bars, note[0], drawn, tasks[c.ID])
		}
		// By name, the same cell.
		stdout.Reset()
		name := got.Name
		if code := run(context.Background(), []string{"show", out, name}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), c.ID) {
			t.Errorf("show by name %s: exit %d, %s", name, code, stdout.String())
		}
	}
	if shown != 2 {
		t.Fatalf("showed %d cells; want one per replicate", shown)
	}

	// The report links each policy's worst cell to its chart.
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"report", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Across 2 replicates") {
		t.Error("report lacks the section across replicates")
	}
	for _, policy := range []string{"pslr", "random", "fairshare"} {
		file := "gantt-" + policy + ".svg"
		if !strings.Contains(string(page), `<a href="`+file+`">`) {
			t.Errorf("report does not link %s", file)
		}
		if data, err := os.ReadFile(filepath.Join(out, "report", file)); err != nil || !strings.Contains(string(data), `<rect class="task"`) {
			t.Errorf("%s: %v, or no task bar", file, err)
		}
	}

	stderr.Reset()
	if code := run(context.Background(), []string{"show", out, "nosuchcell"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `no cell "nosuchcell"`) {
		t.Errorf("unknown cell: exit %d, %q", code, stderr.String())
	}
}

// TestDifferences: a replay that differs from its row is reported by
// measure; NaN equals NaN (an undefined SD stored as NaN), and timing
// measures are not compared.
func TestDifferences(t *testing.T) {
	ms := []table.Measure{{Name: "makespan", Integer: true}, {Name: "slr_sd"}, {Name: "run_seconds", Timing: true}}
	got := []store.Value{store.Int64(7), store.Float64(math.NaN()), store.Float64(0.5)}
	same := []store.Value{store.Int64(7), store.Float64(math.NaN()), store.Float64(0.25)}
	if d := differences(ms, got, same); len(d) != 0 {
		t.Errorf("identical but for timing: %v", d)
	}
	other := []store.Value{store.Int64(8), store.Float64(math.NaN()), store.Float64(0.5)}
	if d := differences(ms, got, other); len(d) != 1 || d[0] != "makespan 7, stored 8" {
		t.Errorf("makespan changed: %v", d)
	}
}

// TestShowCampaignTrace: the results directory's copy of the manifest
// names the original's path, from whose folder the copy's trace path is
// taken (it used to be taken from the results folder, and show failed
// without --manifest); with the copy or with --manifest, the trace cell
// replays and equals its stored row.
func TestShowCampaignTrace(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	manifest := "../sweep/testdata/campaigns.yaml"
	if code := run(context.Background(), []string{"run", manifest, "--out", out, "-j", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	cell := "head/i000/L-/single:8/log"
	stderr.Reset()
	if code := run(context.Background(), []string{"show", out, cell}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), `"stored_row": "equal: all`) {
		t.Errorf("show with the copy: exit %d, %s %s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"show", out, cell, "--manifest", manifest}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), `"stored_row": "equal: all`) {
		t.Errorf("show --manifest: exit %d, %s %s", code, stdout.String(), stderr.String())
	}
}

// TestShowEveryModel: show replays a cell of the moldable and the rigid
// model too (TestShow and TestShowCampaignTrace replay grid and campaign
// cells) and finds it equal to its stored row: the moldable cell on all
// its measures but the algorithm's run time (a wall-clock timing), the
// rigid cell on all 21 fair-share measures.
func TestShowEveryModel(t *testing.T) {
	tests := []struct{ manifest, cell, model, want string }{
		{"../sweep/testdata/moldable.yaml", "high-n12/i001/L-/single:16/DEMT", "moldable", "equal: all 7 measures"},
		{"../sweep/testdata/fairshare-tiny.yaml", "tiny-T/1970-01/single:4/fcfs-easy", "rigid", "equal: all 21 measures"},
	}
	for _, tt := range tests {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", tt.manifest, "--out", out, "-j", "2"}, &stdout, &stderr); code != 0 {
			t.Fatalf("run %s: exit %d: %s", tt.manifest, code, stderr.String())
		}
		stdout.Reset()
		if code := run(context.Background(), []string{"show", out, tt.cell}, &stdout, &stderr); code != 0 {
			t.Fatalf("show %s: exit %d: %s", tt.cell, code, stderr.String())
		}
		var got showOutput
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("show output %s: %v", stdout.String(), err)
		}
		if got.Name != tt.cell || got.Model != tt.model || got.StoredRow != tt.want {
			t.Errorf("show %s: %+v; want model %s, %q", tt.cell, got, tt.model, tt.want)
		}
		stderr.Reset()
		if code := run(context.Background(), []string{"show", out, tt.cell, "--gantt", filepath.Join(t.TempDir(), "g.svg")}, &stdout, &stderr); code != 2 ||
			!strings.Contains(stderr.String(), "has no Gantt chart yet") {
			t.Errorf("show --gantt of a %s cell: exit %d, %q; want exit 2 saying there is no chart", tt.model, code, stderr.String())
		}
	}
}
