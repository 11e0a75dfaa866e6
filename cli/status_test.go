package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStatusCommand runs shard 1 of 2 of the small manifest (instances 0
// of both workloads: 12 of its 24 cells) and reads the directory with the
// manifest copy the run left there.
func TestStatusCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "small")
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"run", "../sweep/testdata/small.yaml", "-j", "1", "--out", dir, "--shard", "1/2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	published := time.Now()
	stdout.Reset()
	stderr.Reset()
	// An hour later, nothing has been published for 50 minutes past the
	// rate's window.
	later := func() time.Time { return published.Add(time.Hour) }
	if err := testApp().statusCommand([]string{dir}, &stdout, &stderr, later); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		dir + ": 24 cells, 12 done, 0 failed, 12 remaining\n",
		"s01of02  12     12    0       0          1      1h0m0s ago\n",
		"s02of02  12     0     0       12         0      none yet\n",
		"rate      none yet: no shard published twice in the last 10m0s; no ETA\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, stdout.String())
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}

	if err := os.Remove(filepath.Join(dir, "manifest.yaml")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if err := testApp().statusCommand([]string{dir}, &stdout, &stderr, later); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "manifest.yaml yet: cells remaining unknown") ||
		!strings.Contains(stdout.String(), "12 cells done, 0 failed (no manifest: remaining unknown)") ||
		!strings.Contains(stdout.String(), "s01of02  ?      12    0       ?          1") {
		t.Errorf("without the manifest:\n%s%s", stderr.String(), stdout.String())
	}

	for _, args := range [][]string{{}, {dir, "--window", "0s"}, {filepath.Join(dir, "nowhere")}} {
		if err := testApp().statusCommand(args, &stdout, &stderr, later); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}
