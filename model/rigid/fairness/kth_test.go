package fairness_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

const kthTrace = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

var kth struct {
	once  sync.Once
	trace *rigidtrace.Trace
	err   error
}

func kthTraceOrSkip(tb testing.TB) *rigidtrace.Trace {
	tb.Helper()
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s is absent: download KTH-SP2-1996-2.1-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", kthTrace)
	}
	kth.once.Do(func() { kth.trace, kth.err = rigidtrace.Load(kthTrace, rigidtrace.Options{}) })
	if kth.err != nil {
		tb.Fatal(kth.err)
	}
	return kth.trace
}

// paperKTH holds the note's section 6 for KTH: Table III (the top user's
// dev, RelShare T, R, Tradeoff-fs T, R) and Table VI (running sums of
// total |dev| in the same order).
var paperKTH = []struct {
	month   rigidtrace.Month
	top     int64
	topDev  [4]float64
	running [4]float64
}{
	{rigidtrace.Month{Year: 1996, Month: 10}, 3, [4]float64{-7730, -6899, -156, -93}, [4]float64{23722, 23876, 11226, 12456}},
	{rigidtrace.Month{Year: 1996, Month: 11}, 6, [4]float64{-203, -554, -1607, -1281}, [4]float64{45622, 47507, 26445, 27733}},
	{rigidtrace.Month{Year: 1996, Month: 12}, 6, [4]float64{145, -669, -11, 394}, [4]float64{63754, 65695, 39754, 42806}},
	{rigidtrace.Month{Year: 1997, Month: 1}, 15, [4]float64{1132, 1614, 230, 444}, [4]float64{82059, 86580, 52261, 56912}},
	{rigidtrace.Month{Year: 1997, Month: 2}, 84, [4]float64{4878, 3996, 4311, 4858}, [4]float64{102119, 108646, 68986, 76068}},
	{rigidtrace.Month{Year: 1997, Month: 3}, 84, [4]float64{4154, 4125, 354, 329}, [4]float64{125979, 136087, 85437, 92557}},
	{rigidtrace.Month{Year: 1997, Month: 4}, 14, [4]float64{-1062, -383, -411, -284}, [4]float64{139846, 150409, 94788, 102476}},
	{rigidtrace.Month{Year: 1997, Month: 5}, 67, [4]float64{-274, -450, -515, -677}, [4]float64{148431, 158745, 103636, 109483}},
	{rigidtrace.Month{Year: 1997, Month: 6}, 29, [4]float64{-1451, -1411, 221, 220}, [4]float64{155120, 166703, 109049, 115794}},
	{rigidtrace.Month{Year: 1997, Month: 7}, 67, [4]float64{-8, -78, 155, 118}, [4]float64{160202, 172427, 112956, 119368}},
}

// paperMonthly de-accumulates column c of Table VI.
func paperMonthly(c int) []float64 {
	running := make([]float64, len(paperKTH))
	for i, p := range paperKTH {
		running[i] = p.running[c]
	}
	return fairness.Differences(running)
}

func runMonth(tb testing.TB, tr *rigidtrace.Trace, month rigidtrace.Month, v rigid.Variant, p backfill.Policy) (*fairness.Month, *backfill.Schedule) {
	tb.Helper()
	mw, err := tr.Month(month)
	if err != nil {
		tb.Fatal(err)
	}
	sched, err := backfill.Simulate(context.Background(), &mw.Workload, v, p)
	if err != nil {
		tb.Fatal(err)
	}
	if err := verify.Rigid(&mw.Workload, v, sched); err != nil {
		tb.Fatal(err)
	}
	m, err := fairness.Measure(&mw.Workload, sched.StartSeconds, sched.EndSeconds)
	if err != nil {
		tb.Fatal(err)
	}
	return m, sched
}

var variants = [2]rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested}

// RelShare(1d) on the ten KTH months against the paper: the monthly total
// |dev| within 10 % on average over the 20 month-variants, and the top
// user's dev with the paper's sign in at least 16 of 20.
func TestKTHRelShare(t *testing.T) {
	tr := kthTraceOrSkip(t)
	var b strings.Builder
	fmt.Fprintf(&b, "month   var  top  dev(ours)  dev(paper)  |dev|(ours)  |dev|(paper)  rel.err  wait mean/max/p99 (h)  sd10\n")
	var relErrSum float64
	signs := 0
	for c, v := range variants {
		paper := paperMonthly(c)
		for i, p := range paperKTH {
			m, _ := runMonth(t, tr, p.month, v, backfill.RelShare())
			if m.TopUser != p.top {
				t.Errorf("KTH %s: top user %d, want %d", p.month, m.TopUser, p.top)
			}
			dev := m.DevOf(p.top)
			if math.Signbit(dev) == math.Signbit(p.topDev[c]) {
				signs++
			}
			rel := (m.TotalAbsDevProcHours - paper[i]) / paper[i]
			relErrSum += math.Abs(rel)
			fmt.Fprintf(&b, "%s %-3s %4d %10.0f %11.0f %12.0f %13.0f %+8.3f  %5.2f/%6.1f/%6.1f  %6.2f\n",
				p.month, v, p.top, dev, p.topDev[c], m.TotalAbsDevProcHours, paper[i], rel,
				m.MeanWaitSeconds/3600, m.MaxWaitSeconds/3600, m.P99WaitSeconds/3600, m.MeanSlowdownTau10)
		}
	}
	meanRelErr := relErrSum / 20
	fmt.Fprintf(&b, "mean |relative error| of monthly total |dev|: %.3f; top user's sign as the paper's: %d of 20\n", meanRelErr, signs)
	t.Log("\n" + b.String())
	if meanRelErr > 0.10 {
		t.Errorf("mean relative error of monthly total |dev| %.3f, want at most 0.10", meanRelErr)
	}
	if signs < 16 {
		t.Errorf("top user's dev has the paper's sign in %d of 20 month-variants, want at least 16", signs)
	}
}

// Tradeoff-fs on the ten KTH months: a lower running total |dev| than
// RelShare(1d) in every month and variant, as the paper's Table VI.
func TestKTHTradeoff(t *testing.T) {
	if testing.Short() {
		t.Skip("20 month-variants of Tradeoff-fs take about 20 s; run without -short")
	}
	tr := kthTraceOrSkip(t)
	var b strings.Builder
	fmt.Fprintf(&b, "month   var  top  dev(ours)  dev(paper)  |dev|(ours)  |dev|(paper)  running ours/paper  RelShare running  wait mean/max (h)  placements  budget-stopped\n")
	for c, v := range variants {
		paper := paperMonthly(c + 2)
		var running, relShareRunning float64
		for i, p := range paperKTH {
			rel, _ := runMonth(t, tr, p.month, v, backfill.RelShare())
			m, sched := runMonth(t, tr, p.month, v, backfill.TradeoffFS())
			running += m.TotalAbsDevProcHours
			relShareRunning += rel.TotalAbsDevProcHours
			fmt.Fprintf(&b, "%s %-3s %4d %10.0f %11.0f %12.0f %13.0f %9.0f/%-9.0f %16.0f  %5.2f/%6.1f  %10d  %6d\n",
				p.month, v, p.top, m.DevOf(p.top), p.topDev[c+2], m.TotalAbsDevProcHours, paper[i], running, p.running[c+2],
				relShareRunning, m.MeanWaitSeconds/3600, m.MaxWaitSeconds/3600, sched.Stats.Placements, sched.Stats.BudgetExhausted)
			if running >= relShareRunning {
				t.Errorf("KTH %s %s: Tradeoff-fs running total |dev| %.0f, not below RelShare's %.0f", p.month, v, running, relShareRunning)
			}
		}
	}
	t.Log("\n" + b.String())
}
