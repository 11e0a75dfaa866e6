package backfill_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// On a machine of nodes a Decider with State.EASY is the built-in EASY:
// the same starts, nodes and reservations on the hand-computed cases of
// TestNodeSchedulesByHand (memory, GPU, head protection, first-fit and
// best-fit), and the same starts and reservations on the synthetic month
// given one-core nodes: there the built-in counts whole nodes
// (nodewhole.go) and takes the lowest free ids, while a Decider's State
// keeps named nodes and so places as the named-node allocator does.
func TestDeciderEASYOnNodesIsBuiltin(t *testing.T) {
	cases := []struct {
		name     string
		w        *rigid.Workload
		sel      backfill.NodeSelection
		anyNodes bool // node ids may differ, starts may not
	}{
		{"memory", nodeWorkload(cpuGPU(), memJobs), backfill.SelectFirstFit, false},
		{"gpu", nodeWorkload(cpuGPU(), gpuJobs), backfill.SelectFirstFit, false},
		{"first-fit", nodeWorkload(cpuGPU(), fitJobs), backfill.SelectFirstFit, false},
		{"best-fit", nodeWorkload(cpuGPU(), fitJobs), backfill.SelectBestFit, false},
		{"protect", nodeWorkload(cpuGPU(), []nodeJob{{0, 20, node(1, 4, 0, 2, gpu)}, {0, 10, node(1, 2, 0, 3, gpu)}, {0, 100, node(1, 1, 0, 2, gpu)}, {0, 20, node(1, 1, 0, 2, gpu)}}), backfill.SelectFirstFit, false},
		{"synthetic month on one-core nodes", oneCoreNodes(syntheticMonth(), false), backfill.SelectFirstFit, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := backfill.FCFSEasy()
			p.Nodes = c.sel
			wantStart, wantNodes, want := simulateNodes(t, c.w, p)
			gotStart, gotNodes, got := simulateNodes(t, c.w, backfill.Policy{Decider: fcfsEasy{}, Nodes: c.sel})
			if i := firstDiff(gotStart, wantStart); i >= 0 {
				t.Fatalf("job %d starts at %d s, built-in at %d s", i, gotStart[i], wantStart[i])
			}
			if !c.anyNodes && !slices.EqualFunc(gotNodes, wantNodes, slices.Equal) {
				t.Errorf("nodes %v, built-in %v", gotNodes, wantNodes)
			}
			if !slices.Equal(got.Reservations, want.Reservations) {
				t.Errorf("reservations %v, built-in %v", got.Reservations, want.Reservations)
			}
		})
	}
}

// lastFit is FCFS without backfilling that names its nodes: each job, in
// submit order while it fits, on the node of highest id in its partition
// with its per-node cores, memory and GPUs free (one-node jobs only).
type lastFit struct{}

func (lastFit) Decide(st *backfill.State) ([]int, error) {
	free := map[int]backfill.Resources{}
	freeOn := func(i int) backfill.Resources {
		if r, ok := free[i]; ok {
			return r
		}
		return st.FreeOn(i)
	}
	var starts []int
	for _, j := range st.Waiting {
		r := st.Request(j)
		first := 0
		for p := range r.Partition {
			first += st.Machine.Partitions[p].Nodes
		}
		chosen := -1
		for i := first + st.Machine.Partitions[r.Partition].Nodes - 1; i >= first && chosen < 0; i-- {
			f := freeOn(i)
			if f.Cores >= r.CoresPerNode && f.MemoryMiB >= r.MemoryPerNodeMiB && f.GPUs >= r.GPUsPerNode {
				chosen = i
				free[i] = backfill.Resources{Cores: f.Cores - r.CoresPerNode, MemoryMiB: f.MemoryMiB - r.MemoryPerNodeMiB, GPUs: f.GPUs - r.GPUsPerNode}
			}
		}
		if chosen < 0 {
			break
		}
		st.OnNodes(j, []int{chosen})
		starts = append(starts, j)
	}
	return starts, nil
}

// A Decider that names nodes gets them. fitJobs on cpuGPU by hand, last
// fit: A (2 cores, to 5) on node 1, B (3 cores) on node 0 (node 1 has 2
// free); at 1 C (1 core) on node 1; at 2 D (2 cores) finds 1 core free on
// each CPU node and waits until A ends at 5, then takes node 1 (3 free).
// First-fit (TestNodeSchedulesByHand) put them on 0, 1, 0, 0.
func TestDeciderNamesNodes(t *testing.T) {
	w := nodeWorkload(cpuGPU(), fitJobs)
	wantNodeSchedule(t, w, backfill.Policy{Decider: lastFit{}}, []int64{0, 0, 1, 5}, [][]int32{{1}, {0}, {1}, {1}})
}

// A start on nodes that cannot hold it fails the run, naming the job, its
// request and what is wrong; State.Check says the same before.
func TestDeciderNodeFaults(t *testing.T) {
	// Jobs on cpuGPU: 0 one CPU node's 2 cores and 4 GiB; 1 a GPU; 2 both
	// CPU nodes, exclusive; 3 pooled 6 cores with 1 GiB each.
	both := node(2, 1, 0, 0, cpu)
	both.Exclusive = true
	jobs := []nodeJob{{0, 10, node(1, 2, 4096, 0, cpu)}, {0, 10, node(1, 1, 0, 1, gpu)}, {0, 10, both},
		{0, 10, rigid.Request{CoresPerNode: 6, MemoryPerCoreMiB: 1024, Partition: cpu}}}
	w := nodeWorkload(cpuGPU(), jobs)
	on := func(starts []int, named map[int][]int) decide {
		return func(st *backfill.State) ([]int, error) {
			for j, ids := range named {
				st.OnNodes(j, ids)
			}
			if err := st.Check(starts); err == nil {
				t.Errorf("Check(%v) with %v: no error", starts, named)
			}
			return starts, nil
		}
	}
	tests := []struct {
		name string
		d    decide
		want string
	}{
		{"no node", on([]int{0}, map[int][]int{0: {7}}), "job 0 (asking for 1 nodes of 2 cores, 4096 MiB and 0 GPUs in cpu) on nodes [7]: node 7 does not exist (nodes are 0 to 2)"},
		{"partition", on([]int{1}, map[int][]int{1: {0}}), "node 0 is in partition cpu; the job asks for gpu"},
		{"twice", on([]int{2}, map[int][]int{2: {0, 0}}), "node 0 is named twice"},
		{"short", on([]int{2}, map[int][]int{2: {1}}), "1 nodes short"},
		{"too many", on([]int{0}, map[int][]int{0: {0, 1}}), "more nodes than it needs"},
		{"full", on([]int{0, 2}, map[int][]int{0: {0}, 2: {0, 1}}), "node 0 has 2 cores, 4096 MiB and 0 GPUs free (the job holds whole nodes)"},
		{"pooled short", on([]int{0, 3}, map[int][]int{0: {0}, 3: {0}}), "job 3 (asking for 6 cores with 1024 MiB each in cpu) on nodes [0]: 4 cores short"},
		{"placed, no fit", on([]int{0, 2}, nil), "job 2, which does not fit: it asks for 2 nodes of 1 cores, 0 MiB and 0 GPUs in cpu, exclusive and no partition it may use has that free"},
		{"twice started", on([]int{1, 1}, nil), "job 1, already started at 0 s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: tt.d})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), "decision at 0 s: the policy starts ") {
				t.Errorf("%v: want the decision's time", err)
			}
		})
	}
}

// A pooled start may name the cores it takes of each node: 6 cores with
// 1 GiB each on CPU nodes 0 and 1, 2 and 4 of them, hold 2 cores and 2
// GiB of node 0 and 4 cores and 4 GiB of node 1; naming 5 of node 0,
// which has 4, fails; so do core counts for a node request.
func TestDeciderNamesPooledCores(t *testing.T) {
	w := nodeWorkload(cpuGPU(), []nodeJob{{0, 10, rigid.Request{CoresPerNode: 6, MemoryPerCoreMiB: 1024, Partition: cpu}}, {0, 10, node(1, 1, 0, 0, cpu)}})
	on := func(j int, ids, cores []int) decide {
		return func(st *backfill.State) ([]int, error) {
			if !slices.Contains(st.Waiting, j) {
				return nil, nil
			}
			st.OnNodeCores(j, ids, cores)
			return []int{j}, nil
		}
	}
	pooled := nodeWorkload(cpuGPU(), []nodeJob{{0, 10, rigid.Request{CoresPerNode: 6, MemoryPerCoreMiB: 1024, Partition: cpu}}})
	_, _, sched := simulateNodes(t, pooled, backfill.Policy{Decider: on(0, []int{0, 1}, []int{2, 4})})
	want := []backfill.NodeShare{{Node: 0, Cores: 2, MemoryMiB: 2048}, {Node: 1, Cores: 4, MemoryMiB: 4096}}
	if !slices.Equal(sched.Nodes[0], want) {
		t.Errorf("holds %+v, want %+v", sched.Nodes[0], want)
	}
	for _, tt := range []struct {
		d    decide
		want string
	}{
		{on(0, []int{0, 1}, []int{5, 1}), "5 cores named of node 0, which offers 4 to the 6 cores it still needs"},
		{on(0, []int{0, 1}, []int{2}), "1 core counts for 2 nodes"},
		{on(1, []int{0}, []int{1}), "cores per node are named for pooled requests only"},
	} {
		_, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: tt.d})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
}

// Naming nodes on processors fails the run: there are none.
func TestDeciderNamesNodesOnProcessors(t *testing.T) {
	w := exampleWorkload(4, []row{{"a", 0, 2, 4, 4}})
	d := decide(func(st *backfill.State) ([]int, error) {
		st.OnNodes(0, []int{0, 1})
		return []int{0}, nil
	})
	_, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Decider: d})
	if want := "decision at 0 s: the policy starts jobs on named nodes, and the cluster has processors, not nodes"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// A Decider on a machine whose jobs all take whole nodes (one-core nodes)
// is asked, not bypassed by the counting allocator: one that starts the
// waiting jobs from the first while their cores fit (FCFS without
// backfilling, written out) gives the built-in's starts.
func TestDeciderOnWholeNodes(t *testing.T) {
	w := oneCoreNodes(syntheticMonth(), false)
	calls := 0
	strict := decide(func(st *backfill.State) ([]int, error) {
		calls++
		free := st.FreeProcs
		for i, j := range st.Waiting {
			r := st.Request(j)
			if r.Cores() > free {
				return st.Waiting[:i], nil
			}
			free -= r.Cores()
		}
		return st.Waiting, nil
	})
	gotStart, _, _ := simulateNodes(t, w, backfill.Policy{Decider: strict})
	wantStart, _, _ := simulateNodes(t, w, backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict})
	if calls == 0 {
		t.Fatal("the Decider was never asked")
	}
	if i := firstDiff(gotStart, wantStart); i >= 0 {
		t.Errorf("job %d starts at %d s, fcfs without backfilling at %d s", i, gotStart[i], wantStart[i])
	}
}
