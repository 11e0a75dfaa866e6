package verify

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The validator must reject each kind of broken schedule; the workload is
// Example 5 of the design note (N = 4; J1 2x5, J2 1x5, J3 3x2, J4 1x10, all
// submitted at 0), whose EASY schedule starts J1, J2, J4 at 0 and J3 at 5
// with J3 reserved at its shadow time 5.
func TestRigid(t *testing.T) {
	w := &rigid.Workload{Name: "example 5", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, User: 1, Procs: 2, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 2, User: 2, Procs: 1, RunSeconds: 5, RequestedSeconds: 5},
		{Number: 3, User: 3, Procs: 3, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 4, User: 4, Procs: 1, RunSeconds: 10, RequestedSeconds: 10},
	}}
	good := func() *backfill.Schedule {
		return &backfill.Schedule{
			StartSeconds: []int64{0, 0, 5, 0},
			EndSeconds:   []int64{5, 5, 7, 10},
			Reservations: []backfill.Reservation{{AtSeconds: 0, Head: 2, ShadowSeconds: 5}},
		}
	}
	if err := Rigid(w, rigid.EstimateExact, good()); err != nil {
		t.Fatalf("the note's schedule: %v", err)
	}
	tests := []struct {
		name  string
		spoil func(*backfill.Schedule)
		want  string
	}{
		{"never started", func(s *backfill.Schedule) { s.StartSeconds[2], s.EndSeconds[2] = -1, -1 }, "job 2 (SWF 3) never started"},
		{"wrong run time", func(s *backfill.Schedule) { s.EndSeconds[3] = 9 }, "job 3 (SWF 4) runs 9 s, want its run time 10 s"},
		{"over capacity", func(s *backfill.Schedule) { s.StartSeconds[2], s.EndSeconds[2] = 4, 6 }, "at 4 s the jobs hold 7 processors of 4"},
		{"reservation broken", func(s *backfill.Schedule) {
			s.Reservations[0].ShadowSeconds = 4 // J1, J2 and J4 still hold all 4 processors then
		}, "head job 2 (SWF 3, 3 processors) cannot start at its shadow time 4 s: jobs running then are estimated to hold 4 of 4 processors past it"},
		{"head not waiting", func(s *backfill.Schedule) { s.Reservations[0].Head = 0 }, "reservation at 0 s for job 0 (SWF 1): the head was not waiting then"},
	}
	for _, tt := range tests {
		s := good()
		tt.spoil(s)
		if err := Rigid(w, rigid.EstimateExact, s); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	late := &rigid.Workload{Name: "late", Procs: 1, Jobs: []rigid.Job{{Number: 1, SubmitSeconds: 10, Procs: 1, RunSeconds: 1, RequestedSeconds: 1}}}
	if err := Rigid(late, rigid.EstimateExact, &backfill.Schedule{StartSeconds: []int64{9}, EndSeconds: []int64{10}}); err == nil ||
		!strings.Contains(err.Error(), "job 0 (SWF 1) starts at 9 s before its submit time 10 s") {
		t.Errorf("start before submit: %v", err)
	}
}

// decide makes a backfill.Decider of a function.
type decide func(st *backfill.State) ([]int, error)

func (f decide) Decide(st *backfill.State) ([]int, error) { return f(st) }

// A Decider's State.EASY promise is recorded like the built-in EASY's
// and checked by Rigid. The cluster has 4 processors and three jobs are
// submitted at 0, estimates exact: J1 2x10, J2 4x5, J3 1xR. At 0, J1
// starts (2 left) and J2, which needs all 4, is promised the shadow 10
// s, when J1 ends; nothing is spare then (extra 0).
//   - R = 5: J3 ends by the shadow, so EASY backfills it at 0 and J2
//     starts at 10; the reservation is recorded and holds.
//   - R = 20: J3 would outlive the shadow on a processor J2 needs, so
//     EASY keeps it back: J2 starts at 10, J3 at 15; no job went past the
//     head, so nothing is recorded.
//   - R = 20, with a Decider that also starts whatever EASY left and
//     still fits: J3 starts at 0 all the same, the promise it broke is
//     recorded, and J2 waits until J3 ends at 20. Rigid finds J3 holding
//     1 of the 4 processors past the shadow.
func TestRigidDeciderPromise(t *testing.T) {
	workload := func(runJ3 int64) *rigid.Workload {
		return &rigid.Workload{Name: "promise", Procs: 4, Jobs: []rigid.Job{
			{Number: 1, User: 1, Procs: 2, RunSeconds: 10, RequestedSeconds: 10},
			{Number: 2, User: 2, Procs: 4, RunSeconds: 5, RequestedSeconds: 5},
			{Number: 3, User: 3, Procs: 1, RunSeconds: runJ3, RequestedSeconds: runJ3},
		}}
	}
	easy := decide(func(st *backfill.State) ([]int, error) { return st.EASY(st.Waiting), nil })
	greedy := decide(func(st *backfill.State) ([]int, error) {
		starts := st.EASY(st.Waiting)
		free := st.FreeProcs
		for _, j := range starts {
			free -= st.Job(j).Procs
		}
		for _, j := range st.Waiting {
			if n := st.Job(j).Procs; !slices.Contains(starts, j) && n <= free {
				starts = append(starts, j)
				free -= n
			}
		}
		return starts, nil
	})
	promise := []backfill.Reservation{{AtSeconds: 0, Head: 1, ShadowSeconds: 10}}
	tests := []struct {
		name         string
		runJ3        int64
		d            backfill.Decider
		starts       []int64
		reservations []backfill.Reservation
		err          string // "" for a valid schedule
	}{
		{"EASY backfills", 5, easy, []int64{0, 10, 0}, promise, ""},
		{"EASY keeps back", 20, easy, []int64{0, 10, 15}, nil, ""},
		{"Decider breaks the promise", 20, greedy, []int64{0, 20, 0}, promise,
			"reservation at 0 s: head job 1 (SWF 2, 4 processors) cannot start at its shadow time 10 s: jobs running then are estimated to hold 1 of 4 processors past it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload(tt.runJ3)
			sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: tt.d})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sched.StartSeconds, tt.starts) {
				t.Errorf("starts %v, want %v", sched.StartSeconds, tt.starts)
			}
			if !slices.Equal(sched.Reservations, tt.reservations) {
				t.Errorf("reservations %v, want %v", sched.Reservations, tt.reservations)
			}
			err = Rigid(w, rigid.EstimateExact, sched)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("valid schedule refused: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("got %v, want %q", err, tt.err)
			}
		})
	}
}
