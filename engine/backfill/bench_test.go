package backfill_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// syntheticMonth is a KTH-like month drawn from a fixed seed: 2,100 jobs
// of 60 users over 30 days on 100 processors, sizes powers of two up to
// 64, run times log-uniform from 1 minute to 36 hours, requests 1-5 times
// the run time; about 70 % of the capacity.
func syntheticMonth() *rigid.Workload {
	rng := rand.New(rand.NewPCG(3, 2012))
	w := &rigid.Workload{Name: "synthetic month", Procs: 100}
	const days = 30
	for i := range 2100 {
		run := int64(math.Exp(rng.Float64()*math.Log(36*60)) * 60)
		w.Jobs = append(w.Jobs, rigid.Job{
			Number:           int64(i + 1),
			User:             int64(rng.IntN(60)),
			SubmitSeconds:    rng.Int64N(days * backfill.DaySeconds),
			Procs:            1 << rng.IntN(7),
			RunSeconds:       run,
			RequestedSeconds: run + int64(rng.Float64()*4*float64(run)),
		})
	}
	w.SortJobs()
	return w
}

func benchmarkPolicy(b *testing.B, p backfill.Policy, v rigid.Variant) {
	w := syntheticMonth()
	var placements int64
	for b.Loop() {
		sched, err := backfill.Simulate(context.Background(), w, v, p)
		if err != nil {
			b.Fatal(err)
		}
		placements += sched.Stats.Placements
	}
	if placements > 0 {
		b.ReportMetric(float64(placements)/b.Elapsed().Seconds(), "placements/s")
	}
}

func BenchmarkRelShare(b *testing.B) {
	benchmarkPolicy(b, backfill.RelShare(), rigid.EstimateRequested)
}

func BenchmarkConservative(b *testing.B) {
	benchmarkPolicy(b, backfill.Policy{Order: backfill.OrderRelShare, Allocation: backfill.AllocConservative}, rigid.EstimateRequested)
}

func BenchmarkTradeoffFS(b *testing.B) {
	benchmarkPolicy(b, backfill.TradeoffFS(), rigid.EstimateRequested)
}
