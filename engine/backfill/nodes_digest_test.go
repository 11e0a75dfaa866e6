package backfill_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// gpuMachine is BenchmarkNodes10k's machine: 800 CPU nodes of 32 cores
// and 128 GiB, 200 GPU nodes of 32 cores, 512 GiB and 4 GPUs.
func gpuMachine() *rigid.Machine {
	return &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 800, Cores: 32, MemoryMiB: 128 << 10},
		{Name: "gpu", Nodes: 200, Cores: 32, MemoryMiB: 512 << 10, GPUs: 4}}}
}

// lublinOnNodes draws jobs Lublin-Feitelson jobs (gen/rigid, seeds fixed)
// with Tsafrir estimates and genrigid.NodeRequests on m.
func lublinOnNodes(tb testing.TB, m *rigid.Machine, jobs int) *rigid.Workload {
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), m.Cores(), jobs, [2]uint64{34, 1})
	if err != nil {
		tb.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), [2]uint64{34, 2}); err != nil {
		tb.Fatal(err)
	}
	w.Machine = m
	if w.Requests, err = genrigid.NodeRequests(w.Jobs, m, genrigid.DefaultNodeParams(), [2]uint64{34, 3}); err != nil {
		tb.Fatal(err)
	}
	w.Procs = m.Cores()
	return w
}

// nodeDigest is FNV-1a over every job's start and its nodes' ids and
// held cores, GPUs and memory, in job order.
func nodeDigest(sched *backfill.Schedule) (starts, nodes uint64) {
	hs, hn := fnv.New64a(), fnv.New64a()
	var b [8]byte
	for j, t := range sched.StartSeconds {
		binary.LittleEndian.PutUint64(b[:], uint64(t))
		hs.Write(b[:])
		for _, sh := range sched.Nodes[j] {
			binary.LittleEndian.PutUint64(b[:], uint64(sh.Node)<<32|uint64(sh.Cores)<<16|uint64(sh.GPUs))
			hn.Write(b[:])
			binary.LittleEndian.PutUint64(b[:], uint64(sh.MemoryMiB))
			hn.Write(b[:])
		}
		hn.Write([]byte{0xff})
	}
	return hs.Sum64(), hn.Sum64()
}

// TestNodeScheduleDigests pins node schedules as computed by the node
// allocator of commit cee50ea (before the allocator was restructured for
// speed): the starts and the nodes held, for EASY, strict allocation and
// conservative backfilling, first-fit and best-fit, on one-core nodes
// (the synthetic month, nodes asked as nodes or as pooled cores) and on
// BenchmarkNodes10k's machine of memory and GPUs (2,000 of its jobs, 300
// under conservative). A change of a digest is a change of schedule.
// Since one-core nodes are scheduled on counts of whole nodes
// (nodewhole.go), their EASY starts are those pinned at cee50ea and their
// nodes the lowest free ids (no longer the head's nodes first), and their
// conservative schedules are counted processors' (checked by
// TestNodesMatchProcessors), where cee50ea's named plans differed.
func TestNodeScheduleDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("whole workloads")
	}
	month, gpus, gpusFew := syntheticMonth(), lublinOnNodes(t, gpuMachine(), 2000), lublinOnNodes(t, gpuMachine(), 300)
	pinned := map[string][2]uint64{
		"one-core fcfs easy pooled false":         {0x60e73313858e7bbb, 0x3c9bfcc0b1c87e36},
		"one-core fcfs easy pooled true":          {0x60e73313858e7bbb, 0x3c9bfcc0b1c87e36},
		"gpu fcfs easy first-fit":                 {0xf4d6a30701e50b0f, 0x7f4e560830391e0e},
		"gpu fcfs easy best-fit":                  {0xf4d6a30701e50b0f, 0xc511c1eb77c590f0},
		"one-core sjf easy pooled false":          {0x5f2c51906d07eba9, 0x2fc14cea9c6f43ba},
		"one-core sjf easy pooled true":           {0x5f2c51906d07eba9, 0x2fc14cea9c6f43ba},
		"gpu sjf easy first-fit":                  {0x8d46fb0ef2a6c490, 0x7b24624d7c480c32},
		"gpu sjf easy best-fit":                   {0x59a683e3b5694c69, 0xf06d418fb48dfe33},
		"one-core fcfs none pooled false":         {0xe8b3072ff169473d, 0x1d671e7a7fe57509},
		"one-core fcfs none pooled true":          {0xe8b3072ff169473d, 0x1d671e7a7fe57509},
		"gpu fcfs none first-fit":                 {0xdcd66721aa37beb5, 0x8714f26bbd31ab4b},
		"gpu fcfs none best-fit":                  {0xcc20c91d5987be97, 0xa3b1324d057552d6},
		"one-core sjf none pooled false":          {0x4d099ecbd3307f1b, 0xf4eea1ade7da4d0f},
		"one-core sjf none pooled true":           {0x4d099ecbd3307f1b, 0xf4eea1ade7da4d0f},
		"gpu sjf none first-fit":                  {0xf93a44fdfeb87ec2, 0xeece98d1ee760f97},
		"gpu sjf none best-fit":                   {0xf93a44fdfeb87ec2, 0xb2a49d758cecb048},
		"one-core fcfs conservative pooled false": {0x9bc044038bc4d12f, 0xb7be8eecbbf8c4a9},
		"one-core fcfs conservative pooled true":  {0x9bc044038bc4d12f, 0xb7be8eecbbf8c4a9},
		"gpu fcfs conservative first-fit":         {0x2f2629fce56734fb, 0xe1325c151fe32a36},
		"gpu fcfs conservative best-fit":          {0xeb1a0e8a6de37eb5, 0x81b715b34da94781},
		"one-core sjf conservative pooled false":  {0x9b62341c213ddb3d, 0xca764d084a14c9c5},
		"one-core sjf conservative pooled true":   {0x9b62341c213ddb3d, 0xca764d084a14c9c5},
		"gpu sjf conservative first-fit":          {0xcdbbedf8dd041544, 0x5b188cae54a90e7e},
		"gpu sjf conservative best-fit":           {0x4b9802e2d33b98b2, 0xfc4884ccd1676625},
	}
	for _, c := range digestCases(month, gpus, gpusFew) {
		t.Run(c.name, func(t *testing.T) {
			sched, err := backfill.Simulate(context.Background(), c.w, rigid.EstimateRequested, c.p)
			if err != nil {
				t.Fatal(err)
			}
			s, n := nodeDigest(sched)
			if want, ok := pinned[c.name]; !ok || want != [2]uint64{s, n} {
				t.Errorf("{%q, %#x, %#x}: pinned %#x", c.name, s, n, want)
			}
		})
	}
}

type digestCase struct {
	name string
	w    *rigid.Workload
	p    backfill.Policy
}

func digestCases(month, gpus, gpusFew *rigid.Workload) []digestCase {
	var out []digestCase
	names := map[backfill.Allocation]string{backfill.AllocEASY: "easy", backfill.AllocStrict: "none", backfill.AllocConservative: "conservative"}
	for _, alloc := range []backfill.Allocation{backfill.AllocEASY, backfill.AllocStrict, backfill.AllocConservative} {
		for _, o := range []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF} {
			for _, pooled := range []bool{false, true} {
				out = append(out, digestCase{fmt.Sprintf("one-core %s %s pooled %v", o, names[alloc], pooled), oneCoreNodes(month, pooled),
					backfill.Policy{Order: o, Allocation: alloc}})
			}
			g := gpus
			if alloc == backfill.AllocConservative {
				g = gpusFew
			}
			for _, sel := range []backfill.NodeSelection{backfill.SelectFirstFit, backfill.SelectBestFit} {
				out = append(out, digestCase{fmt.Sprintf("gpu %s %s %s", o, names[alloc], sel), g,
					backfill.Policy{Order: o, Allocation: alloc, Nodes: sel}})
			}
		}
	}
	return out
}
