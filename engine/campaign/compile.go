package campaign

import (
	"fmt"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/campaign"
)

// Compile validates w and compiles it onto `single:machines`.
func Compile(w *campaign.Workload, machines int) (*grid.Instance, error) {
	if machines < 1 {
		return nil, fmt.Errorf("compile campaign workload: %d machines; want >= 1", machines)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	in, err := grid.Compile(w.DAG(), platform.Single(machines), grid.DefaultNetwork())
	if err != nil {
		return nil, fmt.Errorf("compile campaign workload: %w", err)
	}
	return in, nil
}
