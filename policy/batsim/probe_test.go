package batsim

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/policy/child"
)

// Probe finds a scheduler that cannot start before any cell runs: its
// fault names the first message and quotes the scheduler's stderr (issue
// 35: a pybatsim installed in another interpreter failed every cell).
func TestProbeRefusesASchedulerThatCannotStart(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	err := Probe(context.Background(), Options{Command: []string{"python3", "-c", "import no_such_pybatsim"}}, 4)
	var fault *child.Fault
	if !errors.As(err, &fault) || fault.Decision.What != "SIMULATION_BEGINS" ||
		!strings.Contains(err.Error(), "ModuleNotFoundError: No module named 'no_such_pybatsim'") {
		t.Errorf("got %v; want the fault of SIMULATION_BEGINS with the ModuleNotFoundError", err)
	}
}
