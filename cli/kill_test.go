package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary runs `sweep` itself when SWEEP_CLI_ARGS holds its
// arguments (tab-separated), so a test can kill -9 a real sweep process.
func TestMain(m *testing.M) {
	if args := os.Getenv("SWEEP_CLI_ARGS"); args != "" {
		os.Exit(run(context.Background(), strings.Split(args, "\t"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// A kill -9 of `sweep run` leaves no policy process behind: the external
// policy hangs at its first decision, the test finds it in /proc, kills
// sweep and watches the policy go (its parent-death signal).
func TestKill9LeavesNoPolicy(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is absent: the hanging policy cannot run")
	}
	dir := t.TempDir()
	trace, _ := filepath.Abs("../sweep/testdata/norequest.swf.txt")
	pidFile := filepath.Join(dir, "pid")
	hang := fmt.Sprintf("import os, sys, time\nsys.stdin.readline()\nprint('{\"type\":\"hello\",\"protocol\":1}', flush=True)\nsys.stdin.readline()\nopen(%q, 'w').write(str(os.getpid()) + '\\n')\ntime.sleep(3600)\n", pidFile)
	os.WriteFile(filepath.Join(dir, "hang.py"), []byte(hang), 0o644)
	manifest := `experiment: kill
seed: 1
platform: single:4
workloads:
  - {trace: ` + trace + `, label: tiny, months: {from: 1970-01, to: 1970-01}, estimates: [T]}
policies: [{name: hang, command: [` + py + `, hang.py], timeout: 1h}]
`
	os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(manifest), 0o644)
	sweep := exec.Command(os.Args[0], "-test.run=^$")
	sweep.Env = append(os.Environ(), "SWEEP_CLI_ARGS="+strings.Join([]string{"run", filepath.Join(dir, "m.yaml"), "--out", filepath.Join(dir, "out")}, "\t"))
	var stderr bytes.Buffer
	sweep.Stderr = &stderr
	if err := sweep.Start(); err != nil {
		t.Fatal(err)
	}
	defer sweep.Process.Kill()
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the policy never reached its hang; sweep said: %s", stderr.String())
		}
		if b, err := os.ReadFile(pidFile); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if gone(pid) {
		t.Fatalf("policy %d is not running before the kill", pid)
	}
	if err := sweep.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sweep.Wait()
	for deadline := time.Now().Add(5 * time.Second); !gone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("policy %d outlived sweep's kill -9", pid)
		}
	}
}

// gone reports whether pid no longer runs: absent from /proc, or a
// zombie left for init to reap.
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}
