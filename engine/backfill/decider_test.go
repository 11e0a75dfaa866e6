package backfill_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// fcfsEasy is FCFS with EASY backfilling written against the Decider API,
// as a researcher's module would.
type fcfsEasy struct{}

func (fcfsEasy) Decide(st *backfill.State) ([]int, error) { return st.EASY(st.Waiting), nil }

// decide makes a Decider of a function.
type decide func(st *backfill.State) ([]int, error)

func (f decide) Decide(st *backfill.State) ([]int, error) { return f(st) }

// The Decider hook and its EASY helper reproduce the built-in fcfs-easy
// job for job, reservation for reservation: on the worked examples of the
// design note (section 7) and on a whole KTH-SP2 month.
func TestDeciderEASYIsBuiltin(t *testing.T) {
	ws := []*rigid.Workload{
		exampleWorkload(4, []row{{"a", 0, 2, 4, 4}, {"b", 0, 3, 2, 2}, {"a", 1, 1, 1, 1}, {"b", 1, 2, 1, 1}}),
		exampleWorkload(10, []row{{"a", 0, 6, 10, 5}, {"b", 1, 8, 3, 3}, {"c", 1, 2, 6, 6}, {"a", 2, 4, 2, 1}, {"c", 2, 3, 4, 4}}),
	}
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is absent: checking the worked examples only", kthTrace)
	} else {
		tr, err := rigidtrace.Load(kthTrace, rigidtrace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mw, err := tr.Month(rigidtrace.Month{Year: 1996, Month: 10})
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, &mw.Workload)
	}
	for _, w := range ws {
		for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
			want, err := backfill.Simulate(context.Background(), w, v, backfill.FCFSEasy())
			if err != nil {
				t.Fatal(err)
			}
			got, err := backfill.Simulate(context.Background(), w, v, backfill.Policy{Decider: fcfsEasy{}})
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Rigid(w, v, got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.StartSeconds, want.StartSeconds) {
				for i := range want.StartSeconds {
					if got.StartSeconds[i] != want.StartSeconds[i] {
						t.Fatalf("%s %v: job %d starts at %d s, built-in at %d s", w.Name, v, i, got.StartSeconds[i], want.StartSeconds[i])
					}
				}
			}
			if !slices.Equal(got.Reservations, want.Reservations) {
				t.Fatalf("%s %v: %d reservations, not the built-in's %d", w.Name, v, len(got.Reservations), len(want.Reservations))
			}
			if len(w.Jobs) > 100 {
				t.Logf("%s %v: %d jobs, %d passes, %d reservations, same starts and reservations", w.Name, v, len(w.Jobs), got.Stats.Passes, len(got.Reservations))
			}
		}
	}
}

// A Decider's faults end the simulation with the decision's time and what
// was wrong.
func TestDeciderFaults(t *testing.T) {
	w := exampleWorkload(4, []row{{"a", 0, 2, 4, 4}, {"b", 0, 3, 2, 2}, {"a", 1, 1, 1, 1}})
	tests := []struct {
		name string
		d    decide
		want string
	}{
		{"unknown job", func(*backfill.State) ([]int, error) { return []int{7}, nil }, "decision at 0 s: the policy starts job 7, which does not exist (jobs are 0 to 2)"},
		{"not submitted", func(*backfill.State) ([]int, error) { return []int{2}, nil }, "decision at 0 s: the policy starts job 2 before it is submitted (at 3600 s)"},
		{"too wide", func(*backfill.State) ([]int, error) { return []int{0, 1}, nil }, "decision at 0 s: the policy starts job 1, which does not fit: it needs 3 processors and 2 are free"},
		{"twice", func(*backfill.State) ([]int, error) { return []int{0, 0}, nil }, "the policy starts job 0, already started at 0 s"},
		{"error", func(*backfill.State) ([]int, error) { return nil, errors.New("boom") }, "decision at 0 s: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: tt.d})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}
