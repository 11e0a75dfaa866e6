package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/studies"
)

// TestMixedModels: one manifest with a rigid trace month and a grid
// generator runs 1 + 2 x 2 cells into one cells table, the grid cells with
// null fair-share measures and the rigid cell with null grid metrics, and
// analyze prints both models' sections, each reading only its own cells
// (the grid comparison 2 pair groups of pslr and srtf, the fair-share
// tables the month of tiny), and report writes each section's page:
// index.html the first (fair share), index-2.html the grid comparison.
func TestMixedModels(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	reg := builtin.Registry()
	if code := Main(context.Background(), []string{"run", "../sweep/testdata/mixed.yaml", "--out", out}, &stdout, &stderr, reg, studies.Builtin()...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	cells, _, err := parquet.ReadColumns(out, table.Cells, []string{table.Workload, "makespan", table.FairMonth})
	if err != nil {
		t.Fatal(err)
	}
	if cells.Rows != 5 {
		t.Fatalf("%d cells; want 5", cells.Rows)
	}
	for r := range cells.Rows {
		grid := cells.Columns[0].Strings[r] == "fan"
		if cells.Columns[1].IsNull(r) == grid || cells.Columns[2].IsNull(r) != grid {
			t.Errorf("cell %d (%s): makespan null %v, month null %v", r, cells.Columns[0].Strings[r], cells.Columns[1].IsNull(r), cells.Columns[2].IsNull(r))
		}
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"analyze", out}, &stdout, &stderr, reg, studies.Builtin()...); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"reference pslr, alpha 0.05; 2 pair groups, 2 policies, 1 load", "tiny: waits (hours) and mean bounded slowdown"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("analyze output lacks %q:\n%s", want, stdout.String())
		}
	}
	// The fair-share section reads only the rigid cell: the grid
	// workload fan gets no (empty) fair-share tables.
	if strings.Contains(stdout.String(), "fan, Table I") || strings.Contains(stdout.String(), "fan: waits") {
		t.Errorf("analyze lists the grid workload fan in the fair-share section:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"report", "--gantt=false", out}, &stdout, &stderr, reg, studies.Builtin()...); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr.String())
	}
	for _, page := range []struct{ file, title string }{
		{"index.html", "<h1>sweep report: fair share, month by month"},
		{"index-2.html", "<h1>sweep report: pslr against every policy"},
	} {
		html, err := os.ReadFile(filepath.Join(out, "report", page.file))
		if err != nil || !bytes.Contains(html, []byte(page.title)) {
			t.Errorf("report page %s: %v; want its title %q", page.file, err, page.title)
		}
		if !strings.Contains(stdout.String(), "wrote "+filepath.Join(out, "report", page.file)) {
			t.Errorf("report does not say it wrote %s: %s", page.file, stdout.String())
		}
	}
}
