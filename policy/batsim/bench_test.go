package batsim

import (
	"context"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// benchWorkload is 2000 one-resource jobs of 1 to 7 s, one a second, on
// 4 resources: about one message per second of simulated time, each with
// a submission, a completion or both, and a decision to answer.
func benchWorkload() *rigid.Workload {
	w := &rigid.Workload{Name: "bench", Procs: 4}
	for i := range 2000 {
		run := int64(1 + i%7)
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: int64(i), Procs: 1, RunSeconds: run, RequestedSeconds: run})
	}
	return w
}

// BenchmarkDecisions measures request-reply exchanges per second over
// the ipc socket, scheduler start and SIMULATION_BEGINS included, with a
// Go FCFS scheduler (the protocol's own cost) and pybatsim's schedFcfs
// and easyBackfill.
func BenchmarkDecisions(b *testing.B) {
	w := benchWorkload()
	schedulers := []struct {
		name string
		opts func() Options
	}{
		{"go-fcfs", func() Options { return schedulerCommand(b, "fcfs") }},
		{"pybatsim-schedFcfs", func() Options {
			return Options{Command: []string{enginetest.Pybatsim(b), "-v", "warning", "schedFcfs"}}
		}},
		{"pybatsim-easyBackfill", func() Options {
			return Options{Command: []string{enginetest.Pybatsim(b), "-v", "warning", "easyBackfill"}}
		}},
	}
	for _, s := range schedulers {
		b.Run(s.name, func(b *testing.B) {
			opts := s.opts()
			var requests int64
			for b.Loop() {
				sched, err := Simulate(context.Background(), w, opts)
				if err != nil {
					b.Fatal(err)
				}
				requests += sched.Counts.Requests
			}
			b.ReportMetric(float64(requests)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}

// BenchmarkKTHMonth runs KTH 1996-10 (variant R) under the built-in
// fcfs-easy, the built-in with pybatsim's options (the same schedule as
// pybatsim's) and pybatsim's easyBackfill; run each alone under
// /usr/bin/time -v for the whole-process comparison.
func BenchmarkKTHMonth(b *testing.B) {
	w := kthMonth(b, "1996-10")
	for _, c := range []struct {
		name string
		p    backfill.Policy
	}{{"builtin-fcfs-easy", backfill.FCFSEasy()}, {"builtin-contiguous-per-event", pybatsimEasy()}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, c.p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("pybatsim-easyBackfill", func(b *testing.B) {
		opts := Options{Command: []string{enginetest.Pybatsim(b), "-v", "warning", "easyBackfill"}}
		for b.Loop() {
			sched, err := Simulate(context.Background(), w, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(sched.Counts.Requests), "decisions")
		}
	})
}
