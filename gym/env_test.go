package gym

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/policy/child"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// smallTrace writes an SWF log of 8 processors: 200 jobs of 1-8
// processors, one every 60 s, run times 100-1900 s, requests twice the run
// time, 5 users (python/tests/test_gym.py's too).
func smallTrace(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n; MaxNodes: 8\n")
	for i := range 200 {
		run := 100 + (i*37)%1800
		procs := 1 + (i*5)%8
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 %d 1 1 1 1 -1 -1\n", i+1, 60*i, run, procs, procs, 2*run, 1+i%5)
	}
	path := filepath.Join(t.TempDir(), "small.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSlotZeroIsFCFS: under the sweep preset the slots are the waiting jobs
// in submit order, so an agent that always picks slot 0 is fcfs; its
// schedule is the built-in fcfs's under head committed, job for job, with
// and without EASY, and its reward minus that schedule's mean bounded
// slowdown.
func TestSlotZeroIsFCFS(t *testing.T) {
	path := smallTrace(t)
	for _, bf := range []string{"none", "easy"} {
		t.Run(bf, func(t *testing.T) {
			envs, err := NewEnvs(&Config{Workload: path, Jobs: 120, Backfill: bf, Queue: 200})
			if err != nil {
				t.Fatal(err)
			}
			e := envs[0]
			ctx := context.Background()
			if err := e.Reset(ctx, -1, 40); err != nil {
				t.Fatal(err)
			}
			obs, mask := make([]float32, 200*8), make([]uint8, 200)
			var reward float64
			for done := false; !done; {
				e.Observe(obs, mask)
				if reward, done, err = e.Step(ctx, 0); err != nil {
					t.Fatal(err)
				}
			}
			p := backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict, Head: backfill.HeadCommitted}
			if bf == "easy" {
				p.Allocation = backfill.AllocEASY
			}
			want, err := backfill.Simulate(ctx, e.ep.w, rigid.EstimateRequested, p)
			if err != nil {
				t.Fatal(err)
			}
			got := e.st.Schedule()
			if !slices.Equal(got.StartSeconds, want.StartSeconds) {
				t.Fatalf("starts differ from fcfs-%s's", bf)
			}
			if err := verify.Rigid(e.ep.w, rigid.EstimateRequested, got); err != nil {
				t.Fatal(err)
			}
			var bsld float64
			for i, j := range e.ep.w.Jobs {
				run := j.RunSeconds
				bsld += max(1, float64(want.StartSeconds[i]-j.SubmitSeconds+run)/float64(max(run, 10)))
			}
			bsld /= float64(len(e.ep.w.Jobs))
			if math.Abs(reward+bsld) > 1e-12*bsld {
				t.Errorf("reward %g, want minus fcfs's mean bounded slowdown %g", reward, bsld)
			}
		})
	}
}

// TestServe runs a session over pipes: the setup, a reset pinned to job 7
// and a step, checking the frames' fields by hand. Job 7 (SWF job 8) is
// submitted at 420 s with 4 processors (1 + 7*5 mod 8), alone on the empty
// machine: present, no wait, its request 2*(100 + 7*37) = 718 s over the
// log's longest request, 4/8 processors, fits, its user holds nothing, all
// 8 processors free, 1 of 4 slots waiting. Picking it, the episode of 3
// jobs goes on to job 8's submit (480 s).
func TestServe(t *testing.T) {
	path := smallTrace(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), inR, outW); outW.Close() }()
	setupLine, _ := json.Marshal(Config{Workload: path, Jobs: 3, Queue: 4})
	go inW.Write(append(setupLine, '\n'))
	var line []byte
	for b := make([]byte, 1); ; {
		if _, err := outR.Read(b); err != nil {
			t.Fatal(err)
		}
		if b[0] == '\n' {
			break
		}
		line = append(line, b[0])
	}
	var setup Setup
	if err := json.Unmarshal(line, &setup); err != nil || setup.Error != "" {
		t.Fatalf("setup %s: %v", line, err)
	}
	n, k, f, i := 1, 4, 8, len(InfoFields)
	if want := 8 + 8*n + 8*n*i + 4*n*k*f + n*k + 2*n; setup.FrameBytes != want {
		t.Fatalf("frame of %d bytes, want %d", setup.FrameBytes, want)
	}
	frame := make([]byte, setup.FrameBytes)
	request := func(op uint32, payload ...any) {
		var b bytes.Buffer
		binary.Write(&b, binary.LittleEndian, op)
		for _, p := range payload {
			binary.Write(&b, binary.LittleEndian, p)
		}
		go inW.Write(b.Bytes())
		if _, err := io.ReadFull(outR, frame); err != nil {
			t.Fatal(err)
		}
		if s := binary.LittleEndian.Uint32(frame); s != 0 {
			t.Fatalf("status %d: %s", s, frame[8:])
		}
	}
	f64 := func(off int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(frame[off:])) }
	f32 := func(off int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(frame[off:])) }
	infoAt, obsAt := 8+8*n, 8+8*n+8*n*i
	maskAt := obsAt + 4*n*k*f

	request(OpReset, int64(5), int64(7))
	if f64(infoAt) != 7 || f64(infoAt+8) != 420 {
		t.Fatalf("info first %g, now %g: want 7, 420", f64(infoAt), f64(infoAt+8))
	}
	var maxRequest float32 // the log's longest request, 2*(100 + 1789) = 3778 s
	for j := range 200 {
		maxRequest = max(maxRequest, float32(2*(100+(j*37)%1800)))
	}
	row := []float32{1, 0, float32(718) / maxRequest, 0.5, 1, 0, 1, 0.25}
	for c, want := range row {
		if got := f32(obsAt + 4*c); got != want {
			t.Errorf("feature %s %g, want %g", featureName(c), got, want)
		}
	}
	if !slices.Equal(frame[maskAt:maskAt+k], []byte{1, 0, 0, 0}) {
		t.Errorf("mask %v, want only slot 0", frame[maskAt:maskAt+k])
	}
	request(OpStep, int32(0))
	if f64(infoAt+8) != 480 || f64(8) != 0 || frame[maskAt+n*k] != 0 {
		t.Errorf("after the step: now %g, reward %g, terminated %d: want 480, 0, 0", f64(infoAt+8), f64(8), frame[maskAt+n*k])
	}
	inW.Close() // the client dies: the server returns
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// featureName names feature c of the sweep preset, for messages.
func featureName(c int) string { return strings.Split(sweepFeatures, ",")[c] }

func TestConfigErrors(t *testing.T) {
	path := smallTrace(t)
	cases := []struct {
		c    Config
		want string
	}{
		{Config{}, "workload: want an SWF file or lublin1999"},
		{Config{Workload: path, Backfill: "conservative"}, `backfill "conservative": want none or easy`},
		{Config{Workload: path, Preset: "hpc"}, `preset "hpc": want sweep or rlscheduler`},
		{Config{Workload: path, Reward: "makespan"}, `reward "makespan": want bsld`},
		{Config{Workload: path, Jobs: 500}, "has 200 jobs: fewer than jobs 500 + warmup 0"},
		{Config{Workload: path, Preset: PresetRLScheduler, Reward: "wait"}, "the rlscheduler preset is HPCEnv's"},
		{Config{Workload: path, Procs: 64}, "an SWF file's header gives the machine"},
		{Config{Workload: LublinWorkload, Load: 1.5}, "must be > 0 and < 1"},
	}
	for _, c := range cases {
		if _, err := NewEnvs(&c.c); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.c, err, c.want)
		}
	}
}

// TestWarmUp: the warm-up jobs start before the agent is asked, in the
// order's choice, and the reward counts the episode's jobs only.
func TestWarmUp(t *testing.T) {
	path := smallTrace(t)
	envs, err := NewEnvs(&Config{Workload: path, Jobs: 10, WarmUpJobs: 20})
	if err != nil {
		t.Fatal(err)
	}
	e := envs[0]
	ctx := context.Background()
	if err := e.Reset(ctx, -1, 50); err != nil {
		t.Fatal(err)
	}
	if e.ep.w.Jobs[0].Number != 31 || e.ep.warmUp != 20 {
		t.Fatalf("episode from SWF job %d with %d warm-up jobs, want 31 and 20", e.ep.w.Jobs[0].Number, e.ep.warmUp)
	}
	for _, j := range e.st.State().Waiting {
		if j < 20 {
			t.Fatalf("warm-up job %d waits at the first decision", j)
		}
	}
}

// slotZero is an Actor that reads the frame as an agent process does and
// picks slot 0 when it holds a job.
type slotZero struct{ k, f int }

func (a slotZero) Act(_ context.Context, _ child.Decision, frame []byte) (int, error) {
	maskAt := 8 + 8 + 8*len(InfoFields) + 4*a.k*a.f
	if frame[maskAt] != 1 {
		return 0, fmt.Errorf("slot 0 is empty at a decision")
	}
	return 0, nil
}

// TestEvaluateSlotZeroIsFCFS: evaluating an agent (the code a manifest's
// agent entry runs) that picks slot 0 gives fcfs's schedule under head
// committed with EASY, as the environment does (TestSlotZeroIsFCFS).
func TestEvaluateSlotZeroIsFCFS(t *testing.T) {
	path := smallTrace(t)
	c := Config{Workload: path, Jobs: 120, Backfill: "easy", Queue: 16}
	w, sched, m, err := EvaluateWindow(context.Background(), c, 30, slotZero{16, 8})
	if err != nil {
		t.Fatal(err)
	}
	p := backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocEASY, Head: backfill.HeadCommitted}
	want, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sched.StartSeconds, want.StartSeconds) || w.Jobs[0].Number != 31 || m.BSLD < 1 {
		t.Fatalf("window from SWF job %d, bsld %g: starts differ from fcfs-easy's", w.Jobs[0].Number, m.BSLD)
	}
}

// TestParallelStepIsSequential: a vector session's frames do not depend on
// how many workers step it (run it under -race too).
func TestParallelStepIsSequential(t *testing.T) {
	path := smallTrace(t)
	var req bytes.Buffer
	binary.Write(&req, binary.LittleEndian, OpReset)
	for i := range 16 {
		binary.Write(&req, binary.LittleEndian, [2]int64{int64(100 + i), -1})
	}
	for range 300 {
		binary.Write(&req, binary.LittleEndian, OpStep)
		for range 16 {
			binary.Write(&req, binary.LittleEndian, int32(0))
		}
	}
	frames := func(workers int) []byte {
		c := &Config{Workload: path, Jobs: 20, Queue: 8, Envs: 16}
		envs, err := NewEnvs(c)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		s := &session{envs: envs, fr: newFrame(16, 8, 8), in: bufio.NewReader(bytes.NewReader(req.Bytes())), out: &out,
			autoreset: true, workers: workers, errs: make([]error, workers)}
		if err := s.run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	one, two := frames(1), frames(2)
	if len(one) != 301*len(newFrame(16, 8, 8).buf) || !bytes.Equal(one, two) {
		t.Fatalf("frames of 1 worker (%d bytes) and 2 workers (%d bytes) differ", len(one), len(two))
	}
}
