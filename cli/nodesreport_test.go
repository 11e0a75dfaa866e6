package cli

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
)

// tinyNodes is workload/jobcsv's four jobs on docs/nodes.md's example
// platform (cpu: nodes 0-1 of 4 cores, 8 GiB; gpu: node 2 of 8 cores,
// 64 GiB, 4 GPUs) under fcfs with EASY and conservative backfilling.
const tinyNodes = `experiment: tiny-nodes
seed: 1
platforms: [../platform/testdata/cpu-gpu.yaml]
workloads:
  - {trace: ../workload/jobcsv/testdata/jobs.csv, format: csv}
policies:
  - {name: fcfs-easy}
  - {name: fcfs-cons, policy: fcfs-conservative}
record: {jobs: true}
`

// TestNodesReport runs tinyNodes through analyze, report, show and
// export. The schedule, by hand (both policies): job 1 (2 nodes x 4
// cores, 4 GiB each) on cpu nodes 0-1 over 0-3600 s; job 3 (6 pooled
// cores, 1 GiB per core; its 900 s run killed at its 600 s estimate) on
// the gpu node, the cpu nodes being full, over 30-630; job 2 (the gpu
// node's 8 cores, 32 GiB, 4 GPUs) waits for job 3's cores until 630 and
// runs to 1230; job 4 (1 core, 100 s) backfills on the gpu node over
// 90-190. Over the span 0-3600:
//   - cores: (8*3600 + 6*600 + 100 + 8*600) / (16*3600) = 37300/57600
//   - memory: (8192*3600 + 6144*600 + 32768*600) MiB s / (81920*3600)
//     = 52838400/294912000
//   - GPUs: 4*600 / (4*3600) = 1/6
//   - cpu: 1 job, no wait, bounded slowdown 1, cores 1, memory 0.5, no GPUs
//   - gpu: 3 jobs, waits 570, 0, 0 (mean 190), bounded slowdowns
//     1170/600, 1, 1 (mean 1.3167), cores 8500/28800, memory
//     23347200/235929600, GPUs 1/6.
func TestNodesReport(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "tiny.yaml")
	text := strings.ReplaceAll(tinyNodes, "../", mustAbs(t, "..")+"/")
	if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sweep := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("sweep %v: exit %d: %s", args, code, stderr.String())
		}
		return stdout.String()
	}
	sweep("run", manifest, "--out", out)
	analyzed := sweep("analyze", out)
	for _, want := range []string{
		"fcfs-easy  0.648   0.179  0.167",
		"fcfs-easy        cpu      1     1              0                 0                   1.00   1.00   0.500      -",
		"fcfs-easy        gpu      1     3            190               570                   1.32  0.295  0.0990  0.167",
	} {
		if !strings.Contains(analyzed, want) {
			t.Errorf("sweep analyze lacks %q:\n%s", want, analyzed)
		}
	}
	util, err := parquet.ReadPart(filepath.Join(out, "analysis", "node_utilisation.parquet"), []string{"policy", "resource", "mean"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"cores": 37300.0 / 57600, "memory": 52838400.0 / 294912000, "GPUs": 1.0 / 6}
	for i := range util.Rows {
		res, mean := util.Columns[1].Strings[i], util.Columns[2].Float64s[i]
		if math.Abs(mean-want[res]) > 1e-12 {
			t.Errorf("%s %s utilisation %v, want %v", util.Columns[0].Strings[i], res, mean, want[res])
		}
	}
	parts, err := parquet.ReadPart(filepath.Join(out, "analysis", "node_partitions.parquet"), []string{"policy", "partition", "bsld_mean", "util_cores", "util_memory"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range parts.Rows {
		got := []float64{parts.Columns[2].Float64s[i], parts.Columns[3].Float64s[i], parts.Columns[4].Float64s[i]}
		want := []float64{1, 1, 0.5}
		if parts.Columns[1].Strings[i] == "gpu" {
			want = []float64{(1170.0/600 + 2) / 3, 8500.0 / 28800, 23347200.0 / 235929600}
		}
		for k := range got {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Errorf("%s on %s: bsld, cores, memory %v, want %v", parts.Columns[0].Strings[i], parts.Columns[1].Strings[i], got, want)
				break
			}
		}
	}

	// The report: the node tables, the three figures, and each policy's
	// worst cell as a Gantt chart, job 1 a bar on each of its nodes; the
	// run has no loads, so bounded slowdown is drawn by policy, not
	// against a load axis.
	sweep("report", out)
	page, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h2 id="nodes">`, "figures/nodes-utilisation.svg", "figures/nodes-bsld-by-partition.svg",
		"figures/nodes-wait-by-partition.svg", `<a href="gantt-fcfs-easy.svg">`,
		"mean bounded slowdown (tau = 10 s, lower is better) of each cell, by policy", "figures/measure-bsld-mean.svg"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(page), "by-load.svg") {
		t.Error("a run without loads has a figure against load")
	}
	cell := "jobs-R/i000/L-/" + mustAbs(t, "../platform/testdata/cpu-gpu.yaml") + "/fcfs-easy"
	svg := filepath.Join(dir, "show.svg")
	sweep("show", out, cell, "--gantt", svg)
	for _, chart := range []string{svg, filepath.Join(out, "report", "gantt-fcfs-easy.svg")} {
		b, err := os.ReadFile(chart)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"job 1: 4 cores on cpu node 0, ", "job 1: 4 cores on cpu node 1, ", ">gpu node 2</text>"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %q", chart, want)
			}
		}
	}

	// The report's chart is around the worst job, by its slowdown: job 2
	// waited 570 s for its 600 s, (570 + 600)/600 = 1.95.
	if b, err := os.ReadFile(filepath.Join(out, "report", "gantt-fcfs-easy.svg")); err != nil || !strings.Contains(string(b), "around its worst job 2 (slowdown 1.95)") {
		t.Errorf("the report's Gantt chart of fcfs-easy does not focus on job 2, slowdown 1.95 (%v)", err)
	}

	// jobs.csv: Batsim's resources are the nodes.
	csv := sweep("export", out, cell, "--format", "batsim-csv")
	for _, want := range []string{"\n1,w0,,0,2,7200,", ",0-1,-1,\n", "\n2,w0,,60,1,600,"} {
		if !strings.Contains(csv, want) {
			t.Errorf("jobs.csv lacks %q:\n%s", want, csv)
		}
	}
}

// mustAbs returns path made absolute.
func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
