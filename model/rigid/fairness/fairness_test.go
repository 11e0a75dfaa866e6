package fairness

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

const hour = 3600

// example builds a worked example of the design note (section 7) with
// the note's starts, in hours: rows are user, submit, n, estimate,
// actual, start.
func example(procs int, fromHours, toHours int64, rows [][6]int64) (*rigid.Workload, []int64) {
	w := &rigid.Workload{Name: "example", Procs: procs, MeasureFromSeconds: fromHours * hour, MeasureToSeconds: toHours * hour}
	var starts []int64
	for i, r := range rows {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: r[0], SubmitSeconds: r[1] * hour,
			Procs: int(r[2]), RequestedSeconds: r[3] * hour, RunSeconds: r[4] * hour})
		starts = append(starts, r[5]*hour)
	}
	return w, starts
}

// endsAtRun returns each job's end when it runs its RunSeconds from its
// start, as under kill: request.
func endsAtRun(w *rigid.Workload, starts []int64) []int64 {
	ends := make([]int64, len(starts))
	for i, s := range starts {
		ends[i] = s + w.Jobs[i].RunSeconds
	}
	return ends
}

const (
	userA = 1
	userB = 2
	userC = 3
)

func TestDevWorkedExamples(t *testing.T) {
	tests := []struct {
		name  string
		procs int
		from  int64
		to    int64
		rows  [][6]int64
		dev   map[int64]float64
	}{
		{"example 1 relshare", 4, 0, 6, [][6]int64{
			{userA, 0, 2, 4, 4, 0}, {userA, 0, 2, 2, 2, 0}, {userB, 1, 3, 2, 2, 4},
			{userA, 1, 1, 1, 1, 3}, {userC, 2, 1, 3, 3, 2}, {userB, 2, 1, 1, 1, 2},
		}, map[int64]float64{userA: 4, userB: -4, userC: 0}},
		{"example 2 relshare", 4, 0, 14, [][6]int64{
			{userA, 0, 3, 10, 4, 0}, {userB, 0, 2, 6, 6, 4}, {userC, 1, 1, 8, 8, 1},
			{userA, 4, 2, 3, 3, 10}, {userB, 5, 1, 2, 2, 5}, {userC, 6, 1, 5, 5, 7},
		}, map[int64]float64{userA: -3, userB: -1, userC: 1}},
		{"example 3 relshare", 8, 30, 45, [][6]int64{
			{userA, 0, 8, 10, 10, 0}, {userB, 30, 4, 10, 10, 30}, {userB, 35, 4, 3, 3, 40},
			{userA, 35, 4, 5, 5, 35}, {userC, 35, 2, 2, 2, 40},
		}, map[int64]float64{userA: 5, userB: 5, userC: -10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, starts := example(tt.procs, tt.from, tt.to, tt.rows)
			m, err := Measure(w, starts, endsAtRun(w, starts))
			if err != nil {
				t.Fatal(err)
			}
			var total float64
			for u, want := range tt.dev {
				if got := m.DevOf(u); math.Abs(got-want) > 1e-9 {
					t.Errorf("dev of user %d = %g, want %g", u, got, want)
				}
				total += math.Abs(want)
			}
			if math.Abs(m.TotalAbsDevProcHours-total) > 1e-9 {
				t.Errorf("total |dev| = %g, want %g", m.TotalAbsDevProcHours, total)
			}
		})
	}
}

// Water-filling of 10 processors over demands 2, 5 and 8: the first takes
// its 2, the other two split the remaining 8.
func TestEntitle(t *testing.T) {
	waiting := []int{0, 5, 3, 0}
	running := []int{2, 0, 5, 0}
	share := make([]float64, 4)
	entitle(10, waiting, running, nil, share)
	if want := []float64{2, 4, 4, 0}; !slices.Equal(share, want) {
		t.Errorf("shares %v, want %v", share, want)
	}
	entitle(4, []int{9, 0}, []int{0, 1}, nil, share[:2])
	if want := []float64{3, 1}; !slices.Equal(share[:2], want) {
		t.Errorf("demand capped at N: shares %v, want %v", share[:2], want)
	}
}

// Waits 1..100 s, each job running 5 s of 10 requested: mean 50.5, max
// 100, p99 by nearest rank the 99th value, accuracy 0.5; the slowdowns
// summed by hand from their definitions.
func TestWaitsAndSlowdowns(t *testing.T) {
	w := &rigid.Workload{Name: "waits", Procs: 1, MeasureFromSeconds: 0, MeasureToSeconds: 1000}
	var starts []int64
	for i := range 100 {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: 1, SubmitSeconds: int64(i), Procs: 1, RunSeconds: 5, RequestedSeconds: 10})
		starts = append(starts, int64(i)+int64(i+1))
	}
	m, err := Measure(w, starts, endsAtRun(w, starts))
	if err != nil {
		t.Fatal(err)
	}
	var s10, s60, raw float64
	for wait := 1.0; wait <= 100; wait++ {
		s10 += max(1, (wait+5)/10)
		s60 += max(1, (wait+5)/60)
		raw += (wait + 5) / 5
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"mean wait", m.MeanWaitSeconds, 50.5},
		{"max wait", m.MaxWaitSeconds, 100},
		{"p99 wait", m.P99WaitSeconds, 99},
		{"slowdown tau 10", m.MeanSlowdownTau10, s10 / 100},
		{"slowdown tau 60", m.MeanSlowdownTau60, s60 / 100},
		{"slowdown unbounded", m.MeanSlowdown, raw / 100},
		{"accuracy", m.PerUser[0].MeanAccuracy, 0.5},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
}

const kthTrace = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// KTH 1/97 as the note's section 6 gives it: 65 users, 2939 jobs,
// 56,595.48 node-hours (76.07 %), top user 15 with 8,887.56.
func TestKTHTableI(t *testing.T) {
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download KTH-SP2-1996-2.1-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", kthTrace)
	}
	tr, err := rigidtrace.Load(kthTrace, rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(rigidtrace.Month{Year: 1997, Month: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(&mw.Workload)
	if s.Users != 65 || s.Jobs != 2939 || math.Round(s.DemandProcHours()*100) != 5659548 ||
		math.Round(s.DemandPercent()*100) != 7607 || s.TopUser != 15 || math.Round(float64(s.TopUserDemandProcSeconds)/36) != 888756 {
		t.Errorf("KTH 1/97: %d users, %d jobs, %.2f node-hours (%.2f%%), top user %d with %.2f; want 65, 2939, 56595.48 (76.07%%), 15 with 8887.56",
			s.Users, s.Jobs, s.DemandProcHours(), s.DemandPercent(), s.TopUser, float64(s.TopUserDemandProcSeconds)/3600)
	}
	// The demand percentages of the paper's Table I, truncated, and its
	// highest-demand users (Table III).
	months := []struct {
		month   rigidtrace.Month
		percent int
		top     int64
	}{
		{rigidtrace.Month{Year: 1996, Month: 10}, 69, 3}, {rigidtrace.Month{Year: 1996, Month: 11}, 69, 6},
		{rigidtrace.Month{Year: 1996, Month: 12}, 65, 6}, {rigidtrace.Month{Year: 1997, Month: 1}, 76, 15},
		{rigidtrace.Month{Year: 1997, Month: 2}, 76, 84}, {rigidtrace.Month{Year: 1997, Month: 3}, 74, 84},
		{rigidtrace.Month{Year: 1997, Month: 4}, 70, 14}, {rigidtrace.Month{Year: 1997, Month: 5}, 68, 67},
		{rigidtrace.Month{Year: 1997, Month: 6}, 72, 29}, {rigidtrace.Month{Year: 1997, Month: 7}, 62, 67},
	}
	for _, want := range months {
		mw, err := tr.Month(want.month)
		if err != nil {
			t.Fatal(err)
		}
		s := Summarize(&mw.Workload)
		if int(s.DemandPercent()) != want.percent || s.TopUser != want.top {
			t.Errorf("KTH %s: demand %.2f%%, top user %d; want %d%%, user %d", want.month, s.DemandPercent(), s.TopUser, want.percent, want.top)
		}
	}
}

func TestRunningSums(t *testing.T) {
	// Table VI, RelShare T, first three months.
	running := []float64{23722, 45622, 63754}
	monthly := Differences(running)
	if want := []float64{23722, 21900, 18132}; !slices.Equal(monthly, want) {
		t.Errorf("Differences = %v, want %v", monthly, want)
	}
	if back := RunningSums(monthly); !slices.Equal(back, running) {
		t.Errorf("RunningSums(Differences) = %v, want %v", back, running)
	}
}
