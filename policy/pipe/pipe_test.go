package pipe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/rigid"
)

const kthTrace = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// fixture is a hand-made trace on 4 processors where EASY backfills:
// job 1 (4 procs) waits for job 0; job 2 (1 proc, 2 s) fits beside job 0
// and ends before job 1's shadow at 10 s, so it starts at 1 s.
func fixture() *rigid.Workload {
	return &rigid.Workload{Name: "fixture", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, User: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 10, RequestedSeconds: 10},
		{Number: 2, User: 2, SubmitSeconds: 1, Procs: 4, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 3, User: 1, SubmitSeconds: 1, Procs: 1, RunSeconds: 2, RequestedSeconds: 3},
		{Number: 4, User: 3, SubmitSeconds: 2, Procs: 2, RunSeconds: 20, RequestedSeconds: 20},
	}}
}

// kthMonth is KTH-SP2 1996-10 with its warm-up and cool-down, or nil
// when the trace is absent.
func kthMonth(t testing.TB) *rigid.Workload {
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is absent (download it from the Parallel Workloads Archive into ../shared/traces/): the hand-made fixture only", kthTrace)
		return nil
	}
	tr, err := rigidtrace.Load(kthTrace, rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(rigidtrace.Month{Year: 1996, Month: 10})
	if err != nil {
		t.Fatal(err)
	}
	return &mw.Workload
}

// simulateRigid runs a rigid workload under a policy process.
func simulateRigid(t testing.TB, w *rigid.Workload, v rigid.Variant, opts Options) (*backfill.Schedule, error) {
	r, err := StartRigid(context.Background(), opts, w.Procs, len(w.Jobs), v.String(), w.Name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return backfill.Simulate(context.Background(), w, v, backfill.Policy{Decider: r})
}

// A Go EASY over the pipe reproduces the built-in fcfs-easy job for job:
// the fixture's backfill (job 2 at 1 s, job 1 at 10 s) and KTH 1996-10
// under both estimate variants.
func TestRigidEASYOverThePipeIsBuiltin(t *testing.T) {
	ws := []*rigid.Workload{fixture()}
	if w := kthMonth(t); w != nil {
		ws = append(ws, w)
	}
	for _, w := range ws {
		for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
			want, err := backfill.Simulate(context.Background(), w, v, backfill.FCFSEasy())
			if err != nil {
				t.Fatal(err)
			}
			got, err := simulateRigid(t, w, v, clientOptions(t, "easy"))
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Rigid(w, v, got); err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got.StartSeconds, want.StartSeconds); i >= 0 {
				t.Fatalf("%s %v: job %d starts at %d s over the pipe, %d s built-in", w.Name, v, i, got.StartSeconds[i], want.StartSeconds[i])
			}
			t.Logf("%s %v: %d decisions, same starts as fcfs-easy", w.Name, v, got.Stats.Passes)
		}
	}
	if got, _ := simulateRigid(t, fixture(), rigid.EstimateExact, clientOptions(t, "easy")); !slices.Equal(got.StartSeconds, []int64{0, 10, 1, 15}) {
		t.Errorf("fixture starts %v, want [0 10 1 15]", got.StartSeconds)
	}
}

func firstDiff(a, b []int64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// Every fault of a policy fails the simulation with the decision, its
// simulation time and the policy's last stderr lines.
func TestRigidFaults(t *testing.T) {
	w := &rigid.Workload{Name: "faults", Procs: 4}
	for i := range 10 {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: 1, SubmitSeconds: int64(10 * i), Procs: 3, RunSeconds: 15, RequestedSeconds: 15})
	}
	tests := []struct{ mode, want string }{
		// Hand-computed: job 0 starts at 0 s (decision 2, after the
		// hello); job 1 waits for it and starts at 15 s (decision 3);
		// at 30 s job 1 ends, jobs 2 and 3 wait, 4 processors are free.
		{"exit", `decision 4 (decide: 2 submitted, 1 finished, 4 free) at 30 s: the decision process exited with status 7`},
		{"crash", "exited with status 2"},
		{"garbage", `decision 4 (decide: 2 submitted, 1 finished, 4 free) at 30 s: invalid reply "this is not JSON"`},
		{"unknown", "at 30 s: start: unknown job 123456 (jobs are 0 to 9)"},
		{"early", "decision 2 (decide: 1 submitted, 0 finished, 4 free) at 0 s: start: job 6 is not submitted yet (it is submitted at 60 s)"},
		{"toowide", "is not waiting: it was started already"},
		{"hang", "no answer within the decision deadline (1s)"},
		{"old", "decision 1 (hello) at 0 s: the policy speaks protocol version 0; this sweep speaks 1"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			opts := clientOptions(t, tt.mode)
			opts.DecisionTimeout = time.Second
			_, err := simulateRigid(t, w, rigid.EstimateExact, opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
	// The exit's and the hang's stderr lines come with their faults.
	if _, err := simulateRigid(t, w, rigid.EstimateExact, clientOptions(t, "exit")); err == nil || !strings.Contains(err.Error(), "its last 1 stderr lines:\n\tgiving up at decision 3") {
		t.Errorf("exit: %v, want its stderr line", err)
	}
	opts := clientOptions(t, "hang")
	opts.DecisionTimeout = time.Second
	if _, err := simulateRigid(t, w, rigid.EstimateExact, opts); err == nil || !strings.Contains(err.Error(), "thinking forever") {
		t.Errorf("hang: %v, want its stderr line", err)
	}
}

// dagInstance is a burkimsher2013 instance (fan-chain, instance 0, root
// seed 2013) at load 0.9 on the burkimsher2013 platform.
func dagInstance(t testing.TB) *grid.Instance {
	p, err := gridgen.Lookup("burkimsher2013/fan-chain")
	if err != nil {
		t.Fatal(err)
	}
	w, err := gridgen.Generate(p.Defaults(), 2013, 0)
	if err != nil {
		t.Fatal(err)
	}
	plat := platform.Burkimsher2013()
	if err := gridgen.SetArrivals(w, plat.TotalCores(), 0.9); err != nil {
		t.Fatal(err)
	}
	in, err := grid.Compile(w, plat, grid.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// A DAG policy over the pipe that gives each job its arrival is fifo-job,
// task for task, and one that gives its volume is its Go twin.
func TestDAGOverThePipe(t *testing.T) {
	in := dagInstance(t)
	for _, c := range []struct {
		mode string
		twin grid.Options
	}{
		{"fifo-job", grid.Options{Policy: "fifo-job"}},
		{"volume", grid.Options{Order: grid.JobPriorityOrders(func(v *grid.View, jobs []int) []float64 {
			out := make([]float64, len(jobs))
			for i, j := range jobs {
				out[i] = float64(v.Instance().Volume(j))
			}
			return out
		})}},
	} {
		want, err := grid.Simulate(context.Background(), in, c.twin)
		if err != nil {
			t.Fatal(err)
		}
		d, ctx, err := StartDAG(context.Background(), clientOptions(t, c.mode), in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := grid.Simulate(ctx, in, grid.Options{Order: grid.JobPriorityOrders(d.Priority)})
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Schedule(got, "random"); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.TaskStart, want.TaskStart) || !slices.Equal(got.TaskCluster, want.TaskCluster) {
			t.Fatalf("%s over the pipe differs from its Go twin", c.mode)
		}
		t.Logf("%s: %d jobs, %d tasks, %d exchanges, same schedule", c.mode, in.Jobs(), in.Tasks(), d.c.n)
	}
}

// A DAG policy's fault cancels the simulation and comes back as the
// cell's error.
func TestDAGFault(t *testing.T) {
	in := dagInstance(t)
	d, ctx, err := StartDAG(context.Background(), clientOptions(t, "garbage"), in)
	if err != nil {
		t.Fatal(err)
	}
	_, err = grid.Simulate(ctx, in, grid.Options{Order: grid.JobPriorityOrders(d.Priority)})
	d.Close()
	if err == nil || d.Err() == nil || !strings.Contains(d.Err().Error(), `decision 4 (jobs: 1 new)`) {
		t.Fatalf("simulation: %v; policy: %v", err, d.Err())
	}
}

const parentEnv, readyEnv = "SWEEP_PIPE_PARENT", "SWEEP_PIPE_READY"

// A kill -9 of the simulator runs no cleanup: the parent-death signal
// ends the policy process (checked in /proc).
func TestNothingOutlivesAKilledSimulator(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "ready")
	parent := exec.Command(os.Args[0], "-test.run=^TestKilledSimulatorParent$")
	parent.Env = append(os.Environ(), parentEnv+"=1", readyEnv+"="+ready)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the policy never reached its hang")
		}
		if b, err := os.ReadFile(ready); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if processGone(pid) {
		t.Fatalf("policy %d is not running before the kill", pid)
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	for deadline := time.Now().Add(5 * time.Second); !processGone(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("policy %d outlived the killed simulator", pid)
		}
	}
}

// TestKilledSimulatorParent is the simulator the test above kills: it
// runs a policy that hangs at its fourth decision.
func TestKilledSimulatorParent(t *testing.T) {
	if os.Getenv(parentEnv) == "" {
		t.Skip("run by TestNothingOutlivesAKilledSimulator")
	}
	w := &rigid.Workload{Name: "hang", Procs: 4}
	for i := range 10 {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: int64(10 * i), Procs: 3, RunSeconds: 15, RequestedSeconds: 15})
	}
	opts := clientOptions(t, "hang")
	opts.Env = append(opts.Env, readyEnv+"="+os.Getenv(readyEnv))
	opts.DecisionTimeout = time.Hour
	simulateRigid(t, w, rigid.EstimateExact, opts)
}

// processGone reports whether pid no longer runs: absent, or a zombie
// left for init to reap.
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// BenchmarkRoundTrip measures one decision with a Go policy: encode, a
// write and a read over the pipes, the policy's decode and answer, and
// the reply's decode. Besides wall time per decision it reports the CPU
// time of both processes per decision (getrusage, the policy's counted
// once it is reaped), which a loaded machine inflates less.
func BenchmarkRoundTrip(b *testing.B) {
	// One job every 2 s running 1 s on 1 processor, each started at
	// once by the "all" policy: every decision tells one submission and
	// one completion and starts one job, and no queue grows.
	w := &rigid.Workload{Name: "bench", Procs: 4}
	for i := range b.N {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: int64(2 * i), Procs: 1, RunSeconds: 1, RequestedSeconds: 1})
	}
	r, err := StartRigid(context.Background(), clientOptions(b, "all"), w.Procs, len(w.Jobs), "T", w.Name)
	if err != nil {
		b.Fatal(err)
	}
	before := cpuTime()
	b.ResetTimer()
	_, err = backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: r})
	b.StopTimer()
	decisions := r.c.n - 1 // not the hello
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions)/1000, "us/decision")
	b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(decisions)/1000, "cpu-us/decision")
}

// cpuTime is the user and system time of this process and its reaped
// children.
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
}
