package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `sweep run -h` shows its argument, the manifest, not only its flags
// (issue 35: the flag package printed "Usage of sweep run:" and flags).
func TestRunHelpShowsTheManifestArgument(t *testing.T) {
	for _, cmd := range []string{"run", "plan", "slurm"} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{cmd, "-h"}, &stdout, &stderr); code != 0 {
			t.Fatalf("%s -h: exit %d", cmd, code)
		}
		if want := "usage: sweep " + cmd + " M "; !strings.HasPrefix(stdout.String(), want) || !strings.Contains(stdout.String(), "M is the experiment's manifest") {
			t.Errorf("%s -h:\n%s\nwant it to start with %q and say what M is", cmd, stdout.String(), want)
		}
	}
}

// Each command's errors begin with its own name: `sweep export` said
// `sweep show:` (issue 35), and errors from below (a manifest's) had no
// command name.
func TestErrorsNameTheirCommand(t *testing.T) {
	_, out := runTiny(t, tinyGrid)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", out, "no-such-cell"}, "sweep export: "},
		{[]string{"show", out, "no-such-cell"}, "sweep show: "},
		{[]string{"plan", "no-such-manifest.yaml"}, "sweep plan: manifest: "},
		{[]string{"run", "no-such-manifest.yaml"}, "sweep run: manifest: "},
		{[]string{"status", out, "--manifest", "no-such-manifest.yaml"}, "sweep status: manifest: "},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.HasPrefix(stderr.String(), tt.want) || strings.Count(stderr.String(), "sweep ") != 1 {
			t.Errorf("%v: %q; want one prefix %q", tt.args, stderr.String(), tt.want)
		}
	}
}

// A failing external policy's reason is shown where the user looks: the
// end of `sweep run` lists the first failed cells with the policy's stderr
// tail, and `sweep status` prints it (issue 35: run said only "1 of 2
// cells failed", status "its last 4 stderr lines:" and nothing after).
// A command that cannot say hello is refused before any cell, exit 2.
func TestFailingPolicyShownWhereTheUserLooks(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	dir := t.TempDir()
	fixture, _ := filepath.Abs("../sweep/testdata/norequest.swf.txt")
	// Says hello, then fails at its first decision.
	crash := "import sys\nsys.stdin.readline()\nprint('{\"type\":\"hello\",\"protocol\":1}', flush=True)\nsys.stdin.readline()\n" +
		"sys.stderr.write('Traceback (most recent call last):\\nRuntimeError: no decision for you\\n')\nsys.exit(1)\n"
	files := map[string]string{
		"crash.py": crash,
		"mine.py":  "import sweep_policy_in_another_interpreter\n",
		"crash.yaml": "experiment: crash\nseed: 1\nplatform: single:4\nworkloads:\n  - trace: " + fixture +
			"\n    months: {from: 1970-01, to: 1970-01}\n    estimates: [T]\npolicies: [fcfs-easy, {name: crash, command: [python3, crash.py]}]\n",
	}
	files["mine.yaml"] = strings.Replace(files["crash.yaml"], "{name: crash, command: [python3, crash.py]}", "{name: mine, command: [python3, mine.py]}", 1)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "results")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", filepath.Join(dir, "crash.yaml"), "--out", out}, &stdout, &stderr); code != 1 {
		t.Fatalf("run: exit %d, want 1: %s", code, stderr.String())
	}
	for _, want := range []string{
		"the first 1 failed cells (sweep status " + out + " lists them all):\n  norequest-T/1970-01/single:4/crash (all, ",
		"its last 2 stderr lines:\n      Traceback (most recent call last):\n      RuntimeError: no decision for you\n",
		"sweep run: 1 of 2 cells failed",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("run's stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"status", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("status: exit %d", code)
	}
	if want := "      RuntimeError: no decision for you\n"; !strings.Contains(stdout.String(), want) {
		t.Errorf("status lacks %q:\n%s", want, stdout.String())
	}

	stderr.Reset()
	out2 := filepath.Join(dir, "results2")
	if code := run(context.Background(), []string{"run", filepath.Join(dir, "mine.yaml"), "--out", out2}, &stdout, &stderr); code != 2 {
		t.Fatalf("run of a policy that cannot start: exit %d, want 2: %s", code, stderr.String())
	}
	if want := "ModuleNotFoundError: No module named 'sweep_policy_in_another_interpreter'"; !strings.HasPrefix(stderr.String(), `sweep run: policy "mine": python3 `) || !strings.Contains(stderr.String(), want) {
		t.Errorf("refusal %q; want it to name the policy, its command and %q", stderr.String(), want)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Errorf("%s was created by a refused run", out2)
	}
}

// The trace's drop/repair report is printed once per run, on its first
// session, and only what applies to the model: issue 35 found every
// command reprinting it, with the campaign note on wait times on rigid
// traces. The fixture's three jobs have no requested time (noted) and
// one of them no wait time (-1), which the rigid model does not read.
func TestTraceReportOncePerRun(t *testing.T) {
	dir := t.TempDir()
	trace := "; MaxProcs: 4\n; UnixStartTime: 0\n" +
		"1 100 -1 50 2 -1 -1 2 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"2 200 0 50 2 -1 -1 2 -1 -1 1 2 -1 -1 -1 -1 -1 -1\n"
	manifest := "experiment: once\nseed: 1\nplatform: single:4\nworkloads:\n  - trace: t.swf\n" +
		"    months: {from: 1970-01, to: 1970-01}\n    estimates: [T]\npolicies: [fcfs-easy]\n"
	for name, text := range map[string]string{"t.swf": trace, "m.yaml": manifest, "m2.yaml": strings.Replace(manifest, "[fcfs-easy]", "[fcfs-easy, relshare]", 1)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "results")
	for _, tt := range []struct {
		manifest string
		report   bool
	}{{"m.yaml", true}, {"m.yaml", false}, {"m2.yaml", false}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", filepath.Join(dir, tt.manifest), "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("run %s: exit %d: %s", tt.manifest, code, stderr.String())
		}
		if got := strings.Contains(stderr.String(), "trace workload t: "); got != tt.report {
			t.Errorf("run %s: trace report printed %v, want %v:\n%s", tt.manifest, got, tt.report, stderr.String())
		}
		if strings.Contains(stderr.String(), "wait time") {
			t.Errorf("run %s: the rigid model's report notes wait times, which it does not read:\n%s", tt.manifest, stderr.String())
		}
	}
}

// A mistyped format or policy on the command line gets a "did you mean"
// (issue 35), from the one helper the manifest's messages use.
func TestCommandLineDidYouMean(t *testing.T) {
	_, out := runTiny(t, tinyGrid)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", out, "x", "--format", "batsim-cvs"}, `sweep export: --format "batsim-cvs": want one of swf, batsim-csv, json (did you mean batsim-csv?)`},
		{[]string{"simulate", "--platform", "single:4", "--workload", "w.json", "--policy", "fcfs-esy"}, `--policy "fcfs-esy": unknown (did you mean fcfs-easy?); valid policies:`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: %q; want %q", tt.args, stderr.String(), tt.want)
		}
	}
}
