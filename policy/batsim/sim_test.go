package batsim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/policy/child"
	"github.com/sweep-sched/sweep/workload/rigid"
)

func fixtureWorkload() *rigid.Workload {
	w := &rigid.Workload{Name: "fcfs fixture", Procs: 4}
	for i, f := range fcfsFixture {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: f.submit, Procs: int(f.procs), RunSeconds: f.run, RequestedSeconds: f.req})
	}
	return w
}

func TestGoFCFSOverTheSocket(t *testing.T) {
	for _, tcp := range []bool{false, true} {
		opts := schedulerCommand(t, "fcfs")
		opts.TCP = tcp
		sched, err := Simulate(context.Background(), fixtureWorkload(), opts)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fcfsFixture {
			if got := sched.StartNanos[i]; got != f.start*placement.NanosPerSecond {
				t.Errorf("tcp %v: job %d starts at %d ns, want %d s", tcp, i, got, f.start)
			}
			if got := formatIntervals(sched.Resources[i]); got != f.alloc {
				t.Errorf("tcp %v: job %d on %q, want %q", tcp, i, got, f.alloc)
			}
			if got, want := sched.EndNanos[i]-sched.StartNanos[i], f.run*placement.NanosPerSecond; got != want {
				t.Errorf("tcp %v: job %d runs %d ns, want %d", tcp, i, got, want)
			}
		}
		// Messages: SIMULATION_BEGINS; instants 0, 1, 10, 12, 13, 15, 17;
		// SIMULATION_ENDS. Events: 1 + 2 submitted + 1 + 1 completed + 1
		// submitted + NOTIFY + 3 completed + 1.
		want := Counts{Requests: 9, Events: 11, Executed: 4}
		if sched.Counts != want {
			t.Errorf("tcp %v: counts %+v, want %+v", tcp, sched.Counts, want)
		}
	}
}

// A scheduler that answers with now 0.5 s later and timestamps its
// decisions then: jobs start half a second after the event, as in Batsim.
func TestDecisionsTakeEffectAtTheirTimestamp(t *testing.T) {
	sched, err := Simulate(context.Background(), fixtureWorkload(), schedulerCommand(t, "slow"))
	if err != nil {
		t.Fatal(err)
	}
	// Job 0 at 0.5 (ends 10.5); jobs 1 and 2 at 11 (told at 10.5, decided
	// at 11); job 3 at 16.5 (job 1 ends at 16, told then, decided 16.5).
	want := []int64{500_000_000, 11_000_000_000, 11_000_000_000, 16_500_000_000}
	for i, w := range want {
		if sched.StartNanos[i] != w {
			t.Errorf("job %d starts at %d ns, want %d", i, sched.StartNanos[i], w)
		}
	}
}

func TestWindowStopsOnceMeasuredJobsStarted(t *testing.T) {
	w := fixtureWorkload()
	w.MeasureFromSeconds, w.MeasureToSeconds = 0, 2 // jobs 0-2 measured
	sched, err := Simulate(context.Background(), w, schedulerCommand(t, "fcfs"))
	if err != nil {
		t.Fatal(err)
	}
	if sched.MustDecide != 3 || sched.StartNanos[2] != 10*placement.NanosPerSecond || sched.StartNanos[3] != -1 {
		t.Errorf("must decide %d, job 2 at %d, job 3 at %d: want 3, 10 s, never (ended at 10 s before job 3's submission)",
			sched.MustDecide, sched.StartNanos[2], sched.StartNanos[3])
	}
}

func TestFaults(t *testing.T) {
	// The third message is at 1 s: job 2's submission.
	const at = "decision 3 (JOB_SUBMITTED w0!2) at 1 s"
	cases := []struct{ mode, want, stderr string }{
		{"exit", "exited with status 3", "giving up at the third message"},
		{"hang", "no answer within the decision deadline", "thinking hard"},
		{"garbage", `invalid JSON message "this is not JSON"`, ""},
		{"busy", "EXECUTE_JOB w0!2 on \"0\" at 1 s: resource 0 is busy with job w0!0 (running since 0 s, until 10 s)", ""},
		{"nonexistent", "EXECUTE_JOB w0!2 on \"7\" at 1 s: resource 7 does not exist (the platform has 0-3)", ""},
		{"unknown", `EXECUTE_JOB w0!99 on "3" at 1 s: unknown job "w0!99" (jobs are w0!0 to w0!3)`, ""},
		{"kill", `"KILL_JOB" is not supported`, ""},
		{"past", "reply's now 0 s is before the request's 1 s", ""},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			opts := schedulerCommand(t, c.mode)
			opts.DecisionTimeout = time.Second
			_, err := Simulate(context.Background(), fixtureWorkload(), opts)
			var f *child.Fault
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a fault", err)
			}
			msg := err.Error()
			for _, w := range []string{at, c.want, c.stderr} {
				if !strings.Contains(msg, w) {
					t.Errorf("fault %q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestCommandWith(t *testing.T) {
	got := commandWith([]string{"pybatsim", "easyBackfill"}, "ipc:///x")
	if strings.Join(got, " ") != "pybatsim easyBackfill --socket-endpoint=ipc:///x" {
		t.Errorf("appended: %q", got)
	}
	got = commandWith([]string{"batsched", "-v", "easy_bf", "-s", "{socket}"}, "tcp://127.0.0.1:9")
	if strings.Join(got, " ") != "batsched -v easy_bf -s tcp://127.0.0.1:9" {
		t.Errorf("replaced: %q", got)
	}
}

func TestStaleDirsRemoved(t *testing.T) {
	tmp := t.TempDir()
	// pid 1 lives; a pid above pid_max never does.
	for _, name := range []string{"sweep-batsim-1-x", "sweep-batsim-99999999-y", "other-99999999-z"} {
		if err := os.Mkdir(filepath.Join(tmp, name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleDirs(tmp)
	entries, _ := os.ReadDir(tmp)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "other-99999999-z sweep-batsim-1-x" {
		t.Errorf("left %q, want the live pid's and the foreign directory", left)
	}
}

// A kill -9 of the simulator runs no cleanup: the parent-death signal
// ends the scheduler, and the socket file was unlinked once connected.
func TestNothingOutlivesAKilledSimulator(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "ready")
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"=1", readyEnv+"="+ready)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	var schedPID int
	for deadline := time.Now().Add(10 * time.Second); schedPID == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scheduler never reached its hang")
		}
		if b, err := os.ReadFile(ready); err == nil && len(b) > 0 {
			schedPID, _ = strconv.Atoi(string(b))
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("sweep-batsim-%d-*", parent.Process.Pid)))
	if len(dirs) != 1 {
		t.Fatalf("private directories of the simulator: %q, want one", dirs)
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	for deadline := time.Now().Add(5 * time.Second); !processGoneOrZombie(schedPID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("scheduler %d outlived the killed simulator", schedPID)
		}
	}
	if _, err := os.Stat(filepath.Join(dirs[0], "sched.sock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket file left behind: %v", err)
	}
	// The next simulation removes the dead simulator's directory.
	removeStaleDirs(os.TempDir())
	if _, err := os.Stat(dirs[0]); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s left behind after the next run's cleanup: %v", dirs[0], err)
	}
}

// processGoneOrZombie reports whether pid no longer runs: absent, or a
// zombie left for init to reap.
func processGoneOrZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// A scheduler that asks to be called at 5 s and rejects job 3: the call
// comes as a message of its own at 5 s, job 3 never runs, the others run
// as under FCFS.
func TestRejectAndCallMeLater(t *testing.T) {
	sched, err := Simulate(context.Background(), fixtureWorkload(), schedulerCommand(t, "callreject"))
	if err != nil {
		t.Fatal(err)
	}
	if !sched.Rejected[3] || sched.StartNanos[3] != -1 || sched.StartNanos[2] != 10*placement.NanosPerSecond {
		t.Errorf("job 3 rejected %v, starts %d; job 2 starts %d: want rejected, never, 10 s", sched.Rejected[3], sched.StartNanos[3], sched.StartNanos[2])
	}
	// Messages: SIMULATION_BEGINS; instants 0, 1, 5 (the call), 10, 12,
	// 13, 15; SIMULATION_ENDS.
	want := Counts{Requests: 9, Events: 11, Executed: 3, Rejected: 1, CallsMeLater: 1}
	if sched.Counts != want {
		t.Errorf("counts %+v, want %+v", sched.Counts, want)
	}
}
