package rigid

import (
	"context"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// BenchmarkLublinFCFSEasy is issue 32's speed target for synthetic
// workloads: one 10,000-job Lublin-Feitelson instance on 256 processors
// (the published parameters, Tsafrir estimates) under fcfs-easy, told the
// requested times, in at most 5 ms of simulation. Drawing the instance is
// outside the timed loop (gen/rigid's BenchmarkLublin10000 times it).
func BenchmarkLublinFCFSEasy(b *testing.B) {
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), 256, 10000, [2]uint64{2003, 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), [2]uint64{2005, 1}); err != nil {
		b.Fatal(err)
	}
	w.MeasureFromSeconds, w.MeasureToSeconds = w.Jobs[0].SubmitSeconds, w.Jobs[len(w.Jobs)-1].SubmitSeconds+1
	b.ReportMetric(float64(len(w.Jobs)), "jobs")
	for b.Loop() {
		if _, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, backfill.FCFSEasy()); err != nil {
			b.Fatal(err)
		}
	}
}
