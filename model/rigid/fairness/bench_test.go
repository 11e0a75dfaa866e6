package fairness_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// benchmarkKTHMonth simulates and measures KTH 10/96, the month with the
// longest queues; the targets are 0.2 s for RelShare(1d) and 15 s for
// Tradeoff-fs with L = 10,000.
func benchmarkKTHMonth(b *testing.B, v rigid.Variant, p backfill.Policy) {
	tr := kthTraceOrSkip(b)
	mw, err := tr.Month(rigidtrace.Month{Year: 1996, Month: 10})
	if err != nil {
		b.Fatal(err)
	}
	var placements int64
	for b.Loop() {
		sched, err := backfill.Simulate(context.Background(), &mw.Workload, v, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fairness.Measure(&mw.Workload, sched.StartSeconds, sched.EndSeconds); err != nil {
			b.Fatal(err)
		}
		placements += sched.Stats.Placements
	}
	if placements > 0 {
		b.ReportMetric(float64(placements)/b.Elapsed().Seconds(), "placements/s")
	}
}

func BenchmarkKTHMonthRelShareT(b *testing.B) {
	benchmarkKTHMonth(b, rigid.EstimateExact, backfill.RelShare())
}

func BenchmarkKTHMonthRelShareR(b *testing.B) {
	benchmarkKTHMonth(b, rigid.EstimateRequested, backfill.RelShare())
}

func BenchmarkKTHMonthTradeoffT(b *testing.B) {
	benchmarkKTHMonth(b, rigid.EstimateExact, backfill.TradeoffFS())
}

func BenchmarkKTHMonthTradeoffR(b *testing.B) {
	benchmarkKTHMonth(b, rigid.EstimateRequested, backfill.TradeoffFS())
}

// BenchmarkKTHProbe probes the Tradeoff-fs parameters the note leaves to
// us on KTH 10/96 (both variants): Tw of 24, 48 and 96 h and budgets of
// 10^4 and 10^5 placements, reporting the month's total |dev|, the top
// user's dev and the maximum wait. Run it once: -bench KTHProbe
// -benchtime 1x.
func BenchmarkKTHProbe(b *testing.B) {
	tr := kthTraceOrSkip(b)
	month := rigidtrace.Month{Year: 1996, Month: 10}
	mw, err := tr.Month(month)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range variants {
		for _, twHours := range []int64{24, 48, 96} {
			for _, budget := range []int{10000, 100000} {
				name := fmt.Sprintf("%s/Tw=%dh/L=%d", v, twHours, budget)
				b.Run(name, func(b *testing.B) {
					p := backfill.TradeoffFS()
					p.Planner.TwSeconds = twHours * 3600
					p.Planner.BudgetPlacements = budget
					for b.Loop() {
						sched, err := backfill.Simulate(context.Background(), &mw.Workload, v, p)
						if err != nil {
							b.Fatal(err)
						}
						m, err := fairness.Measure(&mw.Workload, sched.StartSeconds, sched.EndSeconds)
						if err != nil {
							b.Fatal(err)
						}
						b.ReportMetric(m.TotalAbsDevProcHours, "total|dev|")
						b.ReportMetric(m.DevOf(3), "dev(u3)")
						b.ReportMetric(m.MaxWaitSeconds/3600, "maxwait-h")
						b.ReportMetric(m.MeanWaitSeconds/3600, "meanwait-h")
					}
				})
			}
		}
	}
}
