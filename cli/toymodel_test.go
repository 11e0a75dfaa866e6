package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/toymodel"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/studies"
)

// toyManifest is instances 0 to 3 of the toy (model/toymodel): n = 2, 3,
// 4 and 5 jobs of 1, 2, ..., n seconds on 2 machines, under both its
// policies.
const toyManifest = `experiment: toy
seed: 1
platform: single:2
workloads:
  - {generator: toy/jobs, label: sizes, instances: 4, set: {jobs: "2"}}
policies: [toy-spt, toy-lpt]
`

// TestToyModel: a model of its own package, with measures of its own and
// no study, registered here with one line, gets through every command on
// one results directory with the built-in studies, none of which is its:
// `sweep run` runs it, `sweep analyze` writes and prints the paired tables
// of its ranked measures against its first policy, `sweep report` a page
// with the figures it asks for, and `sweep show` a cell's measures and its
// Gantt chart. No edit in cli, analysis or report.
//
// By hand (2 machines, each job on the machine free first): n = 2, 3, 4, 5
// jobs give makespans 2, 4, 6, 9 shortest first and 2, 3, 5, 8 longest
// first (e.g. n = 3 longest first: 3 on one machine, 2 then 1 on the
// other, all done at 3), sums of ends 3, 7, 13, 22 and 3, 8, 17, 31.
func TestToyModel(t *testing.T) {
	reg := builtin.Registry()
	if err := reg.Register(toymodel.Model{}); err != nil { // the one registration line
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "toy.yaml")
	if err := os.WriteFile(path, []byte(toyManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sweep := func(args ...string) (stdout, stderr string) {
		t.Helper()
		var o, e bytes.Buffer
		if code := Main(context.Background(), args, &o, &e, reg, studies.Builtin()...); code != 0 {
			t.Fatalf("sweep %s: exit %d: %s", args[0], code, e.String())
		}
		return o.String(), e.String()
	}
	sweep("run", path, "--out", out)
	checkToyAnalysis(t, out, sweep)
	checkToyReport(t, out, sweep)
	checkToyShow(t, out, filepath.Join(dir, "toy.svg"), sweep)
}

// checkToyAnalysis: toy-spt is at least as good as toy-lpt in 1 of 4
// pairs on makespan (n = 2, 25%) and in 4 of 4 on the sum (100%); mean
// makespans (2+4+6+9)/4 = 5.25 and (2+3+5+8)/4 = 4.5, mean sums 45/4 =
// 11.25 and 59/4 = 14.75 (printed to three digits), each ± the half-width
// of its 95% interval; toy_jobs, descriptive, is not compared.
func checkToyAnalysis(t *testing.T, out string, sweep func(...string) (string, string)) {
	t.Helper()
	text, _ := sweep("analyze", out)
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
}

// checkToyReport: the page has the two figures the toy asks for
// (model.Figured) and the generic tables, and no box of the makespan.
func checkToyReport(t *testing.T, out string, sweep func(...string) (string, string)) {
	t.Helper()
	if wrote, _ := sweep("report", out); !strings.Contains(wrote, "index.html") {
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

// checkToyShow shows instance 3 (n = 5) longest first: j4 (5 s) on
// machine 0 and j3 (4 s) on machine 1 at 0, j2 (3 s) on machine 1 at 4,
// j1 (2 s) on machine 0 at 5, j0 (1 s) on machine 0 at 7 (both free, the
// lower taken): ends 5, 4, 7, 7, 8, makespan 8, sum 31. The chart is 1200
// px over 8 s from x = 200 (150 px a second), a machine a row of 18 px
// from y = 56 (machine 1 at y = 74), each bar 150 px a second of its job.
func checkToyShow(t *testing.T, out, svg string, sweep func(...string) (string, string)) {
	t.Helper()
	stdout, stderr := sweep("show", out, "sizes/i003/L-/single:2/toy-lpt", "--gantt", svg)
	var got showOutput
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("show output %s: %v", stdout, err)
	}
	if got.Model != "toy" || got.StoredRow != "equal: all 3 measures" || strings.Join(got.Metrics.names, " ") != "toy_makespan toy_sum_completion toy_jobs" ||
		fmt.Sprint(got.Metrics.values[0].Any(), got.Metrics.values[1].Any(), got.Metrics.values[2].Any()) != "8 31 5" {
		t.Errorf("show: %+v; want the toy's makespan 8, sum 31 and 5 jobs, equal to the stored row", got)
	}
	if want := ": 5 of 5 jobs in ticks 0-8 drawn"; !strings.Contains(stderr, want) {
		t.Errorf("note %q; want %q", stderr, want)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`x="1250.0" y="56.0" width="150.0" height="18.0" fill="` + toyColour(0) + `"><title>job j0: 1 machine on c1, ticks 7-8</title>`,
		`x="950.0" y="56.0" width="300.0" height="18.0" fill="` + toyColour(1) + `"><title>job j1: 1 machine on c1, ticks 5-7</title>`,
		`x="800.0" y="74.0" width="450.0" height="18.0" fill="` + toyColour(2) + `"><title>job j2: 1 machine on c1, ticks 4-7</title>`,
		`x="200.0" y="74.0" width="600.0" height="18.0" fill="` + toyColour(3) + `"><title>job j3: 1 machine on c1, ticks 0-4</title>`,
		`x="200.0" y="56.0" width="750.0" height="18.0" fill="` + toyColour(4) + `"><title>job j4: 1 machine on c1, ticks 0-5</title>`,
		">c1 machine 0</text>", ">machine 1</text>", "one row per machine; one bar per job",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the chart lacks %s", want)
		}
	}
	if n := strings.Count(string(data), `class="task"`); n != 5 {
		t.Errorf("%d bars; want 5", n)
	}
}

// toyColour is job j's colour in a chart without focus (report/gantt:
// hues a golden angle apart), read from a chart of TestShowRigidGantt.
func toyColour(j int) string {
	return []string{"#ce3b3b", "#6cda8c", "#762bab", "#cebc3b", "#6cc8da"}[j]
}
