package backfill_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestKeptReservationIsBuiltAnew is the kept reservation's oracle (EASY
// on nodes keeps a blocked head's reservation through the completions and
// backfilled starts that leave it as it was: nodeskept.go, keepThroughEnd and
// keepThrough). Under backfill.CheckingKept every pass that reuses it also
// builds it anew and panics unless the shadow, the head's nodes and
// shares, what it leaves spare of them and the cores it locks agree. It
// runs on BenchmarkNodes10k's workload (whole partitions' jobs, shared
// nodes of memory and GPUs) under four orders and both node selections,
// and on a mix of its jobs asking for any partition, pooled cores and
// exclusive nodes, and on 40 draws of enginetest.RandomNodeJobs (a
// machine of six nodes, where the head's nodes change rank at almost
// every start and completion) under both estimate variants; each schedule
// must be the one simulated without the check, and pass engine/verify.
func TestKeptReservationIsBuiltAnew(t *testing.T) {
	if testing.Short() {
		t.Skip("whole workloads")
	}
	type keptCase struct {
		name     string
		w        *rigid.Workload
		orders   []backfill.Order
		variants []rigid.Variant
	}
	requested, both := []rigid.Variant{rigid.EstimateRequested}, []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested}
	cases := []keptCase{
		{"gpu", lublinOnNodes(t, gpuMachine(), 10_000), []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF, backfill.OrderSAF, backfill.OrderLXF}, requested},
		{"mixed", mixedRequests(lublinOnNodes(t, gpuMachine(), 3000)), []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF}, requested},
	}
	for seed := range uint64(40) {
		w := enginetest.RandomNodeJobs(400, seed)
		w.DropUnfit()
		cases = append(cases, keptCase{fmt.Sprintf("random %d", seed), w, []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF}, both})
	}
	for _, c := range cases {
		for _, o := range c.orders {
			for _, sel := range []backfill.NodeSelection{backfill.SelectFirstFit, backfill.SelectBestFit} {
				for _, v := range c.variants {
					t.Run(fmt.Sprintf("%s %s %s %s", c.name, o, sel, v), func(t *testing.T) {
						checkKept(t, c.w, v, backfill.Policy{Order: o, Allocation: backfill.AllocEASY, Nodes: sel})
					})
				}
			}
		}
	}
}

// checkKept simulates w under p with and without backfill.CheckingKept,
// and fails unless both give the same valid schedule.
func checkKept(t *testing.T, w *rigid.Workload, v rigid.Variant, p backfill.Policy) {
	t.Helper()
	plain, err := backfill.Simulate(context.Background(), w, v, p)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := backfill.Simulate(context.Background(), w, v, backfill.CheckingKept(p))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fmt.Sprint(nodeDigest(plain)), fmt.Sprint(nodeDigest(checked)); a != b {
		t.Errorf("schedule digests %s, checked %s", a, b)
	}
	if err := verify.Rigid(w, v, plain); err != nil {
		t.Fatal(err)
	}
}

// mixedRequests returns w with every third job asking for any partition,
// every fifth (of the others) for its cores pooled with its memory per
// core, and every seventh for exclusive nodes.
func mixedRequests(w *rigid.Workload) *rigid.Workload {
	m := *w
	m.Requests = make([]rigid.Request, len(w.Requests))
	for i, r := range w.Requests {
		switch {
		case i%3 == 0:
			r.Partition = rigid.AnyPartition
		case i%5 == 0:
			r = rigid.Request{Partition: r.Partition, MemoryPerCoreMiB: r.MemoryPerNodeMiB / int64(r.CoresPerNode)}
		case i%7 == 0:
			r.Exclusive = true
		}
		m.Requests[i] = r
	}
	return &m
}
