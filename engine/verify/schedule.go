package verify

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/engine/grid"
)

// Schedule returns the first rule that s, a schedule of s.Instance under
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
//     cluster. Under a policy with static keys (fifo-task, fifo-job, srtf,
//     lrtf, pslr, and campaign fcfs), the strict head-of-queue rule: either
//     nothing is waiting or the policy's head among the waiting tasks does
//     not fit in the free cores, and every task started at that tick ranks
//     before every task left waiting. Under fairshare, whose keys change
//     with every start, the passes are replayed (see checkFairShare). Under
//     random, only that some waiting task does not fit. Campaign ostrich (which
//     may hold a campaign back until its virtual start) and log (a replay
//     of a recorded schedule) have no order rule.
//
// The keys are DESIGN.md's, written out here independently of the
// simulator's orders.
func Schedule(s *grid.Schedule, policy string) error {
	rules := orderRules()
	rule, ok := rules[policy]
	if !ok {
		return fmt.Errorf("no order rule for policy %q; known policies: %v", policy, slices.Sorted(maps.Keys(rules)))
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
	if rule.fairShare {
		return checkFairShare(s, ready)
	}
	return nil
}

// An orderRule is what the validator checks of the order in which a
// policy serves the waiting tasks of a cluster.
type orderRule struct {
	// ranksBefore reports whether waiting task a is served before b at
	// tick now, given each task's ready tick; nil for a policy without
	// static keys.
	ranksBefore func(s *grid.Schedule, ready []int64, a, b int, now int64) bool
	// blocked asks, when ranksBefore is nil, that some waiting task not
	// fit in the free cores after every pass.
	blocked bool
	// fairShare replays the fair-share passes instead.
	fairShare bool
}

// orderRules is the table of known policies.
func orderRules() map[string]orderRule {
	return map[string]orderRule{
		"random":    {blocked: true},
		"fairshare": {fairShare: true},
		"fifo-task": {ranksBefore: keyOrder(func(s *grid.Schedule, ready []int64, g int) []int64 {
			return []int64{ready[g], int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"fifo-job": {ranksBefore: keyOrder(func(s *grid.Schedule, ready []int64, g int) []int64 {
			j := s.Instance.TaskJob(g)
			return []int64{s.JobArrival[j], int64(j), ready[g], int64(g)}
		})},
		"srtf": {ranksBefore: keyOrder(func(s *grid.Schedule, _ []int64, g int) []int64 {
			return []int64{s.Instance.Rank(g), int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"lrtf": {ranksBefore: keyOrder(func(s *grid.Schedule, _ []int64, g int) []int64 {
			return []int64{-s.Instance.Rank(g), int64(s.Instance.TaskJob(g)), int64(g)}
		})},
		"pslr": {ranksBefore: pslrRanksBefore},
		// Campaign policies: a campaign is an engine job, its jobs are the
		// job's tasks.
		"fcfs": {ranksBefore: keyOrder(func(s *grid.Schedule, _ []int64, g int) []int64 {
			j := s.Instance.TaskJob(g)
			return []int64{s.JobArrival[j], int64(j), int64(g)}
		})},
		"ostrich": {},
		"log":     {},
	}
}

// keyOrder ranks tasks by a static key, smaller first, compared field by
// field.
func keyOrder(key func(s *grid.Schedule, ready []int64, g int) []int64) func(*grid.Schedule, []int64, int, int, int64) bool {
	return func(s *grid.Schedule, ready []int64, a, b int, _ int64) bool {
		return slices.Compare(key(s, ready, a), key(s, ready, b)) < 0
	}
}

// pslrRanksBefore ranks by projected SLR (now + rank + 1 - arrival) / CP,
// highest first, computed exactly; then job index, then task index.
func pslrRanksBefore(s *grid.Schedule, _ []int64, a, b int, now int64) bool {
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
func checkShape(s *grid.Schedule) error {
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
func checkTasks(s *grid.Schedule) ([]int64, error) {
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
func checkJobs(s *grid.Schedule) error {
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
func checkCluster(s *grid.Schedule, ready []int64, c int, policy string, rule orderRule) error {
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

// checkFairShare replays, at every tick, the passes of DESIGN.md's fair
// share in platform order: a cluster's head is its waiting task of the
// share with the highest factor, ties broken by the fifo-task keys; a head
// that fits must start, and starts it at once, which changes the factors
// for the next head. The tasks started at a tick must be exactly the heads
// that fitted.
func checkFairShare(s *grid.Schedule, ready []int64) error {
	in := s.Instance
	tree := newShareTree(in)
	fifoTask := func(g int) []int64 { return []int64{ready[g], int64(in.TaskJob(g)), int64(g)} }
	var ticks []int64
	for g := range in.Tasks() {
		ticks = append(ticks, s.TaskStart[g], s.TaskFinish[g], ready[g])
	}
	slices.Sort(ticks)
	for _, tk := range slices.Compact(ticks) {
		running := make([]int64, len(tree.parent)) // cores per share-tree node
		busy := make([]int64, len(in.Platform.Clusters))
		for g := range in.Tasks() {
			if s.TaskStart[g] < tk && tk < s.TaskFinish[g] {
				tree.add(running, in.TaskJob(g), int64(in.Cores(g)))
				busy[s.TaskCluster[g]] += int64(in.Cores(g))
			}
		}
		for c, cl := range in.Platform.Clusters {
			var queue []int // waiting at the pass: ready, not started before tk
			toStart := 0
			for g := range in.Tasks() {
				if int(s.TaskCluster[g]) == c && ready[g] <= tk && tk <= s.TaskStart[g] {
					queue = append(queue, g)
					if s.TaskStart[g] == tk {
						toStart++
					}
				}
			}
			free := int64(cl.Cores) - busy[c]
			for len(queue) > 0 {
				head, headF := -1, 0.0
				for _, g := range queue {
					f := tree.factor(running, in.TaskJob(g))
					if head < 0 || f > headF || (f == headF && slices.Compare(fifoTask(g), fifoTask(head)) < 0) {
						head, headF = g, f
					}
				}
				cores := int64(in.Cores(head))
				if cores > free {
					break
				}
				if s.TaskStart[head] != tk {
					return fmt.Errorf("fairshare: at tick %d cluster %s has %d free cores but its head task %d (%d cores, factor %g) waits", tk, cl.Name, free, head, cores, headF)
				}
				free -= cores
				tree.add(running, in.TaskJob(head), cores)
				queue = slices.DeleteFunc(queue, func(g int) bool { return g == head })
				toStart--
			}
			if toStart > 0 {
				return fmt.Errorf("fairshare: at tick %d cluster %s starts %d tasks that were never its head", tk, cl.Name, toStart)
			}
		}
	}
	return nil
}

// shareTree is DESIGN.md's share tree: a job's share names a leaf whose
// levels are separated by "/"; the root is the whole platform, and the
// children of a node are entitled to equal parts of it.
type shareTree struct {
	parent   []int     // node -> parent, -1 for the root
	entitled []float64 // node's entitled fraction of its parent
	leafOf   []int     // job -> leaf node
}

func newShareTree(in *grid.Instance) *shareTree {
	t := &shareTree{parent: []int{-1}}
	index := map[string]int{"": 0}
	var node func(path string) int
	node = func(path string) int {
		if n, ok := index[path]; ok {
			return n
		}
		parent := 0
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			parent = node(path[:i])
		}
		index[path] = len(t.parent)
		t.parent = append(t.parent, parent)
		return len(t.parent) - 1
	}
	for _, share := range in.JobShares {
		t.leafOf = append(t.leafOf, node(share))
	}
	children := make([]int, len(t.parent))
	for _, p := range t.parent[1:] {
		children[p]++
	}
	t.entitled = make([]float64, len(t.parent))
	for n, p := range t.parent {
		if p >= 0 {
			t.entitled[n] = 1 / float64(children[p])
		}
	}
	return t
}

// add counts cores more (or fewer) running for job on every node of its
// path.
func (t *shareTree) add(running []int64, job int, cores int64) {
	for n := t.leafOf[job]; n >= 0; n = t.parent[n] {
		running[n] += cores
	}
}

// factor is the fair-share priority of job's leaf: the product up its
// path of entitled share x parent's running cores / node's running cores,
// infinite for a share that runs nothing. The floating-point operations
// are the simulator's, in its order, so that equal factors stay equal.
func (t *shareTree) factor(running []int64, job int) float64 {
	f := 1.0
	for n := t.leafOf[job]; t.parent[n] >= 0; n = t.parent[n] {
		if running[n] == 0 {
			return math.Inf(1)
		}
		f *= t.entitled[n] * float64(running[t.parent[n]]) / float64(running[n])
	}
	return f
}
