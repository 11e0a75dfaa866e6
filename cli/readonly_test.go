package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/resultstest"
)

// setWritable adds or removes write permission on everything under dir.
func setWritable(t *testing.T, dir string, writable bool) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := info.Mode().Perm() &^ 0o222
		if writable {
			mode |= 0o200
		}
		return os.Chmod(path, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyResults: a finished results directory made read-only (chmod
// -R a-w) is run again (nothing to do), analysed and reported with --out
// elsewhere, and nothing under it changes. Before, run rewrote the
// manifest's copy and analyze and report had no --out (issue 35).
func TestReadOnlyResults(t *testing.T) {
	path, out := runTiny(t, tinyGrid)
	setWritable(t, out, false)
	t.Cleanup(func() { setWritable(t, out, true) })
	before := resultstest.Snapshot(t, out)
	elsewhere := t.TempDir()
	for _, args := range [][]string{
		{"run", path, "--out", out},
		{"analyze", out, "--out", elsewhere},
		{"report", out, "--out", elsewhere},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("sweep %q: exit %d: %s", args, code, stderr.String())
		}
	}
	if after := resultstest.Snapshot(t, out); !slices.Equal(before, after) {
		t.Errorf("the read-only results changed:\nbefore %q\nafter  %q", before, after)
	}
	for _, want := range []string{"analysis/wilcoxon.parquet", "report/index.html"} {
		if _, err := os.Stat(filepath.Join(elsewhere, want)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
}

// TestTruncatedJobsPart: a jobs part cut in half (a full disk) is named
// by status, analyze and report, which leave its rows out, and a run
// moves it aside and runs its cells again. Before, all three were silent
// and the run had nothing to do (issue 35).
func TestTruncatedJobsPart(t *testing.T) {
	path, out := runTiny(t, tinyGrid+"record: {jobs: true}\n")
	parts, err := filepath.Glob(filepath.Join(out, "jobs", "part-*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("jobs parts %q: %v", parts, err)
	}
	info, err := os.Stat(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(parts[0], info.Size()/2); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"status", out, "--manifest", path}, {"analyze", out}, {"report", out, "--gantt=false"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if said := stdout.String() + stderr.String(); !strings.Contains(said, "unreadable part file "+parts[0]) {
			t.Errorf("sweep %s (exit %d) does not name the truncated part:\n%s", args[0], code, said)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", path, "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("sweep run: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 ran (0 failed)") || !strings.Contains(stderr.String(), "moved aside") {
		t.Errorf("the run did not rerun the cells of the truncated part:\n%s%s", stdout.String(), stderr.String())
	}
}
