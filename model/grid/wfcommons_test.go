package grid_test

import (
	"context"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	gridengine "github.com/sweep-sched/sweep/engine/grid"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/gen/wfcommons"
	"github.com/sweep-sched/sweep/platform"
)

const sharedWorkflows = "../../../shared/workflows"

// TestWfCommonsSchedules runs a stream of 50 jobs drawn from the five
// WfInstances executions of ../shared/workflows, delays from file sizes,
// under every grid policy on seed 004's platform at load 0.9; every
// schedule is checked by engine/enginetest (precedence, capacity, delays).
func TestWfCommonsSchedules(t *testing.T) {
	if _, err := os.Stat(sharedWorkflows); err != nil {
		t.Skipf("the WfInstances files are not here (%v); gen/wfcommons' fixtures cover the converter", err)
	}
	src, err := wfcommons.LoadSource(sharedWorkflows)
	if err != nil {
		t.Fatal(err)
	}
	p := wfcommons.Defaults()
	if err := p.SetAll([]string{"jobs=50", "delays=files", "ticks-per-second=10"}); err != nil {
		t.Fatal(err)
	}
	w, err := wfcommons.Generate(p, src, 2013, 0)
	if err != nil {
		t.Fatal(err)
	}
	plat := platform.Burkimsher2013()
	if err := gridgen.SetArrivals(w, plat.TotalCores(), 0.9); err != nil {
		t.Fatal(err)
	}
	in, err := gridengine.Compile(w, plat, gridengine.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	for _, policy := range gridengine.Policies() {
		s, err := gridengine.Simulate(context.Background(), in, gridengine.Options{Policy: policy, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		enginetest.CheckSchedule(t, s, policy)
	}
}
