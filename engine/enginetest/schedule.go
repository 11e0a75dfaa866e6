package enginetest

import (
	"testing"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
)

// CheckSchedule fails tb at once if s is not a valid schedule under the
// named policy (see verify.Schedule).
func CheckSchedule(tb testing.TB, s *grid.Schedule, policy string) {
	tb.Helper()
	if err := verify.Schedule(s, policy); err != nil {
		tb.Fatalf("%s: invalid schedule: %v", policy, err)
	}
}
