package batsim

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// kthTrace and sdscTrace are logs in the shared trace folder; they are
// never copied into the repository.
const (
	kthTrace  = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"
	sdscTrace = "../../../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz"
)

// job builds a rigid job whose requested time is its run time unless
// given.
func job(submit int64, procs int, run, req int64) rigid.Job {
	return rigid.Job{SubmitSeconds: submit, Procs: procs, RunSeconds: run, RequestedSeconds: max(req, run)}
}

func workload(name string, procs int, jobs ...rigid.Job) *rigid.Workload {
	w := &rigid.Workload{Name: name, Procs: procs, Jobs: jobs}
	for i := range w.Jobs {
		w.Jobs[i].Number = int64(i + 1)
	}
	return w
}

// builtinStarts runs the built-in fcfs-easy with requested times as
// estimates (variant R: what Batsim's walltime tells a scheduler).
func builtinStarts(t testing.TB, w *rigid.Workload) []int64 {
	t.Helper()
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, backfill.FCFSEasy())
	if err != nil {
		t.Fatal(err)
	}
	return sched.StartSeconds
}

func pybatsimSchedule(t testing.TB, w *rigid.Workload, scheduler string) *Schedule {
	t.Helper()
	sched, err := Simulate(context.Background(), w, Options{Command: []string{enginetest.Pybatsim(t), "-v", "warning", scheduler}})
	if err != nil {
		t.Fatal(err)
	}
	return sched
}

func pybatsimStarts(t testing.TB, w *rigid.Workload, scheduler string) []int64 {
	t.Helper()
	sched := pybatsimSchedule(t, w, scheduler)
	starts := make([]int64, len(sched.StartNanos))
	for i, n := range sched.StartNanos {
		starts[i] = -1
		if n >= 0 {
			// Whole seconds here: pybatsim's delay of 1e-21 s rounds away.
			starts[i] = n / placement.NanosPerSecond
		}
	}
	return starts
}

// The two causes of difference between pybatsim's easyBackfill and the
// built-in fcfs-easy, each on a hand-made trace with hand-computed
// schedules.
func TestCausesOfDifference(t *testing.T) {
	cases := []struct {
		name              string
		w                 *rigid.Workload
		builtin, pybatsim []int64
	}{
		{
			// Contiguous allocation: pybatsim's EasyBackfill places jobs
			// as rectangles of consecutive resources. Jobs 0-3 take one
			// resource each, 0 to 3 in order; jobs 1 and 3 end at 2,
			// freeing 1 and 3. Job 4 (2 resources) fits the 2 free
			// resources at once in the built-in model, but no 2
			// consecutive ones are free until job 0 ends at 10 (0-1).
			name: "contiguous allocation",
			w: workload("contiguous", 4,
				job(0, 1, 10, 0), job(0, 1, 2, 0), job(0, 1, 10, 0), job(0, 1, 2, 0),
				job(2, 2, 5, 0)),
			builtin:  []int64{0, 0, 0, 0, 2},
			pybatsim: []int64{0, 0, 0, 0, 10},
		},
		{
			// A pass per event: pybatsim schedules after each event of a
			// message, the built-in once per instant after every event.
			// Jobs 0 and 1 (2 resources each) both end at 10; job 1 asked
			// for 50 s. Job 2 (4 resources) waits at the head; job 3 (2
			// resources, 20 s) waits behind it. At 10 the built-in sees
			// both ends and starts job 2, then job 3 at 15. pybatsim
			// schedules after job 0's end alone: job 1 is estimated to
			// run until 50, so job 2's reservation is at 50 and job 3
			// (ending at 30) is backfilled on 0-1; job 2 then waits for
			// it until 30.
			name: "a pass per event",
			w: workload("per event", 4,
				job(0, 2, 10, 10), job(0, 2, 10, 50), job(1, 4, 5, 5), job(1, 2, 20, 20)),
			builtin:  []int64{0, 0, 10, 15},
			pybatsim: []int64{0, 0, 30, 10},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := builtinStarts(t, c.w); !equal(got, c.builtin) {
				t.Errorf("built-in fcfs-easy starts %v, want %v", got, c.builtin)
			}
			if got := pybatsimStarts(t, c.w, "easyBackfill"); !equal(got, c.pybatsim) {
				t.Errorf("pybatsim easyBackfill starts %v, want %v", got, c.pybatsim)
			}
		})
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// On the hand-made fixture the two agree job for job.
func TestEasyAgreesOnFixture(t *testing.T) {
	w := fixtureWorkload()
	want := []int64{0, 10, 1, 15} // job 2 backfilled at 1: it ends at 5, before job 0's requested end at 20
	if got := builtinStarts(t, w); !equal(got, want) {
		t.Errorf("built-in fcfs-easy starts %v, want %v", got, want)
	}
	if got := pybatsimStarts(t, w, "easyBackfill"); !equal(got, want) {
		t.Errorf("pybatsim easyBackfill starts %v, want %v", got, want)
	}
}

func kthMonth(t testing.TB, month string) *rigid.Workload {
	t.Helper()
	return traceMonth(t, kthTrace, month)
}

func traceMonth(t testing.TB, trace, month string) *rigid.Workload {
	t.Helper()
	if _, err := os.Stat(trace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download it from the Parallel Workloads Archive into ../shared/traces/ to run this", trace)
	}
	tr, err := rigidtrace.Load(trace, rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := rigidtrace.ParseMonth(month)
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(m)
	if err != nil {
		t.Fatal(err)
	}
	return &mw.Workload
}

// The share of measured jobs of a trace month that start at the same
// second under pybatsim's easyBackfill and the built-in EASY, with each
// combination of the two modelling options: each cause alone explains
// part of the difference, both together all of it.
func TestEasyAgreementOnTraceMonths(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole trace month under pybatsim takes seconds")
	}
	for _, c := range []struct{ trace, month string }{{kthTrace, "1996-10"}, {sdscTrace, "1998-06"}} {
		w := traceMonth(t, c.trace, c.month)
		py := pybatsimStarts(t, w, "easyBackfill")
		for _, placed := range []backfill.Placement{backfill.PlaceProcessors, backfill.PlaceContiguous} {
			for _, pass := range []backfill.Pass{backfill.PassPerInstant, backfill.PassPerEvent} {
				p := backfill.FCFSEasy()
				p.Placement, p.Pass = placed, pass
				sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, p)
				if err != nil {
					t.Fatal(err)
				}
				same, measured := 0, 0
				for i := range w.Jobs {
					if w.Measured(i) {
						measured++
						if py[i] == sched.StartSeconds[i] {
							same++
						}
					}
				}
				t.Logf("%s, variant R, placement %s, pass %s: %d of %d measured jobs (%.1f%%) start at the same second",
					w.Name, placed, pass, same, measured, 100*float64(same)/float64(measured))
				if measured == 0 || same == 0 || placed == backfill.PlaceContiguous && pass == backfill.PassPerEvent && same != measured {
					t.Errorf("%s: %d of %d measured jobs agree", w.Name, same, measured)
				}
			}
		}
	}
}

// The protocol path adds no difference of its own: a Go scheduler with
// engine/backfill's EASY rules on non-contiguous resources, one pass per
// message, reproduces the built-in fcfs-easy job for job, on the
// hand-made traces and on KTH and SDSC-SP2 months. So the differences above are
// pybatsim's algorithm, not the simulator.
func TestGoEasyOverTheSocketAgreesWithBuiltin(t *testing.T) {
	ws := []*rigid.Workload{
		fixtureWorkload(),
		workload("contiguous", 4, job(0, 1, 10, 0), job(0, 1, 2, 0), job(0, 1, 10, 0), job(0, 1, 2, 0), job(2, 2, 5, 0)),
		workload("per event", 4, job(0, 2, 10, 10), job(0, 2, 10, 50), job(1, 4, 5, 5), job(1, 2, 20, 20)),
	}
	if !testing.Short() {
		for _, tm := range []struct{ trace, month string }{{kthTrace, "1996-10"}, {sdscTrace, "1998-06"}} {
			if _, err := os.Stat(tm.trace); err == nil {
				ws = append(ws, traceMonth(t, tm.trace, tm.month))
			}
		}
	}
	for _, w := range ws {
		sched, err := Simulate(context.Background(), w, schedulerCommand(t, "easy"))
		if err != nil {
			t.Fatal(err)
		}
		builtin := builtinStarts(t, w)
		differ := 0
		for i := range sched.MustDecide {
			if sched.StartNanos[i] != builtin[i]*placement.NanosPerSecond {
				if differ == 0 {
					t.Errorf("%s: job %d starts at %d ns over the socket, at %d s built in", w.Name, i, sched.StartNanos[i], builtin[i])
				}
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%s: %d of %d jobs differ", w.Name, differ, sched.MustDecide)
		}
		t.Logf("%s: %d jobs, %d exchanges, all at the built-in's second", w.Name, sched.MustDecide, sched.Counts.Requests)
	}
}

// pybatsimEasy is the built-in EASY with the two modelling options on
// which pybatsim 3.2.1's easyBackfill differs: contiguous placement with
// its block choice, and a pass per event.
func pybatsimEasy() backfill.Policy {
	p := backfill.FCFSEasy()
	p.Placement, p.Pass = backfill.PlaceContiguous, backfill.PassPerEvent
	return p
}

// With both options the built-in agrees with pybatsim 3.2.1's unmodified
// easyBackfill job for job: on the hand-made traces of every cause, and
// on KTH 1996-10 and SDSC-SP2 1998-06 when the traces are present. The
// built-in schedule carries resource ids and passes the resource-id
// validator.
func TestContiguousEasyAgreesWithPybatsim(t *testing.T) {
	ws := []*rigid.Workload{
		fixtureWorkload(),
		workload("contiguous", 4, job(0, 1, 10, 0), job(0, 1, 2, 0), job(0, 1, 10, 0), job(0, 1, 2, 0), job(2, 2, 5, 0)),
		workload("per event", 4, job(0, 2, 10, 10), job(0, 2, 10, 50), job(1, 4, 5, 5), job(1, 2, 20, 20)),
		// engine/backfill's hand-computed cases of the block rules: a
		// block freed next to a free block below is allocated from its
		// highest ids; a free block inside the head's reservation is
		// not shortened (the built-in starts job 5 at 1002, job 6 at 2).
		workload("highest ids", 4, job(0, 1, 5, 0), job(0, 1, 8, 0), job(0, 2, 20, 0), job(9, 1, 5, 0), job(9, 2, 5, 0)),
		workload("inside the reservation", 5, job(0, 1, 10, 0), job(0, 1, 100, 0), job(0, 1, 1, 10), job(0, 1, 100, 0), job(0, 1, 10, 0),
			job(2, 5, 10, 0), job(2, 1, 1000, 0)),
	}
	if !testing.Short() {
		for _, tm := range []struct{ trace, month string }{{kthTrace, "1996-10"}, {sdscTrace, "1998-06"}} {
			if _, err := os.Stat(tm.trace); err == nil {
				ws = append(ws, traceMonth(t, tm.trace, tm.month))
			} else {
				t.Logf("%s is absent: the trace month is not compared", tm.trace)
			}
		}
	}
	for _, w := range ws {
		py := pybatsimSchedule(t, w, "easyBackfill")
		sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, pybatsimEasy())
		if err != nil {
			t.Fatal(err)
		}
		plan := sched.ResourceSchedule(w)
		if err := placement.Check(w.Procs, Jobs(w), 0, &plan); err != nil {
			t.Errorf("%s: the built-in's contiguous schedule is invalid: %v", w.Name, err)
		}
		differ, compared := 0, 0
		for _, r := range plan.Runs {
			i := r.Job
			compared++
			// Whole seconds: pybatsim starts jobs at the message's time.
			if pyStart, pyIDs := py.StartNanos[i], py.Resources[i]; pyStart != r.StartNanos || !slices.Equal(pyIDs, r.Resources) {
				if differ < 5 {
					t.Errorf("%s: job %d (submitted %d s, %d procs) starts at %d s on %s built in, at %d ns on %s under pybatsim", w.Name, i,
						w.Jobs[i].SubmitSeconds, w.Jobs[i].Procs, r.StartNanos/placement.NanosPerSecond, formatIntervals(r.Resources), pyStart, formatIntervals(pyIDs))
				}
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%s: %d of %d jobs differ", w.Name, differ, compared)
		}
		t.Logf("%s: %d of %d started jobs at pybatsim's second on pybatsim's resources", w.Name, compared-differ, compared)
	}
}
