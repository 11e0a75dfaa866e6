package engine

import (
	"fmt"
	"math/big"
	"sort"
	"testing"
)

// checkSchedule is the schedule validator every engine test runs. It
// re-derives from the schedule alone, independently of the simulator's
// data structures, that:
//   - every task ran exactly once, for exactly its execution time, on a
//     cluster of its kind that is wide enough;
//   - no cluster ever runs more cores than it has (a finish at t frees its
//     cores before a start at t);
//   - no task starts before its job's arrival, before its predecessors
//     finished, or before a cross-cluster edge's network delay elapsed;
//   - strict head of queue: after the pass at any tick, either nothing on
//     the cluster is waiting or the policy's head among the waiting tasks
//     does not fit in the free cores, and every task started at that tick
//     ranks before every task left waiting (checked exactly for the
//     deterministic orders; for random and fairshare, whose order is not a
//     function of the schedule, only the blocked head).
func checkSchedule(t *testing.T, s *Schedule, policy string) {
	t.Helper()
	if err := validateSchedule(s, policy); err != nil {
		t.Fatalf("%s: invalid schedule: %v", policy, err)
	}
}

func validateSchedule(s *Schedule, policy string) error {
	in := s.Instance
	p := in.Platform
	n := in.Tasks()
	ready := make([]int64, n)
	for g := 0; g < n; g++ {
		j := in.taskJob[g]
		c := s.TaskCluster[g]
		if c < 0 || int(c) >= len(p.Clusters) {
			return fmt.Errorf("task %d never ran (cluster %d)", g, c)
		}
		if p.Clusters[c].Kind != in.kinds[in.kind[g]] {
			return fmt.Errorf("task %d of kind %s ran on %s cluster %s", g, in.kinds[in.kind[g]], p.Clusters[c].Kind, p.Clusters[c].Name)
		}
		if int(in.cores[g]) > p.Clusters[c].Cores {
			return fmt.Errorf("task %d needs %d cores, cluster has %d", g, in.cores[g], p.Clusters[c].Cores)
		}
		if s.TaskFinish[g]-s.TaskStart[g] != in.exec[g] {
			return fmt.Errorf("task %d ran %d ticks, exec is %d", g, s.TaskFinish[g]-s.TaskStart[g], in.exec[g])
		}
		ready[g] = s.JobArrival[j] + in.Release(g)
		for _, pr := range in.pred[in.predAt[g]:in.predAt[g+1]] {
			r := s.TaskFinish[pr]
			if s.TaskCluster[pr] != c {
				r += in.delayOut[pr]
			}
			ready[g] = max(ready[g], r)
		}
		if s.TaskStart[g] < ready[g] {
			return fmt.Errorf("task %d (job %d) starts at %d before it is ready at %d", g, j, s.TaskStart[g], ready[g])
		}
	}
	for j := 0; j < in.Jobs(); j++ {
		first, end := in.JobTasks(j)
		st, fin := int64(1)<<62, int64(0)
		for g := first; g < end; g++ {
			st, fin = min(st, s.TaskStart[g]), max(fin, s.TaskFinish[g])
		}
		if s.JobStart[j] != st || s.JobFinish[j] != fin {
			return fmt.Errorf("job %d: start/finish %d/%d, tasks say %d/%d", j, s.JobStart[j], s.JobFinish[j], st, fin)
		}
	}
	for c := range p.Clusters {
		var tasks []int
		ticks := map[int64]bool{}
		for g := 0; g < n; g++ {
			if int(s.TaskCluster[g]) == c {
				tasks = append(tasks, g)
				ticks[s.TaskStart[g]] = true
				ticks[s.TaskFinish[g]] = true
				ticks[ready[g]] = true
			}
		}
		sorted := make([]int64, 0, len(ticks))
		for tk := range ticks {
			sorted = append(sorted, tk)
		}
		sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
		for _, tk := range sorted {
			used := int64(0)
			var started, waiting []int
			for _, g := range tasks {
				if s.TaskStart[g] <= tk && tk < s.TaskFinish[g] {
					used += int64(in.cores[g])
				}
				if s.TaskStart[g] == tk {
					started = append(started, g)
				}
				if ready[g] <= tk && tk < s.TaskStart[g] {
					waiting = append(waiting, g)
				}
			}
			free := int64(p.Clusters[c].Cores) - used
			if free < 0 {
				return fmt.Errorf("cluster %s runs %d cores at tick %d, has %d", p.Clusters[c].Name, used, tk, p.Clusters[c].Cores)
			}
			if len(waiting) == 0 {
				continue
			}
			if policy == "random" || policy == "fairshare" {
				blocked := false
				for _, w := range waiting {
					blocked = blocked || int64(in.cores[w]) > free
				}
				if !blocked {
					return fmt.Errorf("%s: cluster %s idles %d cores at tick %d while every waiting task fits", policy, p.Clusters[c].Name, free, tk)
				}
				continue
			}
			head := waiting[0]
			for _, w := range waiting[1:] {
				if ranksBefore(s, policy, ready, w, head, tk) {
					head = w
				}
			}
			if int64(in.cores[head]) <= free {
				return fmt.Errorf("%s: at tick %d cluster %s has %d free cores but its head task %d (%d cores) waits", policy, tk, p.Clusters[c].Name, free, head, in.cores[head])
			}
			for _, st := range started {
				if ranksBefore(s, policy, ready, head, st, tk) {
					return fmt.Errorf("%s: at tick %d task %d started although waiting task %d ranks before it", policy, tk, st, head)
				}
			}
		}
	}
	return nil
}

// ranksBefore is DESIGN.md's sort key of each deterministic policy,
// written out independently of the simulator's heaps.
func ranksBefore(s *Schedule, policy string, ready []int64, a, b int, now int64) bool {
	in := s.Instance
	ja, jb := int(in.taskJob[a]), int(in.taskJob[b])
	type key []int64
	var ka, kb key
	switch policy {
	case "fifo-task":
		ka, kb = key{ready[a], int64(ja), int64(a)}, key{ready[b], int64(jb), int64(b)}
	case "fifo-job":
		ka = key{s.JobArrival[ja], int64(ja), ready[a], int64(a)}
		kb = key{s.JobArrival[jb], int64(jb), ready[b], int64(b)}
	case "srtf":
		ka, kb = key{in.rank[a], int64(ja), int64(a)}, key{in.rank[b], int64(jb), int64(b)}
	case "lrtf":
		ka, kb = key{-in.rank[a], int64(ja), int64(a)}, key{-in.rank[b], int64(jb), int64(b)}
	case "pslr":
		va := big.NewRat(now+in.rank[a]+1-s.JobArrival[ja], in.jobCP[ja])
		vb := big.NewRat(now+in.rank[b]+1-s.JobArrival[jb], in.jobCP[jb])
		if c := va.Cmp(vb); c != 0 {
			return c > 0
		}
		ka, kb = key{int64(ja), int64(a)}, key{int64(jb), int64(b)}
	default:
		panic("no deterministic order for " + policy)
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}
