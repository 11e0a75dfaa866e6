package pipe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/verify"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// cpuGPUJobs is issue 34's example platform (nodes 0 and 1 in cpu, 4
// cores and 8 GiB each; node 2 in gpu, 8 cores, 64 GiB and 4 GPUs) with
// five jobs submitted at 0 s, run = estimate:
//
//	J0 gpu, 1 node of 4 cores, 16 GiB, 2 GPUs, 20 s
//	J1 gpu, 1 node of 2 cores, 8 GiB, 3 GPUs, 10 s
//	J2 cpu, 2 nodes of 2 cores, 4 GiB, 30 s
//	J3 any partition, 6 pooled cores with 1 GiB each, 50 s
//	J4 gpu, 1 node of 1 core, 1 GiB, 1 GPU, 5 s
//
// python/tests/test_sweep_policy.py sends the same messages.
func cpuGPUJobs() *rigid.Workload {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192},
		{Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	reqs := []rigid.Request{
		{Nodes: 1, CoresPerNode: 4, MemoryPerNodeMiB: 16384, GPUsPerNode: 2, Partition: 1},
		{Nodes: 1, CoresPerNode: 2, MemoryPerNodeMiB: 8192, GPUsPerNode: 3, Partition: 1},
		{Nodes: 2, CoresPerNode: 2, MemoryPerNodeMiB: 4096, Partition: 0},
		{MemoryPerCoreMiB: 1024, Partition: rigid.AnyPartition},
		{Nodes: 1, CoresPerNode: 1, MemoryPerNodeMiB: 1024, GPUsPerNode: 1, Partition: 1},
	}
	runs := []int64{20, 10, 30, 50, 5}
	procs := []int{4, 2, 4, 6, 1}
	w := &rigid.Workload{Name: "cpu-gpu", Procs: m.Cores(), Machine: m, Requests: reqs}
	for i := range reqs {
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: 1, Procs: procs[i], RunSeconds: runs[i], RequestedSeconds: runs[i]})
	}
	return w
}

func simulateNodes(t *testing.T, w *rigid.Workload, opts Options) (*backfill.Schedule, error) {
	t.Helper()
	return simulateNodesUnder(t, w, rigid.EstimateExact, opts)
}

func simulateNodesUnder(t *testing.T, w *rigid.Workload, v rigid.Variant, opts Options) (*backfill.Schedule, error) {
	t.Helper()
	r, err := StartNodes(context.Background(), opts, w.Machine, len(w.Jobs), v.String(), w.Name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return backfill.Simulate(context.Background(), w, v, backfill.Policy{Decider: r})
}

// The Python client's FCFS on nodes (python/examples/nodes_fcfs.py) over
// protocol 2, on cpuGPUJobs, by hand:
//
// FCFS: at 0 J0 takes node 2 (4 cores, 2 GPUs left); J1 needs 3 GPUs and
// blocks the queue. At 20 J0 ends: J1 on node 2 (6 cores, 1 GPU left),
// J2 on nodes 0 and 1, J3's 6 cores fit no CPU node pair (2 free on
// each) but node 2's 6 (1 GiB each of 56 GiB): node 2; J4 finds node 2's
// cores all taken and starts at 30, when J1 ends.
//
// Greedy (every job that fits, in submit order): at 0 J0 on node 2, J2
// on nodes 0 and 1, J4 on node 2 (J1's GPUs and J3's cores are short);
// at 20 J1 and J3 on node 2.
//
// Named nodes or placed by sweep's first-fit, the schedule is the same.
func TestPythonNodesFCFS(t *testing.T) {
	w := cpuGPUJobs()
	for _, c := range []struct {
		params map[string]string
		start  []int64
	}{
		{map[string]string{}, []int64{0, 20, 20, 20, 30}},
		{map[string]string{"place": "sweep"}, []int64{0, 20, 20, 20, 30}},
		{map[string]string{"backfill": "greedy"}, []int64{0, 20, 0, 20, 0}},
		{map[string]string{"backfill": "greedy", "place": "sweep"}, []int64{0, 20, 0, 20, 0}},
	} {
		opts := pythonExample(t, "nodes_fcfs")
		opts.Params = c.params
		sched, err := simulateNodes(t, w, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Rigid(w, rigid.EstimateExact, sched); err != nil {
			t.Fatal(err)
		}
		nodes := enginetest.NodeIDs(sched)
		wantNodes := [][]int32{{2}, {2}, {0, 1}, {2}, {2}}
		if !slices.Equal(sched.StartSeconds, c.start) || !slices.EqualFunc(nodes, wantNodes, slices.Equal) {
			t.Errorf("%v: starts %v on %v, want %v on %v", c.params, sched.StartSeconds, nodes, c.start, wantNodes)
		}
		if sh := sched.Nodes[3]; len(sh) != 1 || sh[0].Cores != 6 || sh[0].MemoryMiB != 6144 {
			t.Errorf("%v: J3 holds %+v, want 6 cores and 6144 MiB of node 2", c.params, sh)
		}
	}
}

// A policy that answers a version 2 hello with version 1 (the Go client
// of client_test.go) is refused at the hello, and a start on nodes that
// cannot hold it fails the cell with the job, its request, the nodes and
// the policy's stderr.
func TestNodesFaults(t *testing.T) {
	w := cpuGPUJobs()
	_, err := simulateNodes(t, w, clientOptions(t, "easy"))
	if err == nil || !strings.Contains(err.Error(), "the policy speaks protocol version 1; a platform of nodes needs version 2") {
		t.Fatalf("got %v, want a refused version", err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is absent")
	}
	// Names node 0 (a CPU node) for J0, which asks for the GPU partition.
	script := `import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello": print(json.dumps({"type": "hello", "protocol": 2}))
    elif m["type"] == "decide":
        sys.stderr.write("naming node 0\n"); print(json.dumps({"start": [{"id": 0, "nodes": [0]}]}))
    else: break
    sys.stdout.flush()
`
	root, _ := filepath.Abs("../../python")
	_, err = simulateNodes(t, w, Options{Command: []string{py, "-c", script}, Env: append(os.Environ(), "PYTHONPATH="+root)})
	want := "decision 2 (decide: 5 submitted, 0 finished, 16 free) at 0 s: start: job 0 (asking for 1 nodes of 4 cores, 16384 MiB and 2 GPUs in gpu) on nodes [0]: node 0 is in partition cpu; the job asks for gpu; its last 1 stderr lines:\n\tnaming node 0"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// The Python client's first-fit place() is sweep's: nodes_fcfs.py naming
// its nodes gives the built-in FCFS without backfilling (first-fit) job
// for job and node for node, on 400 random jobs of every kind of request.
func TestPythonNodesFCFSIsBuiltin(t *testing.T) {
	w := enginetest.RandomNodeJobs(400, 1)
	if dropped := w.DropUnfit(); len(dropped) > 0 {
		t.Logf("dropped %v", dropped)
	}
	want, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocStrict})
	if err != nil {
		t.Fatal(err)
	}
	got, err := simulateNodes(t, w, pythonExample(t, "nodes_fcfs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Rigid(w, rigid.EstimateExact, got); err != nil {
		t.Fatal(err)
	}
	if i := firstDiff(got.StartSeconds, want.StartSeconds); i >= 0 {
		t.Fatalf("job %d starts at %d s, built-in at %d s", i, got.StartSeconds[i], want.StartSeconds[i])
	}
	for i := range w.Jobs {
		if !slices.Equal(got.Nodes[i], want.Nodes[i]) {
			t.Fatalf("job %d (%+v) on %v, built-in on %v", i, w.Requests[i], got.Nodes[i], want.Nodes[i])
		}
	}
	t.Logf("%d jobs, %d decisions, the built-in's schedule", len(w.Jobs), got.Stats.Passes)
}

// The Python client's EASY on nodes (python/examples/easy.py, easy()
// placing first-fit) against the built-in EASY on nodes: on the GPU case
// of engine/backfill's TestNodeSchedulesByHand, worked out there (G1
// promised node 2 at 20 s while C0, X, Y and Z backfill around it:
// starts 0, 20, 0, 0, 0, 0, all on node 2 but C0 on nodes 0 and 1), and
// on the memory case (J2 waits for memory until 10 s, J3 backfills at 1 s
// on node 0).
func TestPythonEASYOnNodes(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192},
		{Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	node := func(n, cores int, mem int64, gpus, part int) rigid.Request {
		return rigid.Request{Nodes: n, CoresPerNode: cores, MemoryPerNodeMiB: mem, GPUsPerNode: gpus, Partition: part}
	}
	type job struct {
		submit, run int64
		req         rigid.Request
	}
	for _, c := range []struct {
		name  string
		jobs  []job
		start []int64
		nodes [][]int32
	}{
		{"gpu", []job{{0, 20, node(1, 4, 16384, 2, 1)}, {0, 10, node(1, 2, 8192, 3, 1)}, {0, 30, node(2, 4, 4096, 0, 0)},
			{0, 50, node(1, 2, 0, 0, rigid.AnyPartition)}, {0, 5, node(1, 1, 1024, 1, 1)}, {0, 100, node(1, 1, 1024, 1, 1)}},
			[]int64{0, 20, 0, 0, 0, 0}, [][]int32{{2}, {2}, {0, 1}, {2}, {2}, {2}}},
		{"memory", []job{{0, 10, node(1, 1, 6144, 0, 0)}, {0, 10, node(1, 1, 6144, 0, 0)}, {0, 5, node(1, 1, 4096, 0, 0)}, {1, 5, node(1, 2, 2048, 0, 0)}},
			[]int64{0, 0, 10, 1}, [][]int32{{0}, {1}, {0}, {0}}},
	} {
		w := &rigid.Workload{Name: c.name, Procs: m.Cores(), Machine: m}
		for i, j := range c.jobs {
			w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), SubmitSeconds: j.submit, Procs: j.req.Cores(), RunSeconds: j.run, RequestedSeconds: j.run})
			w.Requests = append(w.Requests, j.req)
		}
		got, err := simulateNodes(t, w, pythonExample(t, "easy"))
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Rigid(w, rigid.EstimateExact, got); err != nil {
			t.Fatal(err)
		}
		want, err := backfill.Simulate(context.Background(), w, rigid.EstimateExact, backfill.FCFSEasy())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []*backfill.Schedule{got, want} {
			nodes := enginetest.NodeIDs(s)
			if !slices.Equal(s.StartSeconds, c.start) || !slices.EqualFunc(nodes, c.nodes, slices.Equal) {
				t.Errorf("%s: starts %v on %v, want %v on %v", c.name, s.StartSeconds, nodes, c.start, c.nodes)
			}
		}
	}
	// On 400 random jobs of every kind of request, and on 2,000
	// Lublin-Feitelson jobs with Tsafrir estimates on
	// experiments/platforms/gpu-cluster.yaml's machine (requests drawn by
	// genrigid.NodeRequests), under both estimate variants, the Python
	// EASY starts every job when and where the built-in does.
	random := enginetest.RandomNodeJobs(400, 1)
	random.DropUnfit()
	ws := []*rigid.Workload{random}
	if !testing.Short() {
		ws = append(ws, gpuClusterJobs(t)) // 2 x 5 s
	}
	for _, w := range ws {
		for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
			sameAsBuiltinEASY(t, w, v, pythonExample(t, "easy"), backfill.SelectFirstFit)
		}
	}
}

// The Python client's EASY under the param nodes=best-fit (best-fit in
// place() and easy(): the head's nodes at the shadow, the backfilled
// jobs') against the built-in EASY with best-fit node selection: on three
// draws of 400 random jobs of every kind of request and on 2,000
// Lublin-Feitelson jobs on gpu-cluster's machine, under both estimate
// variants, every job starts when and where the built-in starts it.
func TestPythonEASYBestFitOnNodes(t *testing.T) {
	var ws []*rigid.Workload
	for seed := range uint64(3) {
		w := enginetest.RandomNodeJobs(400, seed+1)
		w.DropUnfit()
		ws = append(ws, w)
	}
	if !testing.Short() {
		ws = append(ws, gpuClusterJobs(t))
	}
	opts := pythonExample(t, "easy")
	opts.Params = map[string]string{"nodes": "best-fit"}
	for _, w := range ws {
		for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
			sameAsBuiltinEASY(t, w, v, opts, backfill.SelectBestFit)
		}
	}
}

// sameAsBuiltinEASY fails unless the pipe policy opts gives w, under v,
// the schedule of the built-in fcfs-easy with node selection sel, job
// for job and node for node.
func sameAsBuiltinEASY(t *testing.T, w *rigid.Workload, v rigid.Variant, opts Options, sel backfill.NodeSelection) {
	t.Helper()
	got, err := simulateNodesUnder(t, w, v, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Rigid(w, v, got); err != nil {
		t.Fatal(err)
	}
	p := backfill.FCFSEasy()
	p.Nodes = sel
	want, err := backfill.Simulate(context.Background(), w, v, p)
	if err != nil {
		t.Fatal(err)
	}
	if i := firstDiff(got.StartSeconds, want.StartSeconds); i >= 0 {
		t.Fatalf("%s %v %v: job %d starts at %d s, under the built-in EASY at %d s", w.Name, v, sel, i, got.StartSeconds[i], want.StartSeconds[i])
	}
	for i := range w.Jobs {
		if !slices.Equal(got.Nodes[i], want.Nodes[i]) {
			t.Fatalf("%s %v %v: job %d holds %+v, under the built-in EASY %+v", w.Name, v, sel, i, got.Nodes[i], want.Nodes[i])
		}
	}
	t.Logf("%s %v %v: %d jobs, %d decisions, the built-in EASY's schedule", w.Name, v, sel, len(w.Jobs), got.Stats.Passes)
}

// gpuClusterJobs is 2,000 lublin1999 jobs with Tsafrir estimates on the
// machine of experiments/platforms/gpu-cluster.yaml (32 CPU nodes of 16
// cores and 64 GiB, 8 GPU nodes of 16 cores, 256 GiB and 4 GPUs), with
// requests drawn by genrigid.NodeRequests.
func gpuClusterJobs(t *testing.T) *rigid.Workload {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 32, Cores: 16, MemoryMiB: 65536},
		{Name: "gpu", Nodes: 8, Cores: 16, MemoryMiB: 262144, GPUs: 4}}}
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), m.Cores(), 2000, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), [2]uint64{5, 6}); err != nil {
		t.Fatal(err)
	}
	w.Name, w.Machine, w.Procs = "gpu-cluster", m, m.Cores()
	if w.Requests, err = genrigid.NodeRequests(w.Jobs, m, genrigid.DefaultNodeParams(), [2]uint64{3, 4}); err != nil {
		t.Fatal(err)
	}
	return w
}
