package cli

import (
	"path/filepath"
	"testing"
)

// TestRigidLoadsBadInput: issue 32's bad input for rigid traces (a load
// at or above 1, a window outside the trace, platform: trace on a log
// whose header gives no size) is refused by plan and run: exit 2, the
// field named with what is valid, nothing written.
func TestRigidLoadsBadInput(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	trace, nosize := abs("../sweep/testdata/norequest.swf.txt"), abs("../sweep/testdata/nosize.swf.txt")
	head := "experiment: x\nseed: 1\npolicies: [fcfs-easy]\n"
	for _, tt := range []struct{ name, manifest, want string }{
		{"load at the limit", head + "platform: single:4\nloads: [0.9, 1.0]\nworkloads:\n  - {trace: " + trace + ", estimates: [T]}\n",
			"loads: workloads[0] (norequest): load 1: a rigid workload's offered load must be > 0 and < 1"},
		{"load below 0", head + "platform: single:4\nloads: [-0.5]\nworkloads:\n  - {trace: " + trace + ", estimates: [T]}\n",
			"loads: -0.5; every load ratio must be > 0"},
		{"dates outside the trace", head + "platform: single:4\nworkloads:\n  - {trace: " + trace + ", estimates: [T], window: {from: 2001-01-01, to: 2001-02-01}}\n",
			"window: " + trace + ": window 2001-01-01T00:00:00Z..2001-02-01T00:00:00Z has no job: want dates within the trace"},
		{"jobs beyond the trace", head + "platform: single:4\nworkloads:\n  - {trace: " + trace + ", estimates: [T], window: {from_job: 1, to_job: 7}}\n",
			"window: " + trace + ": window of jobs [1, 7): want 0 <= from < to <= 3"},
		{"platform trace without a size", head + "platform: trace\nworkloads:\n  - {trace: " + nosize + ", estimates: [T]}\n",
			"platform trace: " + nosize + ": the header gives neither MaxProcs nor MaxNodes, so the machine's size is unknown; give a platform such as single:N"},
	} {
		checkRefusedByPlanAndRun(t, tt.name, tt.manifest, tt.want)
	}
}
