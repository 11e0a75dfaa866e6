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
// rigid cell on all 21 fair-share measures. The rigid cell has a Gantt
// chart (TestShowRigidGantt); the moldable one none yet.
func TestShowEveryModel(t *testing.T) {
	tests := []struct {
		manifest, cell, model, want string
		chart                       bool
	}{
		{"../sweep/testdata/moldable.yaml", "high-n12/i001/L-/single:16/DEMT", "moldable", "equal: all 7 measures", false},
		{"../sweep/testdata/fairshare-tiny.yaml", "tiny-T/1970-01/single:4/fcfs-easy", "rigid", "equal: all 32 measures", true},
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
		code := run(context.Background(), []string{"show", out, tt.cell, "--gantt", filepath.Join(t.TempDir(), "g.svg")}, &stdout, &stderr)
		switch {
		case tt.chart && code != 0:
			t.Errorf("show --gantt of a %s cell: exit %d, %q; want a chart", tt.model, code, stderr.String())
		case !tt.chart && (code != 2 || !strings.Contains(stderr.String(), "has no Gantt chart yet")):
			t.Errorf("show --gantt of a %s cell: exit %d, %q; want exit 2 saying there is no chart", tt.model, code, stderr.String())
		}
	}
}

// contiguityManifest is the manifest of sweep.TestNamedPolicyVariants:
// the hand-made trace of contiguity (sweep/testdata/contiguity.swf.txt: 4
// processors, jobs 1-4 on one each from 0 s, jobs 2 and 4 ending at 2 s,
// job 5 on 2 processors submitted at 2 s) under fcfs-easy, which counts
// processors, and under its variant with contiguous placement.
const contiguityManifest = `experiment: variants
seed: 1
platform: single:4
workloads:
  - {trace: contiguity.swf.txt, label: contiguity, months: {from: 1970-01, to: 1970-01}, estimates: [R]}
policies: [fcfs-easy, {name: easy-contiguous, policy: fcfs-easy, params: {placement: contiguous, pass: per-event}}]
`

// TestShowRigidGantt draws the two rigid cells of contiguityManifest: one
// bar per job, over processors, one 18 px row each from y = 56, from x =
// 200 over 1200 px. Counting processors, job 5 starts at 2 s (the chart
// gives jobs 1-4 processors 0-3, lowest first, and job 5 the free 1 and
// 3: one path of two pieces, y = 74 and 110); 120 px a second over the 10
// s schedule. With contiguous placement the simulator names the block:
// job 5 waits for two adjacent processors until 10 s and runs on 0-1 (y =
// 56, 36 px high); 80 px a second over 15 s.
func TestShowRigidGantt(t *testing.T) {
	dir := t.TempDir()
	trace, err := os.ReadFile("../sweep/testdata/contiguity.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "contiguity.swf.txt"), trace, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(contiguityManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", filepath.Join(dir, "m.yaml"), "--out", out, "-j", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	for policy, bars := range map[string][]string{
		"fcfs-easy": {
			`x="200.0" y="56.0" width="1200.0" height="18.0" fill="#ce3b3b"><title>job 1: 1 processor on c1, ticks 0-10</title>`,
			`x="200.0" y="74.0" width="240.0" height="18.0" fill="#6cda8c"><title>job 2: 1 processor on c1, ticks 0-2</title>`,
			`x="200.0" y="92.0" width="1200.0" height="18.0" fill="#762bab"><title>job 3: 1 processor on c1, ticks 0-10</title>`,
			`x="200.0" y="110.0" width="240.0" height="18.0" fill="#cebc3b"><title>job 4: 1 processor on c1, ticks 0-2</title>`,
			`d="M440.0 74.00h600.0v18.00h-600.0zM440.0 110.00h600.0v18.00h-600.0z"><title>job 5: 2 processors on c1, ticks 2-7</title>`,
		},
		"easy-contiguous": {
			`x="200.0" y="56.0" width="800.0" height="18.0" fill="#ce3b3b"><title>job 1: 1 processor on c1, ticks 0-10</title>`,
			`x="200.0" y="74.0" width="160.0" height="18.0" fill="#6cda8c"><title>job 2: 1 processor on c1, ticks 0-2</title>`,
			`x="200.0" y="92.0" width="800.0" height="18.0" fill="#762bab"><title>job 3: 1 processor on c1, ticks 0-10</title>`,
			`x="200.0" y="110.0" width="160.0" height="18.0" fill="#cebc3b"><title>job 4: 1 processor on c1, ticks 0-2</title>`,
			`x="1000.0" y="56.0" width="400.0" height="36.0" fill="#6cc8da"><title>job 5: 2 processors on c1, ticks 10-15</title>`,
		},
	} {
		svg := filepath.Join(dir, policy+".svg")
		stderr.Reset()
		if code := run(context.Background(), []string{"show", out, "contiguity-R/1970-01/single:4/" + policy, "--gantt", svg}, &stdout, &stderr); code != 0 {
			t.Fatalf("show %s: exit %d: %s", policy, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), ": 5 of 5 jobs in ticks 0-") {
			t.Errorf("%s: note %q; want 5 of 5 jobs drawn", policy, stderr.String())
		}
		data, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), `class="task"`); n != len(bars) {
			t.Errorf("%s: %d bars; want %d", policy, n, len(bars))
		}
		for _, bar := range bars {
			if !strings.Contains(string(data), bar) {
				t.Errorf("%s: no bar %s", policy, bar)
			}
		}
	}
}
