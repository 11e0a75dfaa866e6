package backfill_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// cpuGPU is issue 34's example platform: nodes 0 and 1 in partition cpu,
// 4 cores and 8 GiB each; node 2 in partition gpu, 8 cores, 64 GiB and 4
// GPUs.
func cpuGPU() *rigid.Machine {
	return &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192},
		{Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
}

// nodeJob is one job of a hand-computed node schedule: submit and run
// (= estimate) in seconds, and its request.
type nodeJob struct {
	submit, run int64
	req         rigid.Request
}

const (
	cpu     = 0
	gpu     = 1
	anyPart = rigid.AnyPartition
)

func nodeWorkload(m *rigid.Machine, jobs []nodeJob) *rigid.Workload {
	w := &rigid.Workload{Name: "nodes", Procs: m.Cores(), Machine: m}
	for i, j := range jobs {
		procs := j.req.Cores()
		if j.req.Pooled() {
			procs = j.req.CoresPerNode // the tests give pooled cores here
			j.req.CoresPerNode = 0
		}
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(i % 2), SubmitSeconds: j.submit, Procs: procs,
			RunSeconds: j.run, RequestedSeconds: j.run})
		w.Requests = append(w.Requests, j.req)
	}
	return w
}

// simulateNodes runs the policy, checks the schedule with the independent
// validator and returns the starts and each job's nodes.
func simulateNodes(t *testing.T, w *rigid.Workload, p backfill.Policy) ([]int64, [][]int32, *backfill.Schedule) {
	t.Helper()
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Rigid(w, rigid.EstimateRequested, sched); err != nil {
		t.Fatal(err)
	}
	return sched.StartSeconds, enginetest.NodeIDs(sched), sched
}

// wantNodeSchedule fails t unless p schedules w (checked by
// engine/verify) with these starts, each job on these nodes.
func wantNodeSchedule(t *testing.T, w *rigid.Workload, p backfill.Policy, start []int64, nodes [][]int32) {
	t.Helper()
	gotStart, gotNodes, _ := simulateNodes(t, w, p)
	if !slices.Equal(gotStart, start) || !slices.EqualFunc(gotNodes, nodes, slices.Equal) {
		t.Errorf("starts %v on nodes %v, want %v on %v", gotStart, gotNodes, start, nodes)
	}
}

func node(n int, cores int, memMiB int64, gpus int, part int) rigid.Request {
	return rigid.Request{Nodes: n, CoresPerNode: cores, MemoryPerNodeMiB: memMiB, GPUsPerNode: gpus, Partition: part}
}

// Hand-computed schedules on cpuGPU under fcfs (issue 34's "what must be
// true"): each case gives the starts and nodes under EASY, strict (no
// backfilling) and conservative allocation, worked out below.
func TestNodeSchedulesByHand(t *testing.T) {
	exclusive := node(1, 1, 1024, 0, cpu)
	exclusive.Exclusive = true
	tests := []struct {
		name  string
		jobs  []nodeJob
		alloc backfill.Allocation
		sel   backfill.NodeSelection
		start []int64
		nodes [][]int32
		// shadows are the EASY reservations' shadows by head.
		shadows map[int]int64
	}{
		// Memory, not cores, makes J2 wait: J0 and J1 take 6 of each CPU
		// node's 8 GiB; J2's 4 GiB fit no node until they end at 10,
		// though 3 cores are free on each. At 1 J3 (2 cores, 2 GiB, ends
		// at 6) is backfilled on node 0 under EASY (it ends by the shadow
		// 10); strict allocation holds it behind J2 until 10, where both
		// fit node 0 (3 cores, 8 GiB). Conservative plans J2 at 10 and J3
		// at 1, as EASY.
		{"memory easy", memJobs, backfill.AllocEASY, backfill.SelectFirstFit,
			[]int64{0, 0, 10, 1}, [][]int32{{0}, {1}, {0}, {0}}, map[int]int64{2: 10}},
		{"memory strict", memJobs, backfill.AllocStrict, backfill.SelectFirstFit,
			[]int64{0, 0, 10, 10}, [][]int32{{0}, {1}, {0}, {0}}, nil},
		{"memory conservative", memJobs, backfill.AllocConservative, backfill.SelectFirstFit,
			[]int64{0, 0, 10, 1}, [][]int32{{0}, {1}, {0}, {0}}, nil},
		// A GPU job waits for the GPU node while CPU jobs backfill: G0
		// takes 2 of node 2's GPUs until 20; G1 needs 3 and is promised
		// node 2 at 20, where it leaves 6 cores, 1 GPU and 56 GiB spare.
		// C0 (both CPU nodes whole, to 30) backfills off the head's node;
		// X (any partition, 2 cores, to 50) finds the CPU nodes full and
		// takes 2 of node 2's spare cores; Y (1 GPU, ends at 5, by the
		// shadow) takes a free GPU; Z (1 GPU, to 100) the one spare GPU.
		// At 20 node 2 has G0's 2 GPUs and Y's back: G1 starts. Without
		// backfilling nothing passes G1: at 20 G1, C0, X and Y start
		// (node 2: 2+2+1 cores, 3+1 GPUs), Z at 25 when Y's GPU is back.
		// Conservative gives every job the earliest start EASY did.
		{"gpu easy", gpuJobs, backfill.AllocEASY, backfill.SelectFirstFit,
			[]int64{0, 20, 0, 0, 0, 0}, [][]int32{{2}, {2}, {0, 1}, {2}, {2}, {2}}, map[int]int64{1: 20}},
		{"gpu strict", gpuJobs, backfill.AllocStrict, backfill.SelectFirstFit,
			[]int64{0, 20, 20, 20, 20, 25}, [][]int32{{2}, {2}, {0, 1}, {2}, {2}, {2}}, nil},
		{"gpu conservative", gpuJobs, backfill.AllocConservative, backfill.SelectFirstFit,
			[]int64{0, 20, 0, 0, 0, 0}, [][]int32{{2}, {2}, {0, 1}, {2}, {2}, {2}}, nil},
		// The head's node is protected: G1 is promised node 2 at 20,
		// which leaves 1 GPU spare then. P (2 GPUs, to 100) fits the 2
		// GPUs free now but would take G1's: it waits; Q (2 GPUs, ends at
		// 20, by the shadow) takes them. P starts at 30, when G1 ends.
		{"protect", []nodeJob{{0, 20, node(1, 4, 0, 2, gpu)}, {0, 10, node(1, 2, 0, 3, gpu)}, {0, 100, node(1, 1, 0, 2, gpu)}, {0, 20, node(1, 1, 0, 2, gpu)}},
			backfill.AllocEASY, backfill.SelectFirstFit, []int64{0, 20, 30, 0}, [][]int32{{2}, {2}, {2}, {2}}, map[int]int64{1: 20}},
		// Shared nodes: A and B share node 0, C takes a core of nodes 0
		// and 1; all start at 0.
		{"shared", []nodeJob{{0, 10, node(1, 1, 1024, 0, cpu)}, {0, 10, node(1, 1, 1024, 0, cpu)}, {0, 10, node(2, 1, 0, 0, cpu)}},
			backfill.AllocStrict, backfill.SelectFirstFit, []int64{0, 0, 0}, [][]int32{{0}, {0}, {0, 1}}, nil},
		// Exclusive B takes node 1 whole (node 0 holds A): C, which needs
		// both CPU nodes, waits until B ends at 10.
		{"exclusive", []nodeJob{{0, 10, node(1, 1, 1024, 0, cpu)}, {0, 10, exclusive}, {0, 10, node(2, 1, 0, 0, cpu)}},
			backfill.AllocStrict, backfill.SelectFirstFit, []int64{0, 0, 10}, [][]int32{{0}, {1}, {0, 1}}, nil},
		// A (2 cores, to 5) on node 0, B (3 cores) on node 1; C (1 core)
		// goes to node 0 first-fit, to node 1 best-fit (0 cores left
		// rather than 1). D (2 cores) then fits nowhere first-fit (1 core
		// free on each) and starts when A ends at 5; best-fit left node
		// 0 its 2 cores, and D starts at 2.
		{"first-fit", fitJobs, backfill.AllocEASY, backfill.SelectFirstFit,
			[]int64{0, 0, 1, 5}, [][]int32{{0}, {1}, {0}, {0}}, nil},
		{"best-fit", fitJobs, backfill.AllocEASY, backfill.SelectBestFit,
			[]int64{0, 0, 1, 2}, [][]int32{{0}, {1}, {1}, {0}}, nil},
		// Every job exclusive, so scheduled on counts of whole nodes
		// (nodewhole.go). W0 (cpu, to 100) on node 0; W1 (2 nodes, any
		// partition) fits neither the 1 CPU node free nor the 1-node GPU
		// partition: promised both CPU nodes at 100, none spare. W2 (any,
		// to 502) outlives the shadow: the CPU node free now is the
		// head's, so it takes the GPU node. W3 (cpu, ends at 53, by the
		// shadow) takes the free CPU node; W4 (cpu, to 504) would take
		// the head's node and waits until W1 ends at 400. Without
		// backfilling W1 blocks the queue until 100, where W2 finds the
		// GPU node; W3 and W4 wait for the CPU nodes until 400.
		// Conservative plans what EASY gives.
		{"whole easy", wholeJobs(), backfill.AllocEASY, backfill.SelectFirstFit,
			[]int64{0, 100, 2, 3, 400}, [][]int32{{0}, {0, 1}, {2}, {1}, {0}}, map[int]int64{1: 100}},
		{"whole strict", wholeJobs(), backfill.AllocStrict, backfill.SelectFirstFit,
			[]int64{0, 100, 100, 400, 400}, [][]int32{{0}, {0, 1}, {2}, {0}, {1}}, nil},
		{"whole conservative", wholeJobs(), backfill.AllocConservative, backfill.SelectFirstFit,
			[]int64{0, 100, 2, 3, 400}, [][]int32{{0}, {0, 1}, {2}, {1}, {0}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := nodeWorkload(cpuGPU(), tt.jobs)
			p := backfill.FCFSEasy()
			p.Allocation, p.Nodes = tt.alloc, tt.sel
			start, nodes, sched := simulateNodes(t, w, p)
			if !slices.Equal(start, tt.start) || !slices.EqualFunc(nodes, tt.nodes, slices.Equal) {
				t.Errorf("starts %v on nodes %v, want %v on %v", start, nodes, tt.start, tt.nodes)
			}
			if tt.shadows != nil {
				got := map[int]int64{}
				for _, r := range sched.Reservations {
					got[r.Head] = r.ShadowSeconds
				}
				if len(got) != len(tt.shadows) || !mapsEqual(got, tt.shadows) {
					t.Errorf("reservations %+v, want shadows %v", sched.Reservations, tt.shadows)
				}
			}
		})
	}
}

func mapsEqual(a, b map[int]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}

// wholeJobs are exclusive jobs of 4 cores per node: W0 to W4 of the
// "whole" cases.
func wholeJobs() []nodeJob {
	jobs := []nodeJob{{0, 100, node(1, 4, 0, 0, cpu)}, {1, 300, node(2, 4, 0, 0, anyPart)},
		{2, 500, node(1, 4, 0, 0, anyPart)}, {3, 50, node(1, 4, 0, 0, cpu)}, {4, 500, node(1, 4, 0, 0, cpu)}}
	for i := range jobs {
		jobs[i].req.Exclusive = true
	}
	return jobs
}

var (
	memJobs = []nodeJob{
		{0, 10, node(1, 1, 6144, 0, cpu)}, {0, 10, node(1, 1, 6144, 0, cpu)},
		{0, 5, node(1, 1, 4096, 0, cpu)}, {1, 5, node(1, 2, 2048, 0, cpu)},
	}
	gpuJobs = []nodeJob{
		{0, 20, node(1, 4, 16384, 2, gpu)}, {0, 10, node(1, 2, 8192, 3, gpu)},
		{0, 30, node(2, 4, 4096, 0, cpu)}, {0, 50, node(1, 2, 0, 0, anyPart)},
		{0, 5, node(1, 1, 1024, 1, gpu)}, {0, 100, node(1, 1, 1024, 1, gpu)},
	}
	fitJobs = []nodeJob{
		{0, 5, node(1, 2, 0, 0, cpu)}, {0, 10, node(1, 3, 0, 0, cpu)},
		{1, 10, node(1, 1, 0, 0, cpu)}, {2, 10, node(1, 2, 0, 0, cpu)},
	}
)

// TestEarlyEndMovesKeptReservation is a hand-computed schedule where a job
// ending early moves a blocked head's reservation earlier, which EASY on
// nodes must see though it keeps reservations from pass to pass
// (nodeskept.go, keepThroughEnd). Two nodes of 2 cores and 2 GiB: A (1 core,
// 1 GiB, to 30) and B (1 core, 1 GiB, estimated to 50, ends at 10) share
// node 0, C (1 core, all 2 GiB, to 200) holds node 1. At 1 H (2 cores) is
// promised node 0 at 50, when A and B are estimated to be gone; X (1 core,
// 1 GiB, 30 s) finds no memory free. At 10 B ends: A alone keeps H off
// node 0 now, so the shadow is 30, and X, which would end at 40, may not
// take node 0's free core (it would still hold it at 30). H starts at 30
// on node 0, X at 40 after it. Had the reservation kept its shadow of 50,
// X would have started at 10 and delayed H to 40.
func TestEarlyEndMovesKeptReservation(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 2, MemoryMiB: 2048}}}
	w := nodeWorkload(m, []nodeJob{
		{0, 30, node(1, 1, 1024, 0, cpu)},  // A
		{0, 10, node(1, 1, 1024, 0, cpu)},  // B
		{0, 200, node(1, 1, 2048, 0, cpu)}, // C
		{1, 10, node(1, 2, 0, 0, cpu)},     // H
		{1, 30, node(1, 1, 1024, 0, cpu)},  // X
	})
	w.Jobs[1].RequestedSeconds = 50
	wantNodeSchedule(t, w, backfill.FCFSEasy(), []int64{0, 0, 0, 30, 40}, [][]int32{{0}, {0}, {1}, {0}, {0}})
}

// TestBackfillMovesKeptReservation is a hand-computed schedule where a
// backfilled start changes the nodes a blocked head is promised, which
// EASY on nodes must see though it keeps reservations from pass to pass
// (nodeskept.go, keepThrough). Three nodes of 2 cores: F holds node 0 until 1,
// P1 and P2 nodes 1 and 2 until 50. At 1 H (2 nodes of 2 cores) is
// blocked and promised nodes 1 and 2 at 50 (first-fit takes first the
// nodes that cannot hold it now, and node 0 can); S (1 core, ends at 11)
// is backfilled on node 0. Now node 0 cannot hold H and is released by
// 50 too, so at 2 H's nodes are 0 and 1, and L (1 core, 100 s) may not
// take node 0's free core, which H leaves nothing spare of then. At 11 S
// ends, node 0 can hold H now again, H is promised nodes 1 and 2 again,
// and L starts on node 0; H starts at 50 on nodes 1 and 2. Had the
// reservation kept nodes 1 and 2 at 2, L would have started then.
func TestBackfillMovesKeptReservation(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 3, Cores: 2, MemoryMiB: 1024}}}
	w := nodeWorkload(m, []nodeJob{
		{0, 1, node(1, 2, 0, 0, cpu)},   // F
		{0, 50, node(1, 2, 0, 0, cpu)},  // P1
		{0, 50, node(1, 2, 0, 0, cpu)},  // P2
		{1, 10, node(2, 2, 0, 0, cpu)},  // H
		{1, 10, node(1, 1, 0, 0, cpu)},  // S
		{2, 100, node(1, 1, 0, 0, cpu)}, // L
	})
	wantNodeSchedule(t, w, backfill.FCFSEasy(), []int64{0, 0, 0, 50, 1, 11}, [][]int32{{0}, {1}, {2}, {1, 2}, {0}, {0}})
}

// TestBestFitLongBackfillMovesKeptReservation is a hand-computed schedule
// under best-fit where a backfilled job that outlives the shadow changes
// the node a blocked head is promised (nodeskept.go, keepThrough keeps the
// reservation through such a start under first-fit only). Two nodes of 4
// cores: J0 (2 cores) takes node 0 and J1 (3 cores) node 1 until 50, J2
// (1 core, to 100) node 1's last core. At 1 H (3 cores) is promised node 1
// at 50, which it leaves nothing of (node 0 would keep a core); L (1 core,
// 200 s) is backfilled on node 0. Now node 0 too would keep nothing at 50,
// and best-fit breaks the tie to the lowest id: at 2 H is promised node 0,
// and M (1 core, 200 s) may not take node 0's free core. M starts at 50 on
// node 1, when H starts on node 0. Had the reservation kept node 1, M
// would have started at 2 on node 0.
func TestBestFitLongBackfillMovesKeptReservation(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 1024}}}
	w := nodeWorkload(m, []nodeJob{
		{0, 50, node(1, 2, 0, 0, cpu)},  // J0
		{0, 50, node(1, 3, 0, 0, cpu)},  // J1
		{0, 100, node(1, 1, 0, 0, cpu)}, // J2
		{1, 10, node(1, 3, 0, 0, cpu)},  // H
		{1, 200, node(1, 1, 0, 0, cpu)}, // L
		{2, 200, node(1, 1, 0, 0, cpu)}, // M
	})
	p := backfill.FCFSEasy()
	p.Nodes = backfill.SelectBestFit
	wantNodeSchedule(t, w, p, []int64{0, 0, 0, 50, 1, 50}, [][]int32{{0}, {1}, {1}, {0}, {0}, {1}})
}

// TestCorrectionMovesKeptReservation is a hand-computed schedule where an
// estimate's correction moves a blocked head's reservation, which EASY on
// nodes must see though it keeps reservations from pass to pass
// (nodeskept.go, reuse). Requested estimates, never killed; two nodes of 4
// cores. A (2 cores, requests 10 s, its log says it ran 1,000) holds node 0, B (4 cores,
// 500 s) node 1. At 1 H (4 cores) is promised node 0 at 10, A's estimated
// end, and Y (2 cores, 1,000 s) may not take node 0's 2 free cores. At 11
// X (2 cores, 30 s) arrives: A has outlived its estimate, corrected to
// 10 + 60 = 70 s (rigid.CorrectedSeconds), so the shadow is 70, and X,
// ending at 41, takes node 0's free cores. At 500 B ends: H starts on
// node 1, Y on node 0. Had the reservation kept its shadow of 10, X would
// have waited until H ended at 510.
func TestCorrectionMovesKeptReservation(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 1024}}}
	w := nodeWorkload(m, []nodeJob{
		{0, 1000, node(1, 2, 0, 0, cpu)}, // A
		{0, 500, node(1, 4, 0, 0, cpu)},  // B
		{1, 10, node(1, 4, 0, 0, cpu)},   // H
		{1, 1000, node(1, 2, 0, 0, cpu)}, // Y
		{11, 30, node(1, 2, 0, 0, cpu)},  // X
	})
	w.Jobs[0].RunSeconds, w.Jobs[0].RequestedSeconds, w.Jobs[0].LoggedRunSeconds = 10, 10, 1000
	p := backfill.FCFSEasy()
	p.Kill = rigid.KillNever
	wantNodeSchedule(t, w, p, []int64{0, 0, 500, 500, 11}, [][]int32{{0}, {1}, {1}, {0}, {0}})
}
