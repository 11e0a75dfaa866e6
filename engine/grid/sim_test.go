package grid_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/dag"
)

func loadWorkload(t *testing.T, path string) *dag.Workload {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := dag.Decode(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func simulate(t testing.TB, w *dag.Workload, p *platform.Platform, net grid.Network, policy string, seed uint64) *grid.Schedule {
	t.Helper()
	in, err := grid.Compile(w, p, net)
	if err != nil {
		t.Fatal(err)
	}
	s, err := grid.Simulate(context.Background(), in, grid.Options{Policy: policy, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// starts returns "TaskID@start" in task order, the schedule written the
// way the derivations below are.
func starts(s *grid.Schedule) string {
	var b strings.Builder
	for g, id := range s.Instance.TaskIDs {
		if g > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s@%d", id, s.TaskStart[g])
	}
	return b.String()
}

// TestGrahamSingle3 simulates Graham's workload (seed 004 Fig. 3: J1 T1(3)
// -> T9(9); J2 T2(2); J3 T3(2); J4 T4(2) -> T5..T8(4); all one core, all
// arriving at 0) on one cluster of 3 cores. Ranks: T1 12, T9 9, T2 2, T3 2,
// T4 6, T5..T8 4; CP J1 12, J2 2, J3 2, J4 6. Each schedule below was
// derived by hand from DESIGN.md's rules.
func TestGrahamSingle3(t *testing.T) {
	w := loadWorkload(t, "testdata/graham.json")
	tests := []struct {
		policy, want, derivation string
	}{
		{"fifo-task", "T1@0 T9@3 T2@0 T3@0 T4@2 T5@4 T6@4 T7@8 T8@8", `
t=0 ready T1 T2 T3 T4 (all tick 0, job order): start T1 T2 T3; T4 waits.
t=2 T2 T3 finish: start T4 (1 core idle). t=3 T1 finishes, T9 ready: start T9.
t=4 T4 finishes, T5..T8 ready, 2 cores free: start T5 T6. t=8: start T7 T8.
This is the paper's schedule B.`},
		{"fifo-job", "T1@0 T9@3 T2@0 T3@0 T4@2 T5@4 T6@4 T7@8 T8@8", `
All jobs arrive at 0, so the key is job index then ready tick: the same
choices as fifo-task at every tick; schedule B again.`},
		{"srtf", "T1@6 T9@9 T2@0 T3@0 T4@0 T5@2 T6@2 T7@2 T8@6", `
t=0 ranks T2 2, T3 2, T4 6, T1 12: start T2 T3 T4. t=2 they finish; ready
T5..T8 (4) and T1 (12): start T5 T6 T7. t=6 they finish: start T8 (4) then
T1 (12). t=9 T1 finishes: start T9.`},
		{"lrtf", "T1@0 T9@3 T2@0 T3@10 T4@0 T5@2 T6@2 T7@6 T8@6", `
t=0 ranks T1 12, T4 6, T2 2 (before T3 by job index): start T1 T4 T2.
t=2 T4 T2 finish; ready T5..T8 (4) before T3 (2): start T5 T6. t=3 T1
finishes: start T9 (9). t=6 T5 T6 finish: start T7 T8. t=10: start T3.`},
		{"pslr", "T1@2 T9@6 T2@0 T3@0 T4@0 T5@2 T6@2 T7@5 T8@6", `
value (now + rank + 1 - arrival) / CP. t=0: T2 3/2, T3 3/2, T4 7/6, T1
13/12: start T2 T3 T4. t=2: T1 15/12 > T5..T8 7/6: start T1 T5 T6.
t=5 T1 finishes: T7 T8 10/6 > T9 15/12, 1 core free: start T7.
t=6 T5 T6 finish: T8 11/6 > T9 16/12: start T8 T9.`},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			s := simulate(t, w, platform.Single(3), grid.DefaultNetwork(), tc.policy, 1)
			enginetest.CheckSchedule(t, s, tc.policy)
			if got := starts(s); got != tc.want {
				t.Errorf("starts\n got %s\nwant %s\nderivation:%s", got, tc.want, tc.derivation)
			}
		})
	}
}

func TestGrahamRanks(t *testing.T) {
	in, err := grid.Compile(loadWorkload(t, "testdata/graham.json"), platform.Single(3), grid.DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	wantRank := []int64{12, 9, 2, 2, 6, 4, 4, 4, 4}
	for g, want := range wantRank {
		if got := in.Rank(g); got != want {
			t.Errorf("rank of %s = %d, want %d", in.TaskIDs[g], got, want)
		}
	}
	for j, want := range []int64{12, 2, 2, 6} {
		if got := in.CriticalPath(j); got != want {
			t.Errorf("CP of %s = %d, want %d", in.JobIDs[j], got, want)
		}
	}
}

func at(t int64) *int64 { return &t }

// smallGrid is burkimsher2013 in miniature: c1, c2, c3 of 4 Kind1 cores
// and c4 of 4 Kind2 cores under one router.
func smallGrid(t testing.TB) *platform.Platform {
	p, err := platform.New("small", []platform.Cluster{{Name: "c1", Cores: 4, Kind: "Kind1"}, {Name: "c2", Cores: 4, Kind: "Kind1"}, {Name: "c3", Cores: 4, Kind: "Kind1"}, {Name: "c4", Cores: 4, Kind: "Kind2"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRoutingAndDelays follows jobs through load balancing and splitting.
// Expected queue length = remaining core-ticks / cores:
//
//	t=0 J1 (4 cores x 10): all queues 0, first accepting child c1.
//	t=0 J2 (2 x 10): c1 40/4 = 10, c2 0 -> c2.
//	t=1 J3 (4 x 5): c1 (40-4)/4 = 9, c2 (20-2)/4 = 4.5, c3 0 -> c3.
//	t=2 J4 (1 x 1): c1 32/4 = 8, c2 16/4 = 4, c3 (20-4)/4 = 4 -> tie, c2.
//	t=3 J5: Kind1 T1 -> Kind2 T2, and Kind1 T3 after T1. No cluster runs
//	    both kinds, so the job splits: Kind1 to c1 28/4 = 7, c2 14/4 = 3.5
//	    (J4 finished at 3), c3 (20-8)/4 = 3 -> c3; Kind2 to c4.
//	    T1 waits for J3's 4 cores until 6, runs 6-8. T3 is on T1's cluster:
//	    no delay, starts at 8. T2 crosses clusters: delay ceil(2 x 0.2) = 1,
//	    starts at 9. CP(J5) = 2 + 1 + 10 = 13 (the delay is unavoidable).
//
// With the fastgridsim formula the delay is ceil(2 x 0.8/0.2) = 8: T2
// starts at 16 and CP(J5) = 2 + 8 + 10 = 20. With T1's own delay of 5
// ticks (dag.Task.DelayTicks, whatever the formula) T2 starts at
// 8 + 5 = 13 and CP(J5) = 2 + 5 + 10 = 17; with its own delay 0, at 8 and
// CP(J5) = 12. T3 shares T1's cluster and starts at 8 in every case.
func TestRoutingAndDelays(t *testing.T) {
	k1 := func(id string, exec int64, cores int, after ...string) dag.Task {
		return dag.Task{ID: id, ExecTicks: exec, Cores: cores, Kind: "Kind1", After: after}
	}
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Arrival: at(0), Tasks: []dag.Task{k1("T1", 10, 4)}},
		{ID: "J2", Arrival: at(0), Tasks: []dag.Task{k1("T1", 10, 2)}},
		{ID: "J3", Arrival: at(1), Tasks: []dag.Task{k1("T1", 5, 4)}},
		{ID: "J4", Arrival: at(2), Tasks: []dag.Task{k1("T1", 1, 1)}},
		{ID: "J5", Arrival: at(3), Tasks: []dag.Task{
			k1("T1", 2, 1),
			{ID: "T2", ExecTicks: 10, Cores: 1, Kind: "Kind2", After: []string{"T1"}},
			k1("T3", 1, 1, "T1"),
		}},
	}}
	for _, tc := range []struct {
		net          grid.Network
		t1Delay      *int64
		wantT2, cpJ5 int64
	}{
		{grid.DefaultNetwork(), nil, 9, 13},
		{grid.Network{CCR: "0.2", Delay: grid.DelayFastgridsim}, nil, 16, 20},
		{grid.Network{CCR: "0.2", Delay: grid.DelayFastgridsim}, at(5), 13, 17},
		{grid.DefaultNetwork(), at(0), 8, 12},
	} {
		w.Jobs[4].Tasks[0].DelayTicks = tc.t1Delay
		s := simulate(t, w, smallGrid(t), tc.net, "fifo-task", 1)
		enginetest.CheckSchedule(t, s, "fifo-task")
		clusters := []string{}
		for g := range s.TaskCluster {
			clusters = append(clusters, s.Instance.Platform.Clusters[s.TaskCluster[g]].Name)
		}
		if got, want := strings.Join(clusters, " "), "c1 c2 c3 c2 c3 c4 c3"; got != want {
			t.Errorf("%s: clusters %s, want %s", tc.net.Delay, got, want)
		}
		if got, want := starts(s), fmt.Sprintf("T1@0 T1@0 T1@1 T1@2 T1@6 T2@%d T3@8", tc.wantT2); got != want {
			t.Errorf("%s: starts %s, want %s", tc.net.Delay, got, want)
		}
		if got := s.Instance.CriticalPath(4); got != tc.cpJ5 {
			t.Errorf("%s: CP(J5) = %d, want %d", tc.net.Delay, got, tc.cpJ5)
		}
	}
}

// TestFairShare: two shares on 2 cores, everything arriving at 0. u1 owns
// J1 (two 10-tick tasks) and J2 (one); u2 owns J3 (5 ticks).
//
//	t=0 both shares idle, factors infinite: the fifo-task tie goes to J1.T1.
//	    Now u1 uses 1 of 1 running core: factor 0.5 x 1/1 = 0.5; u2 is
//	    still infinite: J3.T1 starts although J1.T2 is ahead in FIFO order.
//	t=5 J3 finishes: J1.T2. t=10 J1.T1 finishes: J2.T1.
//
// fifo-task would start J1.T1 and J1.T2 at 0 and J3 only at 10.
func TestFairShare(t *testing.T) {
	task := func(id string, exec int64) dag.Task { return dag.Task{ID: id, ExecTicks: exec, Cores: 1} }
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Arrival: at(0), Share: "u1", Tasks: []dag.Task{task("T1", 10), task("T2", 10)}},
		{ID: "J2", Arrival: at(0), Share: "u1", Tasks: []dag.Task{task("T1", 10)}},
		{ID: "J3", Arrival: at(0), Share: "u2", Tasks: []dag.Task{task("T1", 5)}},
	}}
	for _, tc := range []struct{ policy, want string }{
		{"fairshare", "T1@0 T2@5 T1@10 T1@0"},
		{"fifo-task", "T1@0 T2@0 T1@10 T1@10"},
	} {
		s := simulate(t, w, platform.Single(2), grid.DefaultNetwork(), tc.policy, 1)
		enginetest.CheckSchedule(t, s, tc.policy)
		if got := starts(s); got != tc.want {
			t.Errorf("%s: starts %s, want %s", tc.policy, got, tc.want)
		}
	}
}

// TestFairShareTie: on 1 core, u1 owns J1 (2 ticks) and J3 (1 tick), u2
// owns J2 (2 ticks), all arriving at 0. Whenever the core is free nothing
// runs, so both factors are infinite and the fifo-task keys of the
// leaves' heads decide:
//
//	t=0 u1's head J1.T1 (ready 0, job 0) before u2's J2.T1 (0, job 1): J1.
//	t=2 u2's head J2.T1 (0, job 1) before u1's J3.T1 (0, job 2): J2,
//	    although u1 was seen first.
//	t=4 J3.
func TestFairShareTie(t *testing.T) {
	task := func(exec int64) []dag.Task { return []dag.Task{{ID: "T1", ExecTicks: exec, Cores: 1}} }
	w := &dag.Workload{Jobs: []dag.Job{
		{ID: "J1", Arrival: at(0), Share: "u1", Tasks: task(2)},
		{ID: "J2", Arrival: at(0), Share: "u2", Tasks: task(2)},
		{ID: "J3", Arrival: at(0), Share: "u1", Tasks: task(1)},
	}}
	s := simulate(t, w, platform.Single(1), grid.DefaultNetwork(), "fairshare", 1)
	enginetest.CheckSchedule(t, s, "fairshare")
	if got, want := starts(s), "T1@0 T1@2 T1@4"; got != want {
		t.Errorf("starts %s, want %s", got, want)
	}
}

// TestRandomStreams pins how the random policy draws: cluster c has its
// own stream PCG(seed, 0x5eed0000 + c + 1), and each head is one uniform
// pick, IntN(waiting), among the waiting tasks in push order, the picked
// task's place taken by the last one. On two 1-core clusters, c1 of Kind1
// and c2 of Kind2, J1's eight Kind1 tasks and J2's eight Kind2 tasks of 1
// tick each arrive at 0, so each cluster starts one task a tick, in the
// order of its own draws, computed here from math/rand/v2 directly.
func TestRandomStreams(t *testing.T) {
	p, err := platform.New("two", []platform.Cluster{{Name: "c1", Cores: 1, Kind: "Kind1"}, {Name: "c2", Cores: 1, Kind: "Kind2"}})
	if err != nil {
		t.Fatal(err)
	}
	const perJob = 8
	w := &dag.Workload{}
	for j, kind := range []string{"Kind1", "Kind2"} {
		job := dag.Job{ID: fmt.Sprintf("J%d", j+1), Arrival: at(0)}
		for i := range perJob {
			job.Tasks = append(job.Tasks, dag.Task{ID: fmt.Sprintf("T%d", i+1), ExecTicks: 1, Cores: 1, Kind: kind})
		}
		w.Jobs = append(w.Jobs, job)
	}
	for _, seed := range []uint64{1, 2013} {
		s := simulate(t, w, p, grid.DefaultNetwork(), "random", seed)
		enginetest.CheckSchedule(t, s, "random")
		for c := range 2 {
			r := rand.New(rand.NewPCG(seed, 0x5eed0000+uint64(c)+1))
			waiting := make([]int, perJob)
			for i := range waiting {
				waiting[i] = c*perJob + i
			}
			for tick := int64(0); len(waiting) > 0; tick++ {
				k := r.IntN(len(waiting))
				if g := waiting[k]; s.TaskStart[g] != tick || s.TaskCluster[g] != int32(c) {
					t.Fatalf("seed %d: task %d starts at %d on cluster %d; want %d on %d", seed, g, s.TaskStart[g], s.TaskCluster[g], tick, c)
				}
				waiting[k] = waiting[len(waiting)-1]
				waiting = waiting[:len(waiting)-1]
			}
		}
	}
}

// randomWorkload builds jobs of 1-8 tasks with forward edges (p = 0.35),
// random kinds, widths and arrivals: small enough for the validator,
// dense enough to queue.
func randomWorkload(seed uint64, jobs int, maxExec int64, cores []int, span int64) *dag.Workload {
	r := rand.New(rand.NewPCG(seed, 7))
	// A share tree of unequal entitlements: a, b and c 1/3 each of the
	// platform; a/x, a/y and a/z 1/9; c/x all of c's 1/3.
	shares := []string{"a/x", "a/y", "a/z", "b", "c/x"}
	w := &dag.Workload{}
	for j := 0; j < jobs; j++ {
		job := dag.Job{ID: fmt.Sprintf("J%d", j+1), Arrival: at(r.Int64N(span)), Share: shares[r.IntN(len(shares))]}
		n := 1 + r.IntN(8)
		for i := 0; i < n; i++ {
			task := dag.Task{ID: fmt.Sprintf("T%d", i+1), ExecTicks: 1 + r.Int64N(maxExec), Cores: cores[r.IntN(len(cores))], Kind: "Kind1"}
			if r.Float64() < 0.2 {
				task.Kind = "Kind2"
			}
			if r.Float64() < 0.1 {
				task.ReleaseTicks = r.Int64N(10)
			}
			for p := 0; p < i; p++ {
				if r.Float64() < 0.35 {
					task.After = append(task.After, fmt.Sprintf("T%d", p+1))
				}
			}
			job.Tasks = append(job.Tasks, task)
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// TestRandomWorkloadsValid runs the validator on randomized workloads
// under all seven policies, on a small grid (queues build up) and on the
// paper's platform with paper task widths.
func TestRandomWorkloadsValid(t *testing.T) {
	cases := []struct {
		name     string
		platform *platform.Platform
		jobs     int
		maxExec  int64
		cores    []int
		span     int64
	}{
		{"small-grid", smallGrid(t), 60, 20, []int{1, 2, 3, 4}, 80},
		{"burkimsher2013", platform.Burkimsher2013(), 400, 300, []int{1, 5, 10, 15, 20}, 300},
	}
	for _, tc := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			w := randomWorkload(seed, tc.jobs, tc.maxExec, tc.cores, tc.span)
			for _, policy := range grid.Policies() {
				t.Run(fmt.Sprintf("%s/%d/%s", tc.name, seed, policy), func(t *testing.T) {
					s := simulate(t, w, tc.platform, grid.DefaultNetwork(), policy, seed)
					enginetest.CheckSchedule(t, s, policy)
				})
			}
		}
	}
}

// TestDeterministic: the same inputs give the same schedule, and the
// random policy's schedule depends on its seed.
func TestDeterministic(t *testing.T) {
	w := randomWorkload(9, 60, 20, []int{1, 2, 3, 4}, 40)
	for _, policy := range grid.Policies() {
		a := starts(simulate(t, w, smallGrid(t), grid.DefaultNetwork(), policy, 5))
		b := starts(simulate(t, w, smallGrid(t), grid.DefaultNetwork(), policy, 5))
		if a != b {
			t.Errorf("%s: two runs differ", policy)
		}
		if c := starts(simulate(t, w, smallGrid(t), grid.DefaultNetwork(), policy, 6)); (c != a) != (policy == "random") {
			t.Errorf("%s: seed changed the schedule: %v", policy, c != a)
		}
	}
}

// TestRelease: J1's T2 is released 5 ticks after the job arrives at 1, so
// it starts at 6 although cores are free from 1; T3 after T1 (exec 2) is
// released at 1 + 1 = 2 but waits for T1 until 3.
func TestRelease(t *testing.T) {
	w := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: at(1), Tasks: []dag.Task{
		{ID: "T1", ExecTicks: 2, Cores: 1},
		{ID: "T2", ExecTicks: 1, Cores: 1, ReleaseTicks: 5},
		{ID: "T3", ExecTicks: 1, Cores: 1, ReleaseTicks: 1, After: []string{"T1"}},
	}}}}
	for _, policy := range grid.Policies() {
		s := simulate(t, w, platform.Single(4), grid.DefaultNetwork(), policy, 1)
		enginetest.CheckSchedule(t, s, policy)
		if got, want := starts(s), "T1@1 T2@6 T3@3"; got != want {
			t.Errorf("%s: starts %s, want %s", policy, got, want)
		}
	}
}

func TestBadInput(t *testing.T) {
	wide := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: at(0), Tasks: []dag.Task{{ID: "T1", ExecTicks: 1, Cores: 5, Kind: "Kind2"}}}}}
	_, err := grid.Compile(wide, smallGrid(t), grid.DefaultNetwork())
	if err == nil || !strings.Contains(err.Error(), `5 cores is wider than every Kind2 cluster of platform small (widest: 4 cores)`) {
		t.Errorf("wide task: %v", err)
	}
	alien := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: at(0), Tasks: []dag.Task{{ID: "T1", ExecTicks: 1, Cores: 1, Kind: "GPU"}}}}}
	_, err = grid.Compile(alien, smallGrid(t), grid.DefaultNetwork())
	if err == nil || !strings.Contains(err.Error(), `"GPU" is not a kind of platform small; valid kinds: Kind1, Kind2`) {
		t.Errorf("unknown kind: %v", err)
	}
	// Two tasks of 2^61 ticks fit the horizon, but with CCR 2 their
	// delays (2^62 each) could push a chain's ticks past 2^63.
	huge := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: at(0), Tasks: []dag.Task{
		{ID: "T1", ExecTicks: 1 << 61, Cores: 1}, {ID: "T2", ExecTicks: 1 << 61, Cores: 1, After: []string{"T1"}}}}}}
	_, err = grid.Compile(huge, smallGrid(t), grid.Network{CCR: "2", Delay: grid.DelayCCR})
	if err == nil || !strings.Contains(err.Error(), `job 0 ("J1") task 0 ("T1") field "exec": 2305843009213693952: with network delays of ceil(exec x 2)`) {
		t.Errorf("delay overflow: %v", err)
	}
	in, _ := grid.Compile(loadWorkload(t, "testdata/graham.json"), platform.Single(3), grid.DefaultNetwork())
	if _, err := grid.Simulate(context.Background(), in, grid.Options{Policy: "edf"}); err == nil || !strings.Contains(err.Error(), `unknown policy "edf"; valid policies: [random fifo-task`) {
		t.Errorf("unknown policy: %v", err)
	}
}

// TestTicksBeyond2To62: the largest admitted workloads have events past
// 2^62 once network delays are added (the event loop's old 'no event'
// tick, which ended it early with "did not finish"). J1 arrives at
// 2^62 - 6 with T1 (5 ticks, Kind1) then T2 (1 tick, Kind2): with CCR 2
// the cross-cluster delay is 10, so T2 starts at 2^62 + 9.
func TestTicksBeyond2To62(t *testing.T) {
	const arrival = 1<<62 - 6
	w := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: at(arrival), Tasks: []dag.Task{
		{ID: "T1", ExecTicks: 5, Cores: 1, Kind: "Kind1"},
		{ID: "T2", ExecTicks: 1, Cores: 1, Kind: "Kind2", After: []string{"T1"}}}}}}
	s := simulate(t, w, smallGrid(t), grid.Network{CCR: "2", Delay: grid.DelayCCR}, "fifo-task", 1)
	if got, want := starts(s), fmt.Sprintf("T1@%d T2@%d", int64(arrival), int64(1<<62+9)); got != want {
		t.Errorf("starts %s, want %s", got, want)
	}
}
