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
	}{
		{"none", backfill.AllocStrict, []int{1, 0, 3, 2}, []int64{5, 0, 7, 5}, nil},
		{"easy", backfill.AllocEASY, []int{1, 0, 3}, []int64{5, 0, 0, 5},
			[]backfill.Reservation{{AtSeconds: 0, Head: 0, ShadowSeconds: 5}}},
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
			if err := verify.Rigid(w, rigid.EstimateRequested, sched); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestStepperIsBuiltin steps with the built-in order's pick at every
// decision and gets the built-in's schedule under head committed, job for
// job and reservation for reservation, without backfilling and with EASY:
// on the synthetic month and on RLScheduler's SDSC-SP2 sequences.
func TestStepperIsBuiltin(t *testing.T) {
	ws := []*rigid.Workload{syntheticMonth()}
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
	if _, err := backfill.NewStepper(w, rigid.EstimateRequested, backfill.Policy{Allocation: backfill.AllocConservative}, 0); err == nil {
		t.Error("conservative backfilling stepped without an error")
	}
}
