package verify_test

import (
	"context"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// BenchmarkRigid is the validator's cost on issue 32's 10,000-job
// Lublin-Feitelson instance under fcfs-easy, beside the simulation's
// (model/rigid's BenchmarkLublinFCFSEasy): the sim sub-benchmark runs the
// simulation alone, verify the validator alone.
func BenchmarkRigid(b *testing.B) {
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), 256, 10000, [2]uint64{2003, 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), [2]uint64{2005, 1}); err != nil {
		b.Fatal(err)
	}
	w.MeasureFromSeconds, w.MeasureToSeconds = w.Jobs[0].SubmitSeconds, w.Jobs[len(w.Jobs)-1].SubmitSeconds+1
	for _, v := range []rigid.Variant{rigid.EstimateRequested, rigid.EstimatePredicted} {
		sched, err := backfill.Simulate(context.Background(), w, v, backfill.FCFSEasy())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(v.String()+"/sim", func(b *testing.B) {
			for b.Loop() {
				if _, err := backfill.Simulate(context.Background(), w, v, backfill.FCFSEasy()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(v.String()+"/verify", func(b *testing.B) {
			b.ReportMetric(float64(len(sched.Reservations)), "reservations")
			for b.Loop() {
				if err := verify.Rigid(w, v, sched); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
