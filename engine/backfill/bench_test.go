package backfill_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
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
	benchmarkWorkload(b, syntheticMonth(), p, v)
}

func benchmarkWorkload(b *testing.B, w *rigid.Workload, p backfill.Policy, v rigid.Variant) {
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

// sdscTrace is the SDSC Blue Horizon log of seed 003 in the shared trace
// folder, replayed on its 1,152 processors.
const sdscTrace = "../../../shared/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"

// BenchmarkTradeoffFSMonths runs Tradeoff-fs on real months of the study
// (experiments/vasupongayya2012.yaml), whose queues are short (5-11 jobs
// on average) and whose searches run out of budget in a third to a half
// of the decisions, unlike the synthetic month's: two of KTH SP2, two of
// SDSC Blue Horizon, among the heaviest of each.
func BenchmarkTradeoffFSMonths(b *testing.B) {
	months := []struct {
		label string
		trace string
		procs int
		month string
		v     rigid.Variant
	}{
		{"kth", kthTrace, 100, "1997-01", rigid.EstimateRequested},
		{"kth", kthTrace, 100, "1997-02", rigid.EstimateExact},
		{"sdsc", sdscTrace, 1152, "2000-08", rigid.EstimateRequested},
		{"sdsc", sdscTrace, 1152, "2001-04", rigid.EstimateExact},
	}
	traces := map[string]*rigidtrace.Trace{}
	for _, tt := range months {
		tr := traces[tt.trace]
		if tr == nil {
			if _, err := os.Stat(tt.trace); errors.Is(err, fs.ErrNotExist) {
				b.Skipf("%s is absent: download it from the Parallel Workloads Archive into ../shared/traces/ to run this (BenchmarkTradeoffFS runs a synthetic month meanwhile)", tt.trace)
			}
			var err error
			if tr, err = rigidtrace.Load(tt.trace, rigidtrace.Options{Procs: tt.procs}); err != nil {
				b.Fatal(err)
			}
			traces[tt.trace] = tr
		}
		m, err := rigidtrace.ParseMonth(tt.month)
		if err != nil {
			b.Fatal(err)
		}
		mw, err := tr.Month(m)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s-%s-%s", tt.label, tt.month, tt.v), func(b *testing.B) {
			benchmarkWorkload(b, &mw.Workload, backfill.TradeoffFS(), tt.v)
		})
	}
}

// BenchmarkOrders runs every queue order with EASY backfilling on one
// month of a real trace (SDSC Blue Horizon 2000-08, 1,152 processors,
// the users' requested times: one of the heavier months of seed 003),
// and fcfs with predicted estimates (Tsafrir, Etsion and Feitelson 2007).
// The static orders sort keys fixed at arrival, the dynamic ones (lxf,
// wfp3, unicef) compute them at every pass.
func BenchmarkOrders(b *testing.B) {
	if _, err := os.Stat(sdscTrace); errors.Is(err, fs.ErrNotExist) {
		b.Skipf("%s is absent: download it from the Parallel Workloads Archive into ../shared/traces/ to run this", sdscTrace)
	}
	tr, err := rigidtrace.Load(sdscTrace, rigidtrace.Options{Procs: 1152})
	if err != nil {
		b.Fatal(err)
	}
	m, err := rigidtrace.ParseMonth("2000-08")
	if err != nil {
		b.Fatal(err)
	}
	mw, err := tr.Month(m)
	if err != nil {
		b.Fatal(err)
	}
	for o := backfill.OrderFCFS; o <= backfill.OrderF4; o++ {
		b.Run(o.String(), func(b *testing.B) {
			benchmarkWorkload(b, &mw.Workload, backfill.Policy{Order: o}, rigid.EstimateRequested)
		})
	}
	b.Run("relshare", func(b *testing.B) {
		benchmarkWorkload(b, &mw.Workload, backfill.RelShare(), rigid.EstimateRequested)
	})
	b.Run("fcfs-predicted", func(b *testing.B) {
		benchmarkWorkload(b, &mw.Workload, backfill.FCFSEasy(), rigid.EstimatePredicted)
	})
}
