package sweep

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestWorkerCount: --jobs N runs N cells at once; 0 or less means every
// core the process may use (GOMAXPROCS, set here to 3).
func TestWorkerCount(t *testing.T) {
	prev := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(prev)
	for _, tc := range []struct{ jobs, want int }{{1, 1}, {5, 5}, {0, 3}, {-2, 3}} {
		if got := workerCount(tc.jobs); got != tc.want {
			t.Errorf("workerCount(%d) = %d, want %d", tc.jobs, got, tc.want)
		}
	}
}

// TestRunMetadata: the part files of shard 2 of 3 of the small manifest
// (testdata/small.yaml: the grid model's built-in policies only, no
// variant, external policy or trace) carry the run's start in UTC, its
// workers, the host's cores, the manifest's hash, the versions and the
// models, and nothing else.
func TestRunMetadata(t *testing.T) {
	m := loadSmall(t)
	plan, err := m.Plan(t.TempDir(), Shard{2, 3}, false)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 27, 13, 0, 0, 500, time.FixedZone("CET", 3600))
	meta := m.runMetadata(plan, RunOptions{Shard: Shard{2, 3}, Version: "v1.2"}, start, 3)
	want := map[string]string{
		"sweep.run_started":     "2026-11-27T12:00:00.0000005Z",
		"sweep.workers":         "3",
		"sweep.host_cpus":       strconv.Itoa(runtime.NumCPU()),
		"sweep.manifest_sha256": m.Hash(),
		"sweep.tool_version":    "v1.2",
		"sweep.model_version":   m.models.Versions(),
		"sweep.models":          "grid",
		"sweep.experiment":      "small",
		"sweep.shard":           "s02of03",
	}
	if len(meta) != len(want) {
		t.Errorf("%d keys, want %d: %v", len(meta), len(want), meta)
	}
	for k, v := range want {
		if meta[k] != v {
			t.Errorf("%s = %q, want %q", k, meta[k], v)
		}
	}
}
