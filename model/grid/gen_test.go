package grid

import (
	"testing"

	"github.com/sweep-sched/sweep/workload/dag"
)

// Graham's workload (DESIGN.md section 3, Fig. 3), one core per task:
// J1 T1(3) -> T9(9) has critical path 12; J2, J3 one task of 2; J4
// T4(2) -> T5..T8(4 each) has 2 + 4 = 6. Edges 1 + 4 = 5; exec
// 12 + 2 + 2 + 18 = 34 = volume.
func TestSummarize(t *testing.T) {
	task := func(id string, exec int64, after ...string) dag.Task {
		return dag.Task{ID: id, ExecTicks: exec, Cores: 1, After: after}
	}
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Tasks: []dag.Task{task("T1", 3), task("T9", 9, "T1")}},
		{ID: "J2", Tasks: []dag.Task{task("T2", 2)}},
		{ID: "J3", Tasks: []dag.Task{task("T3", 2)}},
		{ID: "J4", Tasks: []dag.Task{task("T4", 2), task("T5", 4, "T4"), task("T6", 4, "T4"), task("T7", 4, "T4"), task("T8", 4, "T4")}},
	}}
	want := "4 jobs, 9 tasks, 5 edges, exec 34 ticks, volume 34 core-ticks, critical path (exec only, no delays) 2..12 ticks"
	if got := summarize(w); got != want {
		t.Errorf("summarize(Graham) = %q; want %q", got, want)
	}
}
