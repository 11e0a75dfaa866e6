package rigid

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	good := func() Workload {
		return Workload{Name: "w", Procs: 4, Jobs: []Job{
			{Number: 1, User: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 10, RequestedSeconds: 20},
			{Number: 2, User: 2, SubmitSeconds: 0, Procs: 4, RunSeconds: 5, RequestedSeconds: 5},
			{Number: 3, User: 1, SubmitSeconds: 7, Procs: 1, RunSeconds: 1, RequestedSeconds: 1},
		}}
	}
	tests := []struct {
		name  string
		spoil func(*Workload)
		want  string
	}{
		{"no processors", func(w *Workload) { w.Procs = 0 }, "workload w: processors 0: want at least 1"},
		{"too wide", func(w *Workload) { w.Jobs[1].Procs = 5 }, "workload w: job 1 (SWF job 2): processors 5: want 1..4 (the cluster)"},
		{"no run", func(w *Workload) { w.Jobs[2].RunSeconds = 0 }, "job 2 (SWF job 3): run time 0: want at least 1 s"},
		{"request below run", func(w *Workload) { w.Jobs[0].RequestedSeconds = 9 }, "job 0 (SWF job 1): requested time 9: want at least the run time 10 s"},
		{"negative submit", func(w *Workload) { w.Jobs[2].SubmitSeconds = -1 }, "job 2 (SWF job 3): submit time -1: want at least 0 s"},
		{"unsorted", func(w *Workload) { w.Jobs[1].SubmitSeconds = 8 }, "job 2 (SWF job 3): submit time 7: want jobs sorted by submit time, then job number, after SWF job 2 submitted at 8 s"},
		{"same number", func(w *Workload) { w.Jobs[1].Number = 1 }, "job 1 (SWF job 1): submit time 0: want jobs sorted by submit time, then job number, after SWF job 1 submitted at 0 s"},
		{"window", func(w *Workload) { w.MeasureFromSeconds = 5 }, "measured window [5, 0) s: the start must not come after the end"},
		{"logged run within request", func(w *Workload) { w.Jobs[0].LoggedRunSeconds = 15 }, "job 0 (SWF job 1): logged run time 15: want 0, or above the request 20 s with the run time clamped to it (run time 10 s)"},
	}
	w := good()
	if err := w.Validate(); err != nil {
		t.Fatalf("valid workload: %v", err)
	}
	for _, tt := range tests {
		w := good()
		tt.spoil(&w)
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestMeasuredAndEstimates(t *testing.T) {
	w := Workload{Jobs: []Job{{SubmitSeconds: 5, RunSeconds: 3, RequestedSeconds: 8}, {SubmitSeconds: 10}}}
	if !w.Measured(0) || !w.Measured(1) {
		t.Error("without a window every job is measured")
	}
	w.MeasureFromSeconds, w.MeasureToSeconds = 0, 10
	if !w.Measured(0) || w.Measured(1) {
		t.Error("the window [0, 10) measures the job at 5 and not the one at 10")
	}
	if e := w.Jobs[0].EstimateSeconds(EstimateExact); e != 3 {
		t.Errorf("variant T estimate %d, want the run time 3", e)
	}
	if e := w.Jobs[0].EstimateSeconds(EstimateRequested); e != 8 {
		t.Errorf("variant R estimate %d, want the request 8", e)
	}
	if _, err := ParseVariant("X"); err == nil {
		t.Error("ParseVariant(X) should fail")
	}
}

func TestEstimateSecondsUnder(t *testing.T) {
	j := Job{RunSeconds: 20, RequestedSeconds: 20, LoggedRunSeconds: 35}
	for _, c := range []struct {
		v    Variant
		k    Kill
		want int64
	}{
		{EstimateExact, KillAtRequest, 20},
		{EstimateExact, KillNever, 35},
		{EstimateRequested, KillNever, 20},
		{EstimatePredicted, KillNever, 20},
	} {
		if got := j.EstimateSecondsUnder(c.v, c.k); got != c.want {
			t.Errorf("EstimateSecondsUnder(%v, %v) = %d, want %d", c.v, c.k, got, c.want)
		}
	}
}
