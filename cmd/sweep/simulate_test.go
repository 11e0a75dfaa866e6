package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateGantt draws Graham's example (9 tasks; the layout is tested
// in analysis/gantt) and checks the file has one bar per task.
func TestSimulateGantt(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.svg")
	var stdout, stderr bytes.Buffer
	args := []string{"simulate", "--platform", "single:3", "--workload", "../../engine/testdata/graham.json",
		"--policy", "fifo-task", "--gantt", out, "--gantt-window", "0:12"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), `class="task"`); n != 9 {
		t.Errorf("%d task bars; want 9", n)
	}
	if want := "gantt: wrote " + out + ": 9 of 9 tasks in ticks 0-12 drawn"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q; want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), `"makespan": 12`) {
		t.Errorf("stdout lacks the metrics: %s", stdout.String())
	}

	for _, bad := range [][]string{{"--gantt-window", "5:5", "--gantt", out}, {"--gantt-window", "0:10"}} {
		stderr.Reset()
		args := append([]string{"simulate", "--platform", "single:3", "--workload", "../../engine/testdata/graham.json", "--policy", "fifo-task"}, bad...)
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--gantt-window") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming --gantt-window", bad, code, stderr.String())
		}
	}
}
