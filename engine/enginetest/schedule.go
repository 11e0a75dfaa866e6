package enginetest

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine"
)

// CheckSchedule fails tb at once if s is not a valid schedule under the
// named policy (see Validate).
func CheckSchedule(tb testing.TB, s *engine.Schedule, policy string) {
	tb.Helper()
	if err := Validate(s, policy); err != nil {
		tb.Fatalf("%s: invalid schedule: %v", policy, err)
	}
}

// Validate returns the first rule that s, a schedule of s.Instance under
// the named policy, breaks, or nil if it keeps them all:
//   - every task ran exactly once, for exactly its execution time, on a
//     cluster of its kind that is wide enough; every job was submitted;
//     each job's start and finish are its first task start and last task
//     finish;
//   - no cluster ever runs more cores than it has (a finish at t frees its
//     cores before a start at t);
//   - no task starts before its job's arrival plus its release offset,
//     before its predecessors finished, or before a cross-cluster edge's
//     network delay elapsed;
//   - the policy's order, checked after the pass at every tick on every
//     cluster. Under a policy whose order is a function of the schedule
//     (fifo-task, fifo-job, srtf, lrtf, pslr, and campaign fcfs), the
//     strict head-of-queue rule: either nothing is waiting or the policy's
//     head among the waiting tasks does not fit in the free cores, and
//     every task started at that tick ranks before every task left
//     waiting. Under random and fairshare, whose order is not a function of
//     the schedule, only that some waiting task does not fit. Campaign
//     ostrich (which may hold a campaign back until its virtual start) and
//     log (a replay of a recorded schedule) have no order rule.
//
// The ranks are DESIGN.md's sort keys, written out here independently of
// the simulator's orders.
func Validate(s *engine.Schedule, policy string) error {
	rule, ok := orderRules()[policy]
	if !ok {
		return fmt.Errorf("no order rule for policy %q", policy)
	}
	if err := checkShape(s); err != nil {
		return err
	}
	ready, err := checkTasks(s)
	if err != nil {
		return err
	}
	if err := checkJobs(s); err != nil {
		return err
	}
	for c := range s.Instance.Platform.Clusters {
		if err := checkCluster(s, ready, c, policy, rule); err != nil {
			return err
		}
	}
	return nil
}

// An orderRule is what the validator checks of the order in which a
// policy serves the waiting tasks of a cluster.
type orderRule struct {
	// ranksBefore reports whether waiting task a is served before b at
	// tick now, given each task's ready tick; nil if the order is not a
	// function of the schedule.
	ranksBefore func(s *engine.Schedule, ready []int64, a, b int, now int64) bool
	// blocked asks, when ranksBefore is nil, that some waiting task not
	// fit in the free cores after every pass.
	blocked bool
}

// orderRules is the table of known policies.
func orderRules() map[string]orderRule {
	return map[string]orderRule{
		"random":    {blocked: true},
		"fairshare": {blocked: true},
		"fifo-task": {ranksBefore: keyOrder(func(s *engine.Schedule, ready []int64, g int, _ int64) []int64 {
			return []int64{ready[g], int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"fifo-job": {ranksBefore: keyOrder(func(s *engine.Schedule, ready []int64, g int, _ int64) []int64 {
			j := s.Instance.TaskJob(g)
			return []int64{s.JobArrival[j], int64(j), ready[g], int64(g)}
		})},
		"srtf": {ranksBefore: keyOrder(func(s *engine.Schedule, _ []int64, g int, _ int64) []int64 {
			return []int64{s.Instance.Rank(g), int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"lrtf": {ranksBefore: keyOrder(func(s *engine.Schedule, _ []int64, g int, _ int64) []int64 {
			return []int64{-s.Instance.Rank(g), int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"pslr": {ranksBefore: pslrRanksBefore},
		// Campaign policies: a campaign is an engine job, its jobs are the
		// job's tasks.
		"fcfs": {ranksBefore: keyOrder(func(s *engine.Schedule, _ []int64, g int, _ int64) []int64 {
			j := s.Instance.TaskJob(g)
			return []int64{s.JobArrival[j], int64(j), int64(g)}
		})},
		"ostrich": {},
		"log":     {},
	}
}

// keyOrder ranks tasks by key, smaller first, compared field by field.
func keyOrder(key func(s *engine.Schedule, ready []int64, g int, now int64) []int64) func(*engine.Schedule, []int64, int, int, int64) bool {
	return func(s *engine.Schedule, ready []int64, a, b int, now int64) bool {
		return slices.Compare(key(s, ready, a, now), key(s, ready, b, now)) < 0
	}
}

// pslrRanksBefore ranks by projected SLR (now + rank + 1 - arrival) / CP,
// highest first, computed exactly; then job index, then task index.
func pslrRanksBefore(s *engine.Schedule, _ []int64, a, b int, now int64) bool {
	in := s.Instance
	ja, jb := in.TaskJob(a), in.TaskJob(b)
	va := big.NewRat(now+in.Rank(a)+1-s.JobArrival[ja], in.CriticalPath(ja))
	vb := big.NewRat(now+in.Rank(b)+1-s.JobArrival[jb], in.CriticalPath(jb))
	if c := va.Cmp(vb); c != 0 {
		return c > 0
	}
	return slices.Compare([]int{ja, a}, []int{jb, b}) < 0
}

// checkShape rejects a schedule whose slices do not match its instance.
func checkShape(s *engine.Schedule) error {
	in := s.Instance
	if in == nil {
		return errors.New("schedule has no instance")
	}
	n, nj := in.Tasks(), in.Jobs()
	for _, f := range []struct {
		name      string
		got, want int
	}{
		{"TaskCluster", len(s.TaskCluster), n}, {"TaskStart", len(s.TaskStart), n}, {"TaskFinish", len(s.TaskFinish), n},
		{"JobArrival", len(s.JobArrival), nj}, {"JobStart", len(s.JobStart), nj}, {"JobFinish", len(s.JobFinish), nj},
	} {
		if f.got != f.want {
			return fmt.Errorf("%s has %d entries; the instance has %d", f.name, f.got, f.want)
		}
	}
	return nil
}

// checkTasks checks where, how long and how early every task ran, and
// returns the tick each became ready: its job's arrival plus its release
// offset, after its predecessors' finishes and delays.
func checkTasks(s *engine.Schedule) ([]int64, error) {
	in := s.Instance
	p := in.Platform
	for j, a := range s.JobArrival {
		if a < 0 {
			return nil, fmt.Errorf("job %d was never submitted (arrival %d)", j, a)
		}
	}
	ready := make([]int64, in.Tasks())
	for g := range ready {
		j := in.TaskJob(g)
		c := s.TaskCluster[g]
		if c < 0 || int(c) >= len(p.Clusters) {
			return nil, fmt.Errorf("task %d never ran (cluster %d)", g, c)
		}
		if p.Clusters[c].Kind != in.Kind(g) {
			return nil, fmt.Errorf("task %d of kind %s ran on %s cluster %s", g, in.Kind(g), p.Clusters[c].Kind, p.Clusters[c].Name)
		}
		if in.Cores(g) > p.Clusters[c].Cores {
			return nil, fmt.Errorf("task %d needs %d cores, cluster has %d", g, in.Cores(g), p.Clusters[c].Cores)
		}
		if s.TaskFinish[g]-s.TaskStart[g] != in.Exec(g) {
			return nil, fmt.Errorf("task %d ran %d ticks, exec is %d", g, s.TaskFinish[g]-s.TaskStart[g], in.Exec(g))
		}
		ready[g] = s.JobArrival[j] + in.Release(g)
		for pr := range in.Predecessors(g) {
			r := s.TaskFinish[pr]
			if s.TaskCluster[pr] != c {
				r += in.Delay(pr)
			}
			ready[g] = max(ready[g], r)
		}
		if s.TaskStart[g] < ready[g] {
			return nil, fmt.Errorf("task %d (job %d) starts at %d before it is ready at %d", g, j, s.TaskStart[g], ready[g])
		}
	}
	return ready, nil
}

// checkJobs checks each job's start and finish against its tasks'.
func checkJobs(s *engine.Schedule) error {
	in := s.Instance
	for j := range in.Jobs() {
		first, end := in.JobTasks(j)
		st, fin := int64(1)<<62, int64(0)
		for g := first; g < end; g++ {
			st, fin = min(st, s.TaskStart[g]), max(fin, s.TaskFinish[g])
		}
		if s.JobStart[j] != st || s.JobFinish[j] != fin {
			return fmt.Errorf("job %d: start/finish %d/%d, tasks say %d/%d", j, s.JobStart[j], s.JobFinish[j], st, fin)
		}
	}
	return nil
}

// checkCluster checks capacity and the policy's order on cluster c at
// every tick where something starts, finishes or becomes ready there.
func checkCluster(s *engine.Schedule, ready []int64, c int, policy string, rule orderRule) error {
	in := s.Instance
	cl := s.Instance.Platform.Clusters[c]
	var tasks []int
	var ticks []int64
	for g := range in.Tasks() {
		if int(s.TaskCluster[g]) == c {
			tasks = append(tasks, g)
			ticks = append(ticks, s.TaskStart[g], s.TaskFinish[g], ready[g])
		}
	}
	slices.Sort(ticks)
	for _, tk := range slices.Compact(ticks) {
		used := int64(0)
		var started, waiting []int
		for _, g := range tasks {
			if s.TaskStart[g] <= tk && tk < s.TaskFinish[g] {
				used += int64(in.Cores(g))
			}
			if s.TaskStart[g] == tk {
				started = append(started, g)
			}
			if ready[g] <= tk && tk < s.TaskStart[g] {
				waiting = append(waiting, g)
			}
		}
		free := int64(cl.Cores) - used
		if free < 0 {
			return fmt.Errorf("cluster %s runs %d cores at tick %d, has %d", cl.Name, used, tk, cl.Cores)
		}
		if len(waiting) == 0 {
			continue
		}
		if rule.ranksBefore == nil {
			if rule.blocked && !slices.ContainsFunc(waiting, func(w int) bool { return int64(in.Cores(w)) > free }) {
				return fmt.Errorf("%s: cluster %s idles %d cores at tick %d while every waiting task fits", policy, cl.Name, free, tk)
			}
			continue
		}
		head := waiting[0]
		for _, w := range waiting[1:] {
			if rule.ranksBefore(s, ready, w, head, tk) {
				head = w
			}
		}
		if int64(in.Cores(head)) <= free {
			return fmt.Errorf("%s: at tick %d cluster %s has %d free cores but its head task %d (%d cores) waits", policy, tk, cl.Name, free, head, in.Cores(head))
		}
		for _, st := range started {
			if rule.ranksBefore(s, ready, head, st, tk) {
				return fmt.Errorf("%s: at tick %d task %d started although waiting task %d ranks before it", policy, tk, st, head)
			}
		}
	}
	return nil
}
