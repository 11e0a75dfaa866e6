package grid

import (
	"fmt"
	"iter"
	"math"
	"math/big"
	"strings"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/dag"
)

// DelayFormula names how the network delay of an edge follows from its
// source task's execution time.
type DelayFormula string

const (
	// DelayCCR is the paper's rule (seed 004 Sec. 4.3): ceil(exec x CCR).
	DelayCCR DelayFormula = "ccr"
	// DelayFastgridsim is the rule of the authors' simulator:
	// ceil(exec x (1-CCR)/CCR), 4 x exec at CCR 0.2. For comparison runs only.
	DelayFastgridsim DelayFormula = "fastgridsim"
)

// Network sets the communication model between clusters.
type Network struct {
	// CCR is the communication to computation ratio as an exact decimal
	// string ("0.2"), so that ceil(exec x CCR) is computed without rounding.
	CCR   string
	Delay DelayFormula
}

// DefaultNetwork is seed 004's network: CCR 0.2 with the paper's formula.
func DefaultNetwork() Network { return Network{CCR: "0.2", Delay: DelayCCR} }

// Validate reports whether the network is well formed: a decimal CCR >= 0
// and a known delay formula.
func (n Network) Validate() error {
	_, err := n.rule()
	return err
}

// delayRule is ceil(exec x num / den) in exact integer arithmetic.
type delayRule struct{ num, den int64 }

func (n Network) rule() (delayRule, error) {
	r, ok := new(big.Rat).SetString(n.CCR)
	if !ok || r.Sign() < 0 {
		return delayRule{}, fmt.Errorf("network CCR %q: want a decimal number >= 0 such as 0.2", n.CCR)
	}
	switch n.Delay {
	case DelayCCR, "":
	case DelayFastgridsim:
		if r.Sign() == 0 {
			return delayRule{}, fmt.Errorf("network CCR 0: the fastgridsim formula exec x (1-CCR)/CCR needs CCR > 0")
		}
		one := big.NewRat(1, 1)
		r = new(big.Rat).Quo(new(big.Rat).Sub(one, r), r)
		if r.Sign() < 0 {
			return delayRule{}, fmt.Errorf("network CCR %q: the fastgridsim formula needs CCR <= 1", n.CCR)
		}
	default:
		return delayRule{}, fmt.Errorf("network delay formula %q: want %q or %q", n.Delay, DelayCCR, DelayFastgridsim)
	}
	if !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return delayRule{}, fmt.Errorf("network CCR %q: too many digits", n.CCR)
	}
	return delayRule{r.Num().Int64(), r.Denom().Int64()}, nil
}

func (d delayRule) ticks(exec int64) int64 {
	if d.num == 0 {
		return 0
	}
	hi, lo := mul64(uint64(exec), uint64(d.num))
	q, rem := div128(hi, lo, uint64(d.den))
	if rem != 0 {
		q++
	}
	return int64(q)
}

// An Instance is a workload compiled against a platform and network: tasks
// flattened in (job, task) order, kinds resolved, successors, delays,
// upward ranks and critical paths computed once. It is immutable, so every
// load and policy of a workload instance can simulate it concurrently.
type Instance struct {
	Platform *platform.Platform
	Network  Network

	JobIDs    []string
	JobShares []string
	jobFirst  []int32 // first task of each job; len(jobs)+1 entries
	arrival   []int64 // the workload's own arrivals, nil when it has none
	jobCP     []int64
	jobVolume []int64

	TaskIDs []string
	task    []taskInfo
	// cores repeats task[g].cores densely for the passes, which read the
	// cores of their head, a task anywhere in the queue (random picks one
	// at random): 4 bytes per task stay in cache where the 32-byte records
	// do not.
	cores   []int32
	kind    []int32 // index into kinds
	rank    []int64
	release []int64 // ticks after the job's arrival before the task may be ready; nil if all 0
	predN   []int32
	succ    []int32 // successors, CSR: task g's are succ[task[g].succAt:task[g].succEnd]
	pred    []int32 // predecessors, CSR
	predAt  []int32
	shares  shareTree // the jobs' share tree, for the fairshare policy

	kinds        []string
	kindClusters [][]int32 // clusters of each kind
	kindMaxCores []int32   // widest cluster of each kind
	// jobKinds lists each job's kinds in the order its tasks first have
	// them, with the widest task and the volume of each, for routing; job
	// j's are jobKinds[jobKindsAt[j]:jobKindsAt[j+1]].
	jobKinds   []kindWidth
	jobKindsAt []int32
}

// taskInfo is what the simulation reads of a task when it starts and
// finishes, in one 32-byte record: a finish reads the task's cores, exec,
// job, successors and delay, which as five arrays were five cache misses
// per task at paper scale (59,245 tasks do not stay in cache between a
// task's start and its finish).
type taskInfo struct {
	exec     int64
	delayOut int64 // delay of every edge leaving the task, when it crosses clusters
	cores    int32
	job      int32
	succAt   int32 // the task's successors are succ[succAt:succEnd]
	succEnd  int32
}

// Jobs returns the number of jobs.
func (in *Instance) Jobs() int { return len(in.JobIDs) }

// Tasks returns the number of tasks.
func (in *Instance) Tasks() int { return len(in.TaskIDs) }

// JobTasks returns the global index range [first, end) of job j's tasks.
func (in *Instance) JobTasks(j int) (first, end int) {
	return int(in.jobFirst[j]), int(in.jobFirst[j+1])
}

// CriticalPath returns job j's critical path in ticks (DESIGN.md section 3:
// the longest path counting only unavoidable delays).
func (in *Instance) CriticalPath(j int) int64 { return in.jobCP[j] }

// Volume returns job j's volume in core-ticks.
func (in *Instance) Volume(j int) int64 { return in.jobVolume[j] }

// Rank returns task g's upward rank in ticks.
func (in *Instance) Rank(g int) int64 { return in.rank[g] }

// Volumes returns every job's volume, in job order.
func (in *Instance) Volumes() []int64 { return append([]int64(nil), in.jobVolume...) }

// Arrivals returns the workload's own arrival ticks, or nil if it has none.
func (in *Instance) Arrivals() []int64 { return in.arrival }

// Compile checks a workload against a platform and network and returns
// the instance that Simulate runs. Errors name the job, task and field.
func Compile(w *dag.Workload, p *platform.Platform, net Network) (*Instance, error) {
	rule, err := net.rule()
	if err != nil {
		return nil, err
	}
	if len(w.Jobs) == 0 {
		return nil, &dag.Error{Job: -1, Task: -1, Field: "jobs", Msg: "no jobs; want at least one"}
	}
	in := &Instance{Platform: p, Network: net}
	kindIndex := map[string]int32{}
	for ci, c := range p.Clusters {
		k, ok := kindIndex[c.Kind]
		if !ok {
			k = int32(len(in.kinds))
			kindIndex[c.Kind] = k
			in.kinds = append(in.kinds, c.Kind)
			in.kindClusters = append(in.kindClusters, nil)
			in.kindMaxCores = append(in.kindMaxCores, 0)
		}
		in.kindClusters[k] = append(in.kindClusters[k], int32(ci))
		in.kindMaxCores[k] = max(in.kindMaxCores[k], int32(c.Cores))
	}

	nTasks := 0
	for i := range w.Jobs {
		nTasks += len(w.Jobs[i].Tasks)
	}
	in.JobIDs = make([]string, len(w.Jobs))
	in.JobShares = make([]string, len(w.Jobs))
	in.jobFirst = make([]int32, len(w.Jobs)+1)
	in.jobCP = make([]int64, len(w.Jobs))
	in.jobVolume = make([]int64, len(w.Jobs))
	if w.HasArrivals() {
		in.arrival = make([]int64, len(w.Jobs))
	}
	in.TaskIDs = make([]string, 0, nTasks)
	in.task = make([]taskInfo, 0, nTasks)
	in.kind = make([]int32, 0, nTasks)
	in.predAt = make([]int32, 1, nTasks+1)
	// explicitDelay holds the tasks' own delays (dag.Task.DelayTicks)
	// by global task index; nil when no task has one.
	var explicitDelay map[int]int64

	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		in.JobIDs[ji] = j.ID
		in.JobShares[ji] = j.ShareOrDefault()
		in.jobFirst[ji] = int32(len(in.TaskIDs))
		if in.arrival != nil {
			in.arrival[ji] = *j.Arrival
		}
		preds, err := j.Predecessors(ji)
		if err != nil {
			return nil, err
		}
		base := int32(len(in.TaskIDs))
		for ti := range j.Tasks {
			t := &j.Tasks[ti]
			k, ok := kindIndex[t.KindOrDefault()]
			if !ok {
				return nil, &dag.Error{Job: ji, JobID: j.ID, Task: ti, TaskID: t.ID, Field: "kind",
					Msg: fmt.Sprintf("%q is not a kind of platform %s; valid kinds: %s", t.KindOrDefault(), p.Name, strings.Join(in.kinds, ", "))}
			}
			if int32(t.Cores) > in.kindMaxCores[k] {
				return nil, &dag.Error{Job: ji, JobID: j.ID, Task: ti, TaskID: t.ID, Field: "cores",
					Msg: fmt.Sprintf("%d cores is wider than every %s cluster of platform %s (widest: %d cores)", t.Cores, in.kinds[k], p.Name, in.kindMaxCores[k])}
			}
			in.TaskIDs = append(in.TaskIDs, t.ID)
			in.task = append(in.task, taskInfo{exec: t.ExecTicks, cores: int32(t.Cores), job: int32(ji)})
			in.kind = append(in.kind, k)
			in.jobVolume[ji] += t.ExecTicks * int64(t.Cores)
			if t.DelayTicks != nil && explicitDelay == nil {
				explicitDelay = make(map[int]int64)
			}
			if t.DelayTicks != nil {
				explicitDelay[len(in.TaskIDs)-1] = *t.DelayTicks
			}
			if t.ReleaseTicks != 0 && in.release == nil {
				in.release = make([]int64, len(in.TaskIDs)-1, nTasks)
			}
			if in.release != nil {
				in.release = append(in.release, t.ReleaseTicks)
			}
			for _, pi := range preds[ti] {
				in.pred = append(in.pred, base+pi)
			}
			in.predAt = append(in.predAt, int32(len(in.pred)))
		}
	}
	in.jobFirst[len(w.Jobs)] = int32(len(in.TaskIDs))
	in.cores = make([]int32, len(in.task))
	for g := range in.task {
		in.cores[g] = in.task[g].cores
	}
	in.buildJobKinds()
	in.buildSuccessors()
	// dag.Validate bounds arrivals plus execs by MaxTicks; delays add
	// at most one per task to any chain, so their sum must fit the rest.
	var delays int64
	for g := range in.task {
		t := &in.task[g]
		d, explicit := explicitDelay[g]
		if !explicit {
			d = rule.ticks(t.exec)
		}
		if d >= math.MaxInt64-dag.MaxTicks-delays {
			// Formatted only here: once per task, the messages cost a
			// tenth of compiling a campaign workload.
			field, msg := "exec", fmt.Sprintf("%d: with network delays of ceil(exec x %s)", t.exec, net.CCR)
			if explicit {
				field, msg = "delay", fmt.Sprintf("%d: with these network delays", d)
			}
			j := t.job
			ti := g - int(in.jobFirst[j])
			return nil, &dag.Error{Job: int(j), JobID: in.JobIDs[j], Task: ti, TaskID: in.TaskIDs[g], Field: field,
				Msg: msg + " the schedule's ticks could overflow 64 bits"}
		}
		t.delayOut = d
		delays += d
	}
	in.computeRanks()
	in.shares = in.shareTree()
	return in, nil
}

func (in *Instance) buildJobKinds() {
	in.jobKindsAt = make([]int32, 1, len(in.JobIDs)+1)
	for j := range in.JobIDs {
		at := len(in.jobKinds)
		for g := in.jobFirst[j]; g < in.jobFirst[j+1]; g++ {
			k, t := in.kind[g], &in.task[g]
			i := at
			for i < len(in.jobKinds) && in.jobKinds[i].kind != k {
				i++
			}
			if i == len(in.jobKinds) {
				in.jobKinds = append(in.jobKinds, kindWidth{kind: k})
			}
			in.jobKinds[i].cores = max(in.jobKinds[i].cores, t.cores)
			in.jobKinds[i].vol += t.exec * int64(t.cores)
		}
		in.jobKindsAt = append(in.jobKindsAt, int32(len(in.jobKinds)))
	}
}

func (in *Instance) buildSuccessors() {
	n := len(in.task)
	in.predN = make([]int32, n)
	for s := 0; s < n; s++ {
		in.predN[s] = in.predAt[s+1] - in.predAt[s]
		for _, p := range in.pred[in.predAt[s]:in.predAt[s+1]] {
			in.task[p].succEnd++ // the count, for now
		}
	}
	var at int32
	for g := range in.task {
		t := &in.task[g]
		count := t.succEnd
		t.succAt, t.succEnd = at, at
		at += count
	}
	in.succ = make([]int32, len(in.pred))
	for s := 0; s < n; s++ {
		for _, p := range in.pred[in.predAt[s]:in.predAt[s+1]] {
			in.succ[in.task[p].succEnd] = int32(s)
			in.task[p].succEnd++
		}
	}
}

// unavoidable reports whether an edge between tasks of kinds a and b must
// cross clusters: the kinds differ and no single cluster supports both,
// which holds for every pair of distinct kinds since a cluster has one kind.
func unavoidable(a, b int32) bool { return a != b }

// computeRanks sets upward ranks and critical paths, job by job in reverse
// topological order.
func (in *Instance) computeRanks() {
	in.rank = make([]int64, len(in.task))
	order := make([]int32, 0, 64)
	indeg := make([]int32, 0, 64)
	for j := range in.JobIDs {
		first, end := int32(in.jobFirst[j]), int32(in.jobFirst[j+1])
		order = order[:0]
		indeg = indeg[:0]
		for g := first; g < end; g++ {
			indeg = append(indeg, in.predN[g])
			if in.predN[g] == 0 {
				order = append(order, g)
			}
		}
		for k := 0; k < len(order); k++ {
			g := order[k]
			for _, s := range in.successors(g) {
				indeg[s-first]--
				if indeg[s-first] == 0 {
					order = append(order, s)
				}
			}
		}
		var cp int64
		for k := len(order) - 1; k >= 0; k-- {
			g := order[k]
			var tail int64
			for _, s := range in.successors(g) {
				d := in.rank[s]
				if unavoidable(in.kind[g], in.kind[s]) {
					d += in.task[g].delayOut
				}
				tail = max(tail, d)
			}
			in.rank[g] = in.task[g].exec + tail
			cp = max(cp, in.rank[g])
		}
		in.jobCP[j] = cp
	}
}

// shareTree resolves jobs' shares to leaves of a share tree whose levels
// are separated by "/" in share names; siblings are entitled equally.
type shareTree struct {
	parent   []int32   // node -> parent, -1 for the root
	entitled []float64 // node's entitled fraction of its parent
	leafOf   []int32   // job -> leaf node
}

func (in *Instance) shareTree() shareTree {
	names := map[string]int32{"": 0}
	t := shareTree{parent: []int32{-1}, entitled: []float64{1}}
	children := map[int32][]int32{}
	var node func(path string) int32
	node = func(path string) int32 {
		if n, ok := names[path]; ok {
			return n
		}
		parentPath := ""
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			parentPath = path[:i]
		}
		p := node(parentPath)
		n := int32(len(t.parent))
		names[path] = n
		t.parent = append(t.parent, p)
		t.entitled = append(t.entitled, 0)
		children[p] = append(children[p], n)
		return n
	}
	t.leafOf = make([]int32, len(in.JobShares))
	for j, s := range in.JobShares {
		t.leafOf[j] = node(s)
	}
	for _, kids := range children {
		for _, c := range kids {
			t.entitled[c] = 1 / float64(len(kids))
		}
	}
	return t
}

// TaskJob returns the job index of global task g.
func (in *Instance) TaskJob(g int) int { return int(in.task[g].job) }

// Release returns the ticks after its job's arrival before which task g
// cannot be ready.
func (in *Instance) Release(g int) int64 {
	if in.release == nil {
		return 0
	}
	return in.release[g]
}

// Exec returns task g's execution time in ticks.
func (in *Instance) Exec(g int) int64 { return in.task[g].exec }

// Cores returns the cores task g needs.
func (in *Instance) Cores(g int) int { return int(in.task[g].cores) }

// Kind returns the architecture kind of the cores task g runs on.
func (in *Instance) Kind(g int) string { return in.kinds[in.kind[g]] }

// Predecessors yields the global indices of task g's predecessors.
func (in *Instance) Predecessors(g int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, p := range in.pred[in.predAt[g]:in.predAt[g+1]] {
			if !yield(int(p)) {
				return
			}
		}
	}
}

// Delay returns the network delay in ticks of every edge leaving task g
// whose ends run on different clusters.
func (in *Instance) Delay(g int) int64 { return in.task[g].delayOut }

// successors returns the global indices of task g's successors.
func (in *Instance) successors(g int32) []int32 {
	return in.succ[in.task[g].succAt:in.task[g].succEnd]
}
