package grid_test

import (
	"context"
	"testing"

	"github.com/sweep-sched/sweep/engine/grid"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/platform"
)

// paperInstance compiles instance 0 of a Table 2 preset on burkimsher2013
// with arrivals at the given load ratio.
func paperInstance(b testing.TB, preset string, load float64) *grid.Instance {
	b.Helper()
	p, err := gridgen.Lookup(preset)
	if err != nil {
		b.Fatal(err)
	}
	w, err := gridgen.Generate(p.Defaults(), 2013, 0)
	if err != nil {
		b.Fatal(err)
	}
	platform := platform.Burkimsher2013()
	if err := gridgen.SetArrivals(w, platform.TotalCores(), load); err != nil {
		b.Fatal(err)
	}
	in, err := grid.Compile(w, platform, grid.DefaultNetwork())
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkSimulate simulates a Table 2 instance at load 1.2 under every
// policy and reports the cost per task (each task is one start and one
// finish event) and per event tick, and the process's CPU time per
// simulation (cpu-ns/op, where the system tells it): on the shared
// development machine wall time also counts the time the benchmark waits
// for a core (run it with GOMAXPROCS=1, or the garbage collector's other
// threads count too).
func BenchmarkSimulate(b *testing.B) {
	for _, preset := range []string{"burkimsher2013/fan-chain", "burkimsher2013/log-independent"} {
		in := paperInstance(b, preset, 1.2)
		for _, policy := range grid.Policies() {
			b.Run(preset[len("burkimsher2013/"):]+"/"+policy, func(b *testing.B) {
				var ticks int64
				cpu := cpuTime(b)
				for i := 0; i < b.N; i++ {
					s, err := grid.Simulate(context.Background(), in, grid.Options{Policy: policy, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					ticks = s.EventTicks
				}
				if cpu >= 0 {
					b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
				}
				perRun := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(perRun/float64(in.Tasks()), "ns/task")
				b.ReportMetric(perRun/float64(ticks), "ns/tick")
				b.ReportMetric(float64(in.Tasks()), "tasks")
			})
		}
	}
}
