package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/resultstest"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
)

// writeRun writes a results directory of two instances at load 1.0 with
// pslr and srtf: worst-case SLR pslr 2 3, srtf 4 3 (pslr at least as good
// in both pairs: 100%; differences -2 and 0, so t = -1, not significant),
// every other metric 1, and a manifest giving the paper's 54 for the cell.
func writeRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	schema := store.Schema{Table: "cells"}
	for _, c := range []struct {
		name string
		typ  store.Type
	}{{"cell_id", store.TypeString}, {"experiment", store.TypeString}, {"workload", store.TypeString},
		{"generator", store.TypeString}, {"instance", store.TypeInt64}, {"load", store.TypeFloat64},
		{"platform", store.TypeString}, {"policy", store.TypeString}, {"seed", store.TypeInt64},
		{"status", store.TypeString}, {"error", store.TypeString}, {"wall_ms", store.TypeInt64}} {
		schema.Columns = append(schema.Columns, store.Column{Name: c.name, Type: c.typ, Nullable: c.name == "error"})
	}
	for _, m := range grid.MetricColumns() {
		typ := store.TypeFloat64
		if m.Integer {
			typ = store.TypeInt64
		}
		schema.Columns = append(schema.Columns, store.Column{Name: m.Name, Type: typ, Nullable: true})
	}
	w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		policy   string
		instance int64
		slrMax   float64
	}{{"pslr", 0, 2}, {"pslr", 1, 3}, {"srtf", 0, 4}, {"srtf", 1, 3}} {
		row := store.Row{store.String(c.policy + string(rune('0'+c.instance))), store.String("x"), store.String("w"),
			store.String("g"), store.Int64(c.instance), store.Float64(1), store.String("p"), store.String(c.policy),
			store.Int64(1), store.String("ok"), store.Null(), store.Int64(1)}
		for _, m := range grid.MetricColumns() {
			switch {
			case m.Integer:
				row = append(row, store.Int64(10))
			case m.Name == "slr_max":
				row = append(row, store.Float64(c.slrMax))
			default:
				row = append(row, store.Float64(1))
			}
		}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	manifest := "experiment: x\nexpect:\n  dominance:\n    slr_max: {srtf: {1.0: 54}}\n  nonsignificant:\n    slr_max: {srtf: [1.0]}\n"
	if err := os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAnalyzeAndReport(t *testing.T) {
	dir := writeRun(t)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"analyze", dir, "--alpha", "0.1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("analyze: exit %d; stderr %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"reference pslr, alpha 0.1;",
		"  srtf   ours         100.0~",
		"         95% CI  34.2-100.0", // scipy binomtest(2, 2).proportion_ci(0.95, 'wilson'): 0.34238022750665303
		"         paper          54~=",
		"         diff         +46.0",
		"paper inside our 95% interval: 1 of 1 cells; significance as in the paper: 1 of 1",
		filepath.Join(dir, "analysis", "dominance.parquet"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze output lacks %q:\n%s", want, out)
		}
	}

	// Differences -2, 0: the zero is dropped, so n = 1, T = 0, z = (0 - 0.5)/0.5 = -1,
	// p = 2(1 - Φ(1)) = 0.3173 (scipy wilcoxon([2, 3], [4, 3]): 0.0 0.31731050786291415).
	if !regexp.MustCompile(`\n +W +0\.32\n`).MatchString(out) {
		t.Errorf("analyze output lacks the Wilcoxon p 0.32:\n%s", out)
	}

	stdout.Reset()
	if code := run(context.Background(), []string{"report", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("report: exit %d; stderr %s", code, stderr.String())
	}
	html, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	// Five box plots and Fig. 9; no Fig. 7 without job rows.
	if n := strings.Count(page, "<svg"); n != 6 {
		t.Errorf("report has %d SVG figures; want 6", n)
	}
	for _, want := range []string{"Table 3: dominance over worst-case SLR", `100.0<span class="ns">~</span>`, "paper 54~", "34.2-100.0", "t 0.5 &middot; W 0.32", "Definitions of the statistics", "no Fig. 7"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") && !strings.Contains(page, "http://www.w3.org/") {
		t.Error("report references a remote resource; it must open offline")
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyze"}, "missing DIR"},
		{[]string{"analyze", filepath.Join(empty, "nosuch")}, "is not a directory"},
		{[]string{"analyze", empty}, "no cell rows; cells/*.parquet is empty or missing"},
		{[]string{"report", empty}, "no cell rows"},
		{[]string{"analyze", empty, "--alpha", "2"}, "alpha: 2 is not strictly between 0 and 1"},
		{[]string{"analyze", empty, "--adjust", "bonferroni"}, `adjust: "bonferroni"; want none or holm`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestUsageErrorsOnce: every usage error exits 2 and says so once (a
// refused flag used to exit 1 with the message printed twice, and gen's
// missing or unknown preset exited 1).
func TestUsageErrorsOnce(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--bogus", "x"}, "flag provided but not defined: -bogus"},
		{[]string{"report", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"run", "m.yaml", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"gen", "-o", "w.json"}, "sweep gen: --preset is required; valid presets: burkimsher2013/uniform-independent"},
		{[]string{"gen", "--preset", "nope", "-o", "w.json"}, `sweep gen: unknown preset "nope"`},
		{[]string{"gen", "--preset", "ostrich2013/profiles", "--set", "users=0", "-o", "w.json"}, "users"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		if code != 2 || strings.Count(stderr.String(), tt.want) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q once", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestAnalyzeAndReportMoldable: `sweep run`, `analyze` and `report` on the
// small moldable manifest; analyze prints the ratio tables and the claims
// and writes moldable.parquet and claims.parquet.
func TestAnalyzeAndReportMoldable(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", "../sweep/testdata/moldable.yaml", "-j", "2", "--out", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d; stderr %s", code, stderr.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"analyze", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("analyze: exit %d; stderr %s", code, stderr.String())
	}
	for _, want := range []string{
		"uniform-high: C_max ratio (over lambda*), average (min-max over instances)",
		"cirne-berman: minsum ratio (over the interval LP)",
		"Seed 002's claims (Sec. 5):",
		filepath.Join(dir, "analysis", "moldable.parquet"),
		filepath.Join(dir, "analysis", "claims.parquet"),
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("analyze output lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"report", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("report: exit %d; stderr %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), filepath.Join(dir, "report", "index.html")) {
		t.Errorf("report output %q", stdout.String())
	}
}

// TestAnalyzeDispatch: `sweep analyze` runs the analyses of the models the
// cells part files record under sweep.models, whatever their columns, and
// probes the columns of a run that does not record them (every part must
// carry the key). The cells are resultstest.SmallRun's grid cells: the
// grid analysis prints Table 3 and notes the missing job rows.
func TestAnalyzeDispatch(t *testing.T) {
	const table3 = "Table 3: dominance over worst-case SLR (slr_max)"
	models := func(list string) map[string]string { return map[string]string{analysis.ModelsKey: list} }
	cells := resultstest.SmallRun()
	tests := []struct {
		name  string
		parts []map[string]string // one part per entry, half of the cells each
		code  int
		want  []string // in stdout (exit 0) or stderr
		not   []string // not in stdout
	}{
		{"recorded grid", []map[string]string{models("grid"), models("grid")}, 0,
			[]string{table3, "deciles: no job rows in this run"}, nil},
		{"old-style run, probed", []map[string]string{nil, nil}, 0,
			[]string{table3, "deciles: no job rows in this run"}, nil},
		{"one part without the key, probed", []map[string]string{models("rigid"), nil}, 0,
			[]string{table3}, nil},
		// Recorded as campaign cells, these get the campaign analysis
		// (no campaign workload among them) and no grid tables.
		{"recorded campaign", []map[string]string{models("campaign"), models("campaign")}, 0,
			[]string{"reference pslr, alpha 0.05; 8 pair groups, 3 policies, 2 loads"}, []string{table3, "deciles:"}},
		{"recorded rigid", []map[string]string{models("rigid"), models("rigid")}, 1,
			[]string{"sweep analyze: reading fair-share cells"}, nil},
		{"a model without analysis", []map[string]string{models("grid,toy"), models("grid")}, 0,
			[]string{table3, `sweep analyze: no analysis for model "toy"; its cells are left out`}, nil},
		{"only models without analysis", []map[string]string{models("toy"), models("toy")}, 2,
			[]string{`records the models ["toy"], none of which has an analysis`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			half := len(cells) / 2
			resultstest.WriteCellsPart(t, dir, "a", tt.parts[0], cells[:half])
			resultstest.WriteCellsPart(t, dir, "b", tt.parts[1], cells[half:])
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"analyze", dir}, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d; want %d; stderr %s", code, tt.code, stderr.String())
			}
			for _, want := range tt.want {
				if !strings.Contains(stdout.String(), want) && !strings.Contains(stderr.String(), want) {
					t.Errorf("output lacks %q:\n%s%s", want, stdout.String(), stderr.String())
				}
			}
			for _, not := range tt.not {
				if strings.Contains(stdout.String(), not) {
					t.Errorf("output has %q:\n%s", not, stdout.String())
				}
			}
		})
	}
}
