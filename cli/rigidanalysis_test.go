package cli

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// rigidLoadsManifest: 2 lublin1999 instances of 300 jobs on 64 processors
// at loads 0.5 and 0.8 under three policies: 4 pair groups (2 instances x
// 2 loads) of 3 cells.
const rigidLoadsManifest = `experiment: rigid-loads-small
seed: 7
platforms: [single:64]
workloads:
  - {generator: lublin1999, label: lub, instances: 2, set: {jobs: 300}}
loads: [0.5, 0.8]
policies: [fcfs-easy, sjf, fcfs-none]
`

// TestRigidLoadsAnalysis runs a small load sweep of generated rigid
// workloads and checks its paired comparison against the cells table
// read directly: against fcfs-easy (the rigid study's default reference)
// 2 pairs per load; the mean of bsld_mean per policy and load is the
// mean of the two cells' column; the dominance of bsld_mean is the share
// of the two pairs where fcfs-easy's is at most the other's; every cell
// achieves its load within 0.5%; --reference is honoured; the page draws
// the mean bounded slowdown against load with one line per policy.
func TestRigidLoadsAnalysis(t *testing.T) {
	dir := t.TempDir()
	manifest, out := filepath.Join(dir, "m.yaml"), filepath.Join(dir, "results")
	if err := os.WriteFile(manifest, []byte(rigidLoadsManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	sweep := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("sweep %s: exit %d: %s", args[0], code, stderr.String())
		}
		return stdout.String()
	}
	sweep("run", manifest, "--out", out)
	bsld := rigidCellValues(t, out)
	text := sweep("analyze", out)
	for _, want := range []string{
		"reference fcfs-easy, alpha 0.05; 4 pair groups, 3 policies, 2 loads",
		"Dominance over mean bounded slowdown", "mean bsld_mean (ratio, lower is better) by load",
		"mean wait_mean_seconds (seconds, lower is better) by load",
		"Achieved offered load per target load",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("sweep analyze lacks %q:\n%s", want, text)
		}
	}
	for _, line := range []string{"   0.5      6  0.5000  0.5000     ok", "   0.8      6  0.8000  0.8000     ok"} {
		if !strings.Contains(text, line) {
			t.Errorf("achieved-load check lacks %q:\n%s", line, text)
		}
	}
	checkRigidByLoad(t, out, bsld)
	checkRigidDominance(t, out, bsld)
	if text := sweep("analyze", "--reference", "sjf", out); !strings.Contains(text, "reference sjf, alpha 0.05; 4 pair groups") {
		t.Errorf("--reference sjf not honoured:\n%s", text)
	}
	sweep("report", out)
	page, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mean bounded slowdown (tau = 10 s, lower is better) against offered load", "measure-bsld-mean-by-load.svg", `id="achieved-load"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report page lacks %q", want)
		}
	}
	svg, err := os.ReadFile(filepath.Join(out, "report", "figures", "measure-bsld-mean-by-load.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, policy := range []string{"fcfs-easy", "sjf", "fcfs-none"} {
		if n := bytes.Count(svg, []byte(">"+policy+"</text>")); n != 1 {
			t.Errorf("the load figure names %s %d times in its legend; want once", policy, n)
		}
	}
	// One workload: its figure is the pooled one, drawn once.
	if _, err := os.Stat(filepath.Join(out, "report", "figures", "measure-bsld-mean-by-load-w01.svg")); !os.IsNotExist(err) {
		t.Errorf("a run of one workload has a per-workload figure (%v)", err)
	}
}

// rigidCellValues returns each successful cell's bsld_mean by policy,
// load and instance, read from the cells table.
func rigidCellValues(t *testing.T, out string) map[string]float64 {
	t.Helper()
	set, _, err := parquet.ReadColumns(out, table.Cells, []string{table.Instance, table.Load, table.Policy, table.Status, "bsld_mean"})
	if err != nil {
		t.Fatal(err)
	}
	if set.Rows != 12 {
		t.Fatalf("%d cells; want 12 (2 instances x 2 loads x 3 policies)", set.Rows)
	}
	out2 := map[string]float64{}
	for i := range set.Rows {
		if set.Column(table.Status).Strings[i] != table.StatusOK {
			t.Fatalf("cell %d failed", i)
		}
		key := fmt.Sprintf("%s/%g/%d", set.Column(table.Policy).Strings[i], set.Column(table.Load).Float64s[i], set.Column(table.Instance).Int64s[i])
		out2[key] = set.Column("bsld_mean").Float64s[i]
	}
	return out2
}

// checkRigidByLoad: by_load.parquet's mean of bsld_mean per policy and
// load is the mean of the two instances' cells, over n = 2.
func checkRigidByLoad(t *testing.T, out string, bsld map[string]float64) {
	t.Helper()
	rows, err := parquet.ReadPart(filepath.Join(out, "analysis", "by_load.parquet"), []string{"metric", "load", "policy", "n", "mean"})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i := range rows.Rows {
		if rows.Columns[0].Strings[i] != "bsld_mean" || rows.Columns[1].IsNull(i) {
			continue
		}
		policy, load := rows.Columns[2].Strings[i], rows.Columns[1].Float64s[i]
		want := (bsld[fmt.Sprintf("%s/%g/0", policy, load)] + bsld[fmt.Sprintf("%s/%g/1", policy, load)]) / 2
		if n, got := rows.Columns[3].Int64s[i], rows.Columns[4].Float64s[i]; n != 2 || math.Abs(got-want) > 1e-9*want {
			t.Errorf("by_load bsld_mean %s at %g: n %d mean %v; want n 2 mean %v", policy, load, n, got, want)
		}
		seen++
	}
	if seen != 6 {
		t.Errorf("%d by_load rows of bsld_mean per load; want 6 (3 policies x 2 loads)", seen)
	}
}

// checkRigidDominance: dominance.parquet's bsld_mean row of each policy
// and load counts 2 pairs, and its percentage is the share of them where
// fcfs-easy's bsld_mean is at most the policy's.
func checkRigidDominance(t *testing.T, out string, bsld map[string]float64) {
	t.Helper()
	rows, err := parquet.ReadPart(filepath.Join(out, "analysis", "dominance.parquet"), []string{"metric", "load", "reference", "policy", "n", "dominance_pct"})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i := range rows.Rows {
		if rows.Columns[0].Strings[i] != "bsld_mean" || rows.Columns[1].IsNull(i) {
			continue
		}
		load, policy := rows.Columns[1].Float64s[i], rows.Columns[3].Strings[i]
		if ref := rows.Columns[2].Strings[i]; ref != "fcfs-easy" {
			t.Errorf("dominance reference %q; want fcfs-easy", ref)
		}
		atLeastAsGood := 0
		for inst := range 2 {
			if bsld[fmt.Sprintf("fcfs-easy/%g/%d", load, inst)] <= bsld[fmt.Sprintf("%s/%g/%d", policy, load, inst)] {
				atLeastAsGood++
			}
		}
		if n, pct := rows.Columns[4].Int64s[i], rows.Columns[5].Float64s[i]; n != 2 || pct != 50*float64(atLeastAsGood) {
			t.Errorf("dominance bsld_mean %s at %g: n %d, %v%%; want 2 pairs, %v%%", policy, load, n, pct, 50*float64(atLeastAsGood))
		}
		seen++
	}
	if seen != 4 {
		t.Errorf("%d dominance rows of bsld_mean per load; want 4 (sjf and fcfs-none x 2 loads)", seen)
	}
}
