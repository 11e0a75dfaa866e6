package verify_test

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/dag"
)

// graham compiles Graham's workload (seed 004 Fig. 3: J1 T1(3) -> T9(9);
// J2 T2(2); J3 T3(2); J4 T4(2) -> T5..T8(4); all one core, all arriving
// at 0) on one cluster of 3 cores. Global task indices: T1 0, T9 1, T2 2,
// T3 3, T4 4, T5..T8 5..8. Ranks: T1 12, T9 9, T2 2, T3 2, T4 6, T5..T8 4.
func graham(t *testing.T) *grid.Instance {
	t.Helper()
	zero := int64(0)
	task := func(id string, exec int64, after ...string) dag.Task {
		return dag.Task{ID: id, ExecTicks: exec, Cores: 1, After: after}
	}
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Arrival: &zero, Tasks: []dag.Task{task("T1", 3), task("T9", 9, "T1")}},
		{ID: "J2", Arrival: &zero, Tasks: []dag.Task{task("T2", 2)}},
		{ID: "J3", Arrival: &zero, Tasks: []dag.Task{task("T3", 2)}},
		{ID: "J4", Arrival: &zero, Tasks: []dag.Task{task("T4", 2), task("T5", 4, "T4"), task("T6", 4, "T4"), task("T7", 4, "T4"), task("T8", 4, "T4")}},
	}}
	in, err := grid.Compile(w, platform.Single(3), grid.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// scheduleOf builds, by hand and without the simulator, the schedule that
// starts global task g at start[g] on the one cluster, with every job
// arriving at 0.
func scheduleOf(in *grid.Instance, start ...int64) *grid.Schedule {
	s := &grid.Schedule{
		Instance:    in,
		TaskCluster: make([]int32, in.Tasks()),
		TaskStart:   start,
		TaskFinish:  make([]int64, in.Tasks()),
		JobArrival:  make([]int64, in.Jobs()),
		JobStart:    make([]int64, in.Jobs()),
		JobFinish:   make([]int64, in.Jobs()),
	}
	for g := range start {
		s.TaskFinish[g] = start[g] + in.Exec(g)
	}
	for j := range in.Jobs() {
		first, end := in.JobTasks(j)
		s.JobStart[j] = s.TaskStart[first]
		for g := first; g < end; g++ {
			s.JobStart[j] = min(s.JobStart[j], s.TaskStart[g])
			s.JobFinish[j] = max(s.JobFinish[j], s.TaskFinish[g])
		}
	}
	return s
}

// TestSchedule runs the validator on Graham's schedules, as seed 004
// derives them and broken one rule at a time. Schedule B (fifo-task and
// fifo-job): T1@0 T9@3 T2@0 T3@0 T4@2 T5@4 T6@4 T7@8 T8@8. P-SLR: T1@2
// T9@6 T2@0 T3@0 T4@0 T5@2 T6@2 T7@5 T8@6 (the derivations are in
// engine's TestGrahamSingle3).
func TestSchedule(t *testing.T) {
	in := graham(t)
	scheduleB := func() *grid.Schedule { return scheduleOf(in, 0, 3, 0, 0, 2, 4, 4, 8, 8) }
	pslr := func() *grid.Schedule { return scheduleOf(in, 2, 6, 0, 0, 0, 2, 2, 5, 6) }
	tests := []struct {
		name     string
		schedule *grid.Schedule
		policy   string
		wantErr  string // "" for a valid schedule
	}{
		{"B/fifo-task", scheduleB(), "fifo-task", ""},
		{"B/fifo-job", scheduleB(), "fifo-job", ""},
		{"B/random", scheduleB(), "random", ""},
		{"B/fairshare", scheduleB(), "fairshare", ""},
		{"B/ostrich", scheduleB(), "ostrich", ""},
		{"B/log", scheduleB(), "log", ""},
		// srtf starts T4 (rank 6) before T1 (rank 12) at 0.
		{"B/srtf", scheduleB(), "srtf", "srtf: at tick 0 task 0 started although waiting task 4 ranks before it"},
		{"pslr/pslr", pslr(), "pslr", ""},
		// fifo-task starts T1 (job 0) first at 0.
		{"pslr/fifo-task", pslr(), "fifo-task", "fifo-task: at tick 0 task 2 started although waiting task 0 ranks before it"},
		// At 2 srtf would start T7 (rank 4) before T1 (rank 12).
		{"pslr/srtf", pslr(), "srtf", "srtf: at tick 2 task 0 started although waiting task 7 ranks before it"},
		// T7 at 7: T9, T5, T6 and T7 run at 7 on 3 cores.
		{"capacity", scheduleOf(in, 0, 3, 0, 0, 2, 4, 4, 7, 8), "fifo-task", "cluster c1 runs 4 cores at tick 7, has 3"},
		// T9 at 2, before T1 finishes at 3.
		{"precedence", scheduleOf(in, 0, 2, 0, 0, 2, 4, 4, 8, 8), "fifo-task", "task 1 (job 0) starts at 2 before it is ready at 3"},
		// T3 and T4 swapped: T4 starts at 0 while T3, of an earlier job,
		// waits.
		{"order", scheduleOf(in, 0, 3, 0, 2, 0, 4, 4, 8, 8), "fifo-task", "fifo-task: at tick 0 task 4 started although waiting task 3 ranks before it"},
		// T9 at 4: at 3 it is ready and 2 cores are free.
		{"idle head", scheduleOf(in, 0, 4, 0, 0, 2, 4, 4, 8, 8), "fifo-task", "fifo-task: at tick 3 cluster c1 has 2 free cores but its head task 1 (1 cores) waits"},
		{"idle/random", scheduleOf(in, 0, 4, 0, 0, 2, 4, 4, 8, 8), "random", "random: cluster c1 idles 2 cores at tick 3 while every waiting task fits"},
		{"idle/ostrich", scheduleOf(in, 0, 4, 0, 0, 2, 4, 4, 8, 8), "ostrich", ""},
		// One share: fair share is fifo-task.
		{"order/fairshare", scheduleOf(in, 0, 3, 0, 2, 0, 4, 4, 8, 8), "fairshare", "fairshare: at tick 0 cluster c1 has 1 free cores but its head task 3 (1 cores, factor 1) waits"},
		{"unknown policy", scheduleB(), "edf", `no order rule for policy "edf"`},
	}
	broken := func(name string, mutate func(s *grid.Schedule), wantErr string) {
		s := scheduleB()
		mutate(s)
		tests = append(tests, struct {
			name     string
			schedule *grid.Schedule
			policy   string
			wantErr  string
		}{name, s, "fifo-task", wantErr})
	}
	broken("exec", func(s *grid.Schedule) { s.TaskFinish[2] = 3 }, "task 2 ran 3 ticks, exec is 2")
	broken("never ran", func(s *grid.Schedule) { s.TaskCluster[3] = -1 }, "task 3 never ran (cluster -1)")
	broken("never submitted", func(s *grid.Schedule) { s.JobArrival[1] = -1 }, "job 1 was never submitted")
	broken("job finish", func(s *grid.Schedule) { s.JobFinish[3] = 11 }, "job 3: start/finish 2/11, tasks say 2/12")
	broken("shape", func(s *grid.Schedule) { s.TaskStart = s.TaskStart[:8] }, "TaskStart has 8 entries; the instance has 9")

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := verify.Schedule(tc.schedule, tc.policy)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Validate: %v, want a valid schedule", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("Validate: %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestScheduleFairShare: on 2 cores, share u1 owns J1 (T1, T2 of 10
// ticks) and J2 (T1 of 10), u2 owns J3 (T1 of 5), all arriving at 0;
// global tasks J1.T1 0, J1.T2 1, J2.T1 2, J3.T1 3. Fair share at 0: both
// shares idle (factors infinite), the fifo-task tie goes to J1.T1; then u1
// has factor 1/2 x 1/1 and u2 is still infinite, so J3.T1 starts; J1.T2
// at 5, J2.T1 at 10. The fifo-task schedule (J1.T1 and J1.T2 at 0) leaves
// J3.T1 waiting while it is fair share's head.
func TestScheduleFairShare(t *testing.T) {
	zero := int64(0)
	task := func(id string, exec int64) dag.Task { return dag.Task{ID: id, ExecTicks: exec, Cores: 1} }
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Arrival: &zero, Share: "u1", Tasks: []dag.Task{task("T1", 10), task("T2", 10)}},
		{ID: "J2", Arrival: &zero, Share: "u1", Tasks: []dag.Task{task("T1", 10)}},
		{ID: "J3", Arrival: &zero, Share: "u2", Tasks: []dag.Task{task("T1", 5)}},
	}}
	in, err := grid.Compile(w, platform.Single(2), grid.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Schedule(scheduleOf(in, 0, 5, 10, 0), "fairshare"); err != nil {
		t.Errorf("fair-share schedule: %v, want valid", err)
	}
	want := "fairshare: at tick 0 cluster c1 has 1 free cores but its head task 3 (1 cores, factor +Inf) waits"
	if err := verify.Schedule(scheduleOf(in, 0, 0, 10, 10), "fairshare"); err == nil || err.Error() != want {
		t.Errorf("fifo-task schedule: %v, want %q", err, want)
	}
}
