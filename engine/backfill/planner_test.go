package backfill

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// ddsOrder returns the paths the planner visits over m waiting jobs, as
// strings of 1-based queue positions.
func ddsOrder(t *testing.T, m int) []string {
	t.Helper()
	w := &rigid.Workload{Name: "dds", Procs: 1}
	for i := range m {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: 1, Procs: 1, RunSeconds: 1, RequestedSeconds: 1})
	}
	s := newSim(w, rigid.EstimateExact, TradeoffFS(), DefaultTwSeconds)
	s.queue = []int{}
	for i := range m {
		s.queue = append(s.queue, i)
	}
	s.order = slices.Clone(s.queue)
	var paths []string
	s.planner.onLeaf = func(path []int) {
		var b strings.Builder
		for _, c := range path {
			b.WriteByte(byte('1' + c))
		}
		paths = append(paths, b.String())
	}
	s.planner.plan()
	return paths
}

func TestDDSOrder(t *testing.T) {
	// The paper's Fig. 3 for 3 jobs and the note's section 4 for 4.
	want3 := strings.Fields("123 213 312 132 231 321")
	want4 := strings.Fields("1234 2134 3124 4123 1324 1423 2314 2413 3214 3412 4213 4312 " +
		"1243 1342 1432 2143 2341 2431 3142 3241 3421 4132 4231 4321")
	if got := ddsOrder(t, 3); !slices.Equal(got, want3) {
		t.Errorf("3 jobs: %v, want %v", got, want3)
	}
	if got := ddsOrder(t, 4); !slices.Equal(got, want4) {
		t.Errorf("4 jobs: %v, want %v", got, want4)
	}
}

// example6 sets up the decision point of the note's Example 6: N = 4, now
// 15 h, one running job holding 2 processors until 17 h, and Q1, Q2, Q3
// waiting in that RelShare order.
func example6(cfg Tradeoff) (*sim, map[string]int) {
	const h = 3600
	w := &rigid.Workload{Name: "example 6", Procs: 4, Jobs: []rigid.Job{
		{Number: 3, User: 3, SubmitSeconds: 0, Procs: 1, RunSeconds: 4 * h, RequestedSeconds: 4 * h},      // Q3
		{Number: 1, User: 1, SubmitSeconds: 5 * h, Procs: 3, RunSeconds: 2 * h, RequestedSeconds: 2 * h},  // Q1
		{Number: 4, User: 4, SubmitSeconds: 13 * h, Procs: 2, RunSeconds: 4 * h, RequestedSeconds: 4 * h}, // running
		{Number: 2, User: 2, SubmitSeconds: 14 * h, Procs: 2, RunSeconds: 1 * h, RequestedSeconds: 1 * h}, // Q2
	}}
	s := newSim(w, rigid.EstimateExact, Policy{Planner: &cfg}, cfg.TwSeconds)
	s.now = 13 * h
	s.start(2)
	s.now = 15 * h
	s.queue = []int{0, 1, 3}
	s.order = []int{1, 3, 0}
	return s, map[string]int{"Q1": 1, "Q2": 3, "Q3": 0}
}

func TestExample6Paths(t *testing.T) {
	s, _ := example6(Tradeoff{TwSeconds: 12 * 3600, AlphaPerHour: 1, BudgetPlacements: 1000})
	type scored struct {
		path          string
		starts        [3]int64 // Q1, Q2, Q3 in hours
		excessHours   float64
		stretchSumSum float64
	}
	var got []scored
	p := s.planner
	p.onLeaf = func(path []int) {
		var sc scored
		for d, c := range path {
			sc.path += string(rune('1' + c))
			sc.starts[c] = p.startAt[d] / 3600
		}
		sc.excessHours = float64(p.excessSeconds[3]) / 3600
		sc.stretchSumSum = p.stretchSum[3]
		got = append(got, sc)
	}
	p.plan()
	want := []scored{
		{"123", [3]int64{17, 15, 16}, 4, 14},
		{"213", [3]int64{17, 15, 16}, 4, 14},
		{"312", [3]int64{17, 19, 15}, 3, 17.75},
		{"132", [3]int64{17, 19, 15}, 3, 17.75},
		{"231", [3]int64{17, 15, 16}, 4, 14},
		{"321", [3]int64{18, 17, 15}, 4, 16.25},
	}
	if len(got) != len(want) {
		t.Fatalf("%d paths, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.path != w.path || g.starts != w.starts || g.excessHours != w.excessHours || math.Abs(g.stretchSumSum-w.stretchSumSum) > 1e-12 {
			t.Errorf("path %d: got %+v, want %+v", i+1, g, w)
		}
	}
}

func TestExample6Winners(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Tradeoff
		started   string
		paths     int64
		exhausted int64
	}{
		{"alpha 1", Tradeoff{AlphaPerHour: 1, BudgetPlacements: 1000}, "Q2", 6, 0},
		{"alpha 2", Tradeoff{AlphaPerHour: 2, BudgetPlacements: 1000}, "Q3", 6, 0},
		{"hier", Tradeoff{AlphaPerHour: 1, Objective: ObjectiveHier, BudgetPlacements: 1000}, "Q3", 6, 0},
		{"alpha 1, L 9", Tradeoff{AlphaPerHour: 1, BudgetPlacements: 9}, "Q2", 3, 1},
		{"alpha 2, L 9", Tradeoff{AlphaPerHour: 2, BudgetPlacements: 9}, "Q3", 3, 1},
		{"hier, L 9", Tradeoff{AlphaPerHour: 1, Objective: ObjectiveHier, BudgetPlacements: 9}, "Q3", 3, 1},
		{"alpha 2, L 2", Tradeoff{AlphaPerHour: 2, BudgetPlacements: 2}, "Q2", 1, 1},
		{"alpha 2, L 0", Tradeoff{AlphaPerHour: 2, BudgetPlacements: 0}, "Q2", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.TwSeconds = 12 * 3600
			s, q := example6(tt.cfg)
			s.planner.plan()
			var started []string
			for _, name := range []string{"Q1", "Q2", "Q3"} {
				if s.sched.StartSeconds[q[name]] == s.now {
					started = append(started, name)
				}
			}
			if strings.Join(started, " ") != tt.started {
				t.Errorf("started now %v, want %s", started, tt.started)
			}
			if st := s.sched.Stats; st.Paths != tt.paths || st.BudgetExhausted != tt.exhausted {
				t.Errorf("paths %d, budget exhausted %d; want %d, %d", st.Paths, st.BudgetExhausted, tt.paths, tt.exhausted)
			}
		})
	}
}
