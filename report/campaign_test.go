package report

import (
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestECDFSteps: of the stretches 0.5 (below the axis), 1, 1, 2 and 5
// (beyond it), 1/5 lie below 1, 3/5 are <= 1, 4/5 <= 2; the curve is flat
// from 2 to the axis end 4.
func TestECDFSteps(t *testing.T) {
	got := ecdfSteps([]float64{0.5, 1, 1, 2, 5}, 4)
	want := plotter.XYs{{X: 1, Y: 0.2}, {X: 1, Y: 0.2}, {X: 1, Y: 0.6}, {X: 2, Y: 0.6}, {X: 2, Y: 0.8}, {X: 4, Y: 0.8}}
	if len(got) != len(want) {
		t.Fatalf("steps %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d = %v; want %v (all: %v)", i, got[i], want[i], got)
		}
	}
}

// TestReportFiguresUserCount: a run of two synthetic workloads with 2 and
// 4 users gets, after each workload's stretch distribution and per-user
// boxes, the three figures of seed 001 against the user count; the
// workload without a label is named after its generator, "profiles".
func TestReportFiguresUserCount(t *testing.T) {
	page := runAndReport(t, "testdata/users.yaml")
	checkFigures(t, page, []string{
		"Campaign stretch distribution, profiles",
		"Max campaign stretch per user by profile, profiles",
		"Campaign stretch distribution, two",
		"Max campaign stretch per user by profile, two",
		"stretch &gt; 20 (share) against the number of users",
		"user max stretch, short users against the number of users",
		"user max stretch, long users against the number of users",
	})
}

func TestWorkloadUsers(t *testing.T) {
	dir := t.TempDir()
	if counts, err := workloadUsers(dir); err != nil || counts != nil {
		t.Errorf("no manifest: %v, %v; want no counts, no error", counts, err)
	}
	manifest, err := os.ReadFile("testdata/users.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	counts, err := workloadUsers(dir)
	if err != nil || len(counts) != 2 || counts["two"] != 2 || counts["profiles"] != 4 {
		t.Errorf("counts %v, %v; want two: 2, profiles: 4", counts, err)
	}
}
