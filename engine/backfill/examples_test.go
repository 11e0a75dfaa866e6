package backfill_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

const hour = 3600

// row is one job of a worked example of the design note, section 7:
// user, submit, n, estimate, actual, times in hours.
type row struct {
	user                   string
	submit, n, est, actual int64
}

// exampleWorkload builds the workload of a worked example in seconds; the
// job numbers are the example's J1, J2, ...; the estimate is the
// requested time, so variant R sees it and variant T the actual time.
func exampleWorkload(procs int, rows []row) *rigid.Workload {
	w := &rigid.Workload{Name: "example", Procs: procs}
	for i, r := range rows {
		w.Jobs = append(w.Jobs, rigid.Job{
			Number: int64(i + 1), User: int64(r.user[0]), SubmitSeconds: r.submit * hour,
			Procs: int(r.n), RunSeconds: r.actual * hour, RequestedSeconds: r.est * hour,
		})
	}
	w.SortJobs()
	return w
}

// simulate runs the policy, checks the schedule with the independent
// validator and returns the starts in hours by job number.
func simulate(t *testing.T, w *rigid.Workload, v rigid.Variant, p backfill.Policy) []int64 {
	t.Helper()
	sched, err := backfill.Simulate(context.Background(), w, v, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Rigid(w, v, sched); err != nil {
		t.Fatal(err)
	}
	starts := make([]int64, len(w.Jobs))
	for i, j := range w.Jobs {
		starts[j.Number-1] = sched.StartSeconds[i] / hour
	}
	return starts
}

func TestWorkedExamples(t *testing.T) {
	example1 := exampleWorkload(4, []row{
		{"A", 0, 2, 4, 4}, {"A", 0, 2, 2, 2}, {"B", 1, 3, 2, 2},
		{"A", 1, 1, 1, 1}, {"C", 2, 1, 3, 3}, {"B", 2, 1, 1, 1},
	})
	example2 := exampleWorkload(4, []row{
		{"A", 0, 3, 10, 4}, {"B", 0, 2, 6, 6}, {"C", 1, 1, 8, 8},
		{"A", 4, 2, 3, 3}, {"B", 5, 1, 2, 2}, {"C", 6, 1, 5, 5},
	})
	example3 := exampleWorkload(8, []row{
		{"A", 0, 8, 10, 10}, {"B", 30, 4, 10, 10}, {"B", 35, 4, 3, 3},
		{"A", 35, 4, 5, 5}, {"C", 35, 2, 2, 2},
	})
	example4 := exampleWorkload(4, []row{
		{"A", 19, 4, 4, 4}, {"B", 22, 4, 3, 3}, {"B", 25, 4, 1, 1}, {"A", 25, 4, 1, 1},
	})
	example5 := exampleWorkload(4, []row{
		{"A", 0, 2, 5, 5}, {"B", 0, 1, 5, 5}, {"C", 0, 3, 2, 2}, {"D", 0, 1, 10, 10},
	})
	relshare := backfill.RelShare()
	sliding := backfill.Policy{Order: backfill.OrderRelShare, Window: backfill.WindowSliding}
	unbounded := backfill.Policy{Order: backfill.OrderRelShare, Window: backfill.WindowUnbounded}
	completedOnly := backfill.Policy{Order: backfill.OrderRelShare, Usage: backfill.CountCompletedOnly}
	tests := []struct {
		name    string
		w       *rigid.Workload
		variant rigid.Variant
		policy  backfill.Policy
		starts  []int64 // by job number
	}{
		{"1 relshare", example1, rigid.EstimateExact, relshare, []int64{0, 0, 4, 3, 2, 2}},
		{"1 fcfs-easy", example1, rigid.EstimateExact, backfill.FCFSEasy(), []int64{0, 0, 4, 2, 2, 3}},
		{"2 relshare", example2, rigid.EstimateRequested, relshare, []int64{0, 4, 1, 10, 5, 7}},
		{"2 fcfs-easy", example2, rigid.EstimateRequested, backfill.FCFSEasy(), []int64{0, 4, 1, 9, 5, 10}},
		{"3 relshare", example3, rigid.EstimateExact, relshare, []int64{0, 30, 40, 35, 40}},
		{"3 usage never expires", example3, rigid.EstimateExact, unbounded, []int64{0, 30, 37, 40, 35}},
		{"3 completed jobs only", example3, rigid.EstimateExact, completedOnly, []int64{0, 30, 35, 38, 40}},
		{"4 tumbling", example4, rigid.EstimateExact, relshare, []int64{19, 23, 27, 26}},
		{"4 sliding", example4, rigid.EstimateExact, sliding, []int64{19, 23, 26, 27}},
		{"5 extra at the shadow", example5, rigid.EstimateExact, relshare, []int64{0, 0, 5, 0}},
		// By hand: at 2 h the queue is J3, J5, J6, J4 and J1 holds 2
		// processors until 4 h. The heuristic path (J3 at 4, J5 and J6
		// at 2, J4 at 3) scores sum X = 2.5 + 1 + 1 + 3 = 7.5; the first
		// strictly better path in DDS order is 3412 (J6 and J4 at 2, J3
		// at 4, J5 at 3: 1 + 2 + 2.5 + 4/3 = 6.83), so J6 and J4 start at
		// 2. At 3 h J5 (user C, no usage) is placed first and starts.
		{"1 tradeoff-fs", example1, rigid.EstimateExact, backfill.TradeoffFS(), []int64{0, 0, 4, 2, 3, 2}},
		// Conservative backfilling is the heuristic path alone: at 2 h J5
		// and J6 start, J4 at 3.
		{"1 conservative", example1, rigid.EstimateExact, backfill.Policy{Order: backfill.OrderRelShare, Allocation: backfill.AllocConservative}, []int64{0, 0, 4, 3, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := simulate(t, tt.w, tt.variant, tt.policy); !slices.Equal(got, tt.starts) {
				t.Errorf("starts (h) by job = %v, want %v", got, tt.starts)
			}
		})
	}
}

// With tw: fcfs-max, Tw is the largest wait under fcfs-easy: in Example 1
// J3 waits from 1 h to 4 h.
func TestTwFCFSMax(t *testing.T) {
	w := exampleWorkload(4, []row{
		{"A", 0, 2, 4, 4}, {"A", 0, 2, 2, 2}, {"B", 1, 3, 2, 2},
		{"A", 1, 1, 1, 1}, {"C", 2, 1, 3, 3}, {"B", 2, 1, 1, 1},
	})
	p := backfill.TradeoffFS()
	p.Planner.TwFCFSMax = true
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, p)
	if err != nil {
		t.Fatal(err)
	}
	if sched.TwSeconds != 3*hour {
		t.Errorf("Tw = %d s, want 3 h = %d s", sched.TwSeconds, 3*hour)
	}
}

func TestSimulateBadInput(t *testing.T) {
	w := exampleWorkload(4, []row{{"A", 0, 2, 4, 4}})
	tests := []struct {
		name   string
		w      *rigid.Workload
		policy backfill.Policy
		want   string
	}{
		{"too wide", exampleWorkload(4, []row{{"A", 0, 5, 1, 1}}), backfill.RelShare(), "simulating: workload example: job 0 (SWF job 1): processors 5: want 1..4 (the cluster)"},
		{"order", w, backfill.Policy{Order: 14}, "order 14: want one of [relshare fcfs sjf ljf saf laf sqf lxf wfp3 unicef f1 f2 f3 f4]"},
		{"head", w, backfill.Policy{Head: backfill.HeadCommitted, Planner: backfill.DefaultTradeoff()}, "head committed is for the built-in queue orders"},
		{"kill", w, backfill.Policy{Kill: 2}, "kill 2: want request or never"},
		{"window", w, backfill.Policy{WindowSeconds: -1}, "window -1 s: want at least 1 s (0 for a day)"},
		{"budget", w, backfill.Policy{Planner: &backfill.Tradeoff{BudgetPlacements: -1}}, "budget -1 placements: want at least 0"},
		{"alpha", w, backfill.Policy{Planner: &backfill.Tradeoff{AlphaPerHour: -1}}, "alpha -1 per hour: want at least 0"},
	}
	for _, tt := range tests {
		_, err := backfill.Simulate(context.Background(), tt.w, rigid.EstimateExact, tt.policy)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := backfill.Simulate(ctx, w, rigid.EstimateExact, backfill.RelShare()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
