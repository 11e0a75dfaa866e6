package verify

import (
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
