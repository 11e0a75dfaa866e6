package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// busyGrid is a grid manifest of 1,800 cells with 3,000-job instances: a
// few seconds of work, long enough for a second run to meet it.
const busyGrid = "experiment: busy\nseed: 3\nplatform: burkimsher2013\nworkloads:\n" +
	"  - {generator: burkimsher2013/log-independent, label: logind, instances: 300, set: {jobs: 3000, total: \"300000000\"}}\n" +
	"loads: [0.9, 1.2]\npolicies: [pslr, fairshare, srtf]\n"

// TestOtherManifestWhileRunning: `sweep run` of another manifest (another
// seed) on a results directory that a `sweep run` process is writing
// exits 2, naming the directory and that process; the first run's cells
// are then all there, of its seed only. Before, both ran and mixed two
// seeds' cells (issue 35).
func TestOtherManifestWhileRunning(t *testing.T) {
	dir := t.TempDir()
	first, second, out := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "results")
	os.WriteFile(first, []byte(busyGrid), 0o644)
	os.WriteFile(second, []byte(strings.Replace(busyGrid, "seed: 3", "seed: 4", 1)), 0o644)
	sweep := exec.Command(os.Args[0], "-test.run=^$")
	sweep.Env = append(os.Environ(), "SWEEP_CLI_ARGS="+strings.Join([]string{"run", first, "--out", out, "-j", "1"}, "\t"))
	var firstErr bytes.Buffer
	sweep.Stderr = &firstErr
	if err := sweep.Start(); err != nil {
		t.Fatal(err)
	}
	defer sweep.Process.Kill()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if sessions, _ := filepath.Glob(filepath.Join(out, ".sessions", "*.json")); len(sessions) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first run never started: %s", firstErr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", second, "--out", out}, &stdout, &stderr)
	if err := sweep.Wait(); err != nil {
		t.Fatalf("the first run: %v: %s", err, firstErr.String())
	}
	if code != 2 {
		t.Fatalf("the second run: exit %d, want 2: %s", code, stderr.String())
	}
	for _, want := range []string{out + " is in use by a run of another manifest", fmt.Sprintf("pid %d on host ", sweep.Process.Pid), "manifest " + first} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, stderr.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"plan", first, "--out", out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "done      1800 ok, 0 failed") {
		t.Errorf("after both: plan of the first manifest (exit %d):\n%s%s", code, stdout.String(), stderr.String())
	}
}
