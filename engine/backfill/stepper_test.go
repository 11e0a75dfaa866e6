package backfill_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestStepperHandSchedule steps a 4-processor machine by hand. Jobs (index:
// submit s, processors, run = request s): 0: 0, 2, 10; 1: 0, 3, 5; 2: 0, 1,
// 4; 3: 1, 2, 2. The agent picks 1, 0, 3, 2 in turn.
//
// Without backfilling: at 0, job 1 starts (1 processor left) and job 0,
// which needs 2, is committed; nothing is asked until it fits. At 5 job 1
// ends: job 0 starts; the agent picks 3, which starts at 5 (0 left), then 2,
// committed; it starts when job 3 ends, at 7.
//
// With EASY: job 0 committed at 0 is promised 5 (job 1's estimated end, 4
// processors then, 2 spare) and job 2 (1 processor, ends at 4 <= 5) is
// backfilled at 0. At 5 job 0 starts and the agent's pick, 3, starts too;
// the agent's last pick (2) is never asked for.
func TestStepperHandSchedule(t *testing.T) {
	w := &rigid.Workload{Name: "hand", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 10, RequestedSeconds: 10},
		{Number: 2, SubmitSeconds: 0, Procs: 3, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 3, SubmitSeconds: 0, Procs: 1, RunSeconds: 4, RequestedSeconds: 4},
		{Number: 4, SubmitSeconds: 1, Procs: 2, RunSeconds: 2, RequestedSeconds: 2},
	}}
	cases := []struct {
		name         string
		alloc        backfill.Allocation
		picks        []int
		starts       []int64
		reservations []backfill.Reservation
		startOrder   []int
	}{
		{"none", backfill.AllocStrict, []int{1, 0, 3, 2}, []int64{5, 0, 7, 5}, nil, []int{1, 0, 3, 2}},
		{"easy", backfill.AllocEASY, []int{1, 0, 3}, []int64{5, 0, 0, 5},
			[]backfill.Reservation{{AtSeconds: 0, Head: 0, ShadowSeconds: 5}}, []int{1, 2, 0, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := backfill.NewStepper(w, rigid.EstimateRequested, backfill.Policy{Order: backfill.OrderFCFS, Allocation: c.alloc}, 0)
			if err != nil {
				t.Fatal(err)
			}
			var picks []int
			for {
				open, err := st.Next(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if !open {
					break
				}
				if len(picks) == len(c.picks) {
					t.Fatalf("decision %d asked at %d s, want %d decisions", len(picks)+1, st.State().NowSeconds, len(c.picks))
				}
				if err := st.Start(c.picks[len(picks)]); err != nil {
					t.Fatal(err)
				}
				picks = append(picks, c.picks[len(picks)])
			}
			if len(picks) != len(c.picks) {
				t.Fatalf("%d decisions, want %d", len(picks), len(c.picks))
			}
			sched := st.Schedule()
			if !slices.Equal(sched.StartSeconds, c.starts) {
				t.Errorf("starts %v, want %v", sched.StartSeconds, c.starts)
			}
			if !slices.Equal(sched.Reservations, c.reservations) {
				t.Errorf("reservations %v, want %v", sched.Reservations, c.reservations)
			}
			if !slices.Equal(st.StartOrder(), c.startOrder) {
				t.Errorf("start order %v, want %v", st.StartOrder(), c.startOrder)
			}
			if err := verify.Rigid(w, rigid.EstimateRequested, sched); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestStepperIsBuiltin steps with the built-in order's pick at every
// decision and gets the built-in's schedule under head committed, job for
// job and reservation for reservation, without backfilling and with EASY:
// on the synthetic month, a Lublin-Feitelson instance and RLScheduler's
// SDSC-SP2 sequences.
func TestStepperIsBuiltin(t *testing.T) {
	ws := []*rigid.Workload{syntheticMonth(), lublinInstance(t)}
	if _, err := os.Stat(sdscSP2Trace); errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is absent: checking the synthetic month only", sdscSP2Trace)
	} else {
		jobs, procs := rlschedulerJobs(t, sdscSP2Trace)
		for _, seq := range rlschedulerSDSCSP2[:3] {
			ws = append(ws, &rigid.Workload{Name: fmt.Sprintf("SDSC-SP2 [%d, +1024)", seq.firstJob), Procs: procs,
				Jobs: jobs[seq.firstJob : seq.firstJob+rlschedulerSequenceJobs]})
		}
	}
	orders := []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF, backfill.OrderF1, backfill.OrderLXF, backfill.OrderRelShare}
	for _, w := range ws {
		for _, o := range orders {
			for _, alloc := range []backfill.Allocation{backfill.AllocStrict, backfill.AllocEASY} {
				p := backfill.Policy{Order: o, Allocation: alloc, Head: backfill.HeadCommitted, Kill: rigid.KillNever}
				t.Run(fmt.Sprintf("%s/%v/backfill=%v", w.Name, o, alloc == backfill.AllocEASY), func(t *testing.T) {
					stepBuiltin(t, w, p)
				})
			}
		}
	}
}

// lublinInstance is 2,000 Lublin-Feitelson jobs on 256 processors with
// Tsafrir's estimates (gen/rigid, published parameters, seed 33).
func lublinInstance(t *testing.T) *rigid.Workload {
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), 256, 2000, [2]uint64{33, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), [2]uint64{33, 2}); err != nil {
		t.Fatal(err)
	}
	w.Name = "lublin1999 seed 33"
	return w
}

func stepBuiltin(t *testing.T, w *rigid.Workload, p backfill.Policy) {
	want, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := backfill.NewStepper(w, rigid.EstimateRequested, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	decisions := 0
	for {
		open, err := st.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !open {
			break
		}
		decisions++
		if err := st.Start(st.BuiltinPick()); err != nil {
			t.Fatal(err)
		}
	}
	got := st.Schedule()
	if err := verify.Rigid(w, rigid.EstimateRequested, got); err != nil {
		t.Fatal(err)
	}
	for i := range want.StartSeconds {
		if got.StartSeconds[i] != want.StartSeconds[i] {
			t.Fatalf("job %d starts at %d s, built-in at %d s", i, got.StartSeconds[i], want.StartSeconds[i])
		}
	}
	if !slices.Equal(got.EndSeconds, want.EndSeconds) || !slices.Equal(got.Reservations, want.Reservations) {
		t.Fatalf("ends or reservations differ: %d reservations, built-in %d", len(got.Reservations), len(want.Reservations))
	}
	if p.Allocation == backfill.AllocStrict && decisions < len(w.Jobs) {
		t.Fatalf("%d decisions for %d jobs: without backfilling every job is picked", decisions, len(w.Jobs))
	}
}

// TestStepperFaults: a pick that names no waiting job fails with what it
// named.
func TestStepperFaults(t *testing.T) {
	w := &rigid.Workload{Name: "faults", Procs: 2, Jobs: []rigid.Job{
		{Number: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 10, RequestedSeconds: 10},
		{Number: 2, SubmitSeconds: 5, Procs: 1, RunSeconds: 5, RequestedSeconds: 5},
	}}
	st, err := backfill.NewStepper(w, rigid.EstimateRequested, backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if open, err := st.Next(context.Background()); !open || err != nil {
		t.Fatalf("first decision: %v %v", open, err)
	}
	for j, want := range map[int]string{-1: "does not exist", 1: "before it is submitted", 7: "does not exist"} {
		if err := st.Start(j); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pick %d: %v, want an error saying %q", j, err, want)
		}
	}
	// Waiting at 0 s moves to job 1's arrival at 5 s, both waiting; once
	// job 0 runs (5 s to 15 s, the whole machine), waiting moves to its
	// end; then nothing runs and nothing is to come: no wait.
	if err := st.Wait(); err != nil {
		t.Fatalf("waiting for job 1's arrival: %v", err)
	}
	if open, err := st.Next(context.Background()); !open || err != nil || st.State().NowSeconds != 5 || len(st.State().Waiting) != 2 {
		t.Fatalf("after waiting: open %v, %v, at %d s with %d waiting; want 5 s, 2 waiting", open, err, st.State().NowSeconds, len(st.State().Waiting))
	}
	if err := st.Start(0); err != nil {
		t.Fatal(err)
	}
	if open, err := st.Next(context.Background()); !open || err != nil || st.State().NowSeconds != 5 {
		t.Fatalf("after starting job 0: open %v, %v at %d s", open, err, st.State().NowSeconds)
	}
	if err := st.Wait(); err != nil {
		t.Fatal(err)
	}
	if open, err := st.Next(context.Background()); !open || err != nil || st.State().NowSeconds != 15 {
		t.Fatalf("after waiting for job 0's end: open %v, %v at %d s, want 15 s", open, err, st.State().NowSeconds)
	}
	if err := st.Wait(); err == nil || !strings.Contains(err.Error(), "nothing to wait for") {
		t.Errorf("waiting with nothing running and every job arrived: %v", err)
	}
	if _, err := backfill.NewStepper(w, rigid.EstimateRequested, backfill.Policy{Allocation: backfill.AllocConservative}, 0); err == nil {
		t.Error("conservative backfilling stepped without an error")
	}
}
