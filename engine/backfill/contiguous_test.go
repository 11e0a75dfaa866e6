package backfill

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Freeing a job's ids joins the free blocks beside them and sets the end
// a block is allocated from, as pybatsim 3.2.1's unassignJob does:
// hand-computed cases on 8 ids.
func TestReleaseJoinsBlocks(t *testing.T) {
	low, high := true, false
	cases := []struct {
		name        string
		free        []freeBlock
		first, n    int
		want        []freeBlock
		wantAtIndex int
	}{
		{"alone", []freeBlock{{0, 0, high}, {6, 7, high}}, 2, 2,
			[]freeBlock{{0, 0, high}, {2, 3, low}, {6, 7, high}}, 1},
		{"joins the block below: allocated from its highest ids", []freeBlock{{0, 1, low}, {6, 7, low}}, 2, 2,
			[]freeBlock{{0, 3, high}, {6, 7, low}}, 0},
		{"joins the block above: from its lowest", []freeBlock{{0, 0, low}, {4, 7, high}}, 2, 2,
			[]freeBlock{{0, 0, low}, {2, 7, low}}, 1},
		{"joins both: the lower block's end", []freeBlock{{0, 1, high}, {4, 7, low}}, 2, 2,
			[]freeBlock{{0, 7, high}}, 0},
		{"into an empty list", nil, 3, 1, []freeBlock{{3, 3, low}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, got := release(slices.Clone(c.free), c.first, c.n)
			if !slices.Equal(got, c.want) || i != c.wantAtIndex {
				t.Errorf("release(%v, %d, %d) = %d, %v; want %d, %v", c.free, c.first, c.n, i, got, c.wantAtIndex, c.want)
			}
		})
	}
}

// A job takes the first block with room, from the block's end.
func TestFirstFitTakesFromTheBlocksEnd(t *testing.T) {
	free := []freeBlock{{0, 0, true}, {2, 5, false}, {7, 9, true}}
	if i := firstFit(free, 2); i != 1 {
		t.Fatalf("firstFit 2 ids = block %d, want 1 (the first with room)", i)
	}
	first, free := take(free, 1, 2)
	if first != 4 || !slices.Equal(free, []freeBlock{{0, 0, true}, {2, 3, false}, {7, 9, true}}) {
		t.Errorf("take 2 from the top of 2-5: first %d, blocks %v; want 4 and 2-3 left", first, free)
	}
	first, free = take(free, 0, 1)
	if first != 0 || !slices.Equal(free, []freeBlock{{2, 3, false}, {7, 9, true}}) {
		t.Errorf("take the whole of 0-0: first %d, blocks %v; want 0 and the block gone", first, free)
	}
	if i := firstFit(free, 4); i != -1 {
		t.Errorf("firstFit 4 ids = block %d, want none", i)
	}
}

// contiguousCases are hand-made traces of pybatsim's rules with their
// hand-computed schedules under EASY with contiguous placement and
// per-event passes (variant R: requested times as estimates); the
// processors schedule is the default EASY's. policy/batsim checks them
// against pybatsim itself.
var contiguousCases = []struct {
	W                     *rigid.Workload
	Starts, StartsCounted []int64
	Resources             []string // first-last of each job's block
}{
	{
		// Jobs 0-3 take ids 0 to 3; jobs 1 and 3 end at 2. Job 4 (2 ids)
		// fits the 2 free processors at once, but no 2 consecutive ids
		// are free until job 0 ends at 10: ids 0-1 (1 joins the block of
		// 0 below it, which is allocated from its highest ids: 0-1).
		W: testWorkload("contiguous", 4,
			rigid.Job{Procs: 1, RunSeconds: 10}, rigid.Job{Procs: 1, RunSeconds: 2}, rigid.Job{Procs: 1, RunSeconds: 10},
			rigid.Job{Procs: 1, RunSeconds: 2}, rigid.Job{SubmitSeconds: 2, Procs: 2, RunSeconds: 5}),
		Starts: []int64{0, 0, 0, 0, 10}, StartsCounted: []int64{0, 0, 0, 0, 2},
		Resources: []string{"0-0", "1-1", "2-2", "3-3", "0-1"},
	},
	{
		// A pass per event: jobs 0 and 1 both end at 10; job 1 asked for
		// 50 s. After job 0's end alone, job 1 counts as running until
		// 50, so head job 2's reservation is at 50 and job 3 (2 ids, 20
		// s) is backfilled on 0-1; job 2 then waits for it until 30.
		W: testWorkload("per event", 4,
			rigid.Job{Procs: 2, RunSeconds: 10, RequestedSeconds: 10}, rigid.Job{Procs: 2, RunSeconds: 10, RequestedSeconds: 50},
			rigid.Job{SubmitSeconds: 1, Procs: 4, RunSeconds: 5, RequestedSeconds: 5}, rigid.Job{SubmitSeconds: 1, Procs: 2, RunSeconds: 20, RequestedSeconds: 20}),
		Starts: []int64{0, 0, 30, 10}, StartsCounted: []int64{0, 0, 10, 15},
		Resources: []string{"0-1", "2-3", "0-3", "0-1"},
	},
	{
		// A block freed next to the free block below it is allocated
		// from its highest ids: job 0 (id 0) ends at 5, job 1 (id 1) at
		// 8, so the block 0-1 gives job 3 id 1, where job 1 was; job 4
		// (2 ids) waits for it.
		W: testWorkload("highest ids", 4,
			rigid.Job{Procs: 1, RunSeconds: 5}, rigid.Job{Procs: 1, RunSeconds: 8}, rigid.Job{Procs: 2, RunSeconds: 20},
			rigid.Job{SubmitSeconds: 9, Procs: 1, RunSeconds: 5}, rigid.Job{SubmitSeconds: 9, Procs: 2, RunSeconds: 5}),
		Starts: []int64{0, 0, 0, 9, 14}, StartsCounted: []int64{0, 0, 0, 9, 14},
		Resources: []string{"0-0", "1-1", "2-3", "1-1", "0-1"},
	},
	{
		// A free block strictly inside the head's reservation is not
		// shortened. Jobs 0-4 take ids 0-4; job 2 ends at 1. Head job 5
		// (5 ids) is reserved 0-4 at 100, when jobs 1 and 3 are
		// estimated to end; id 2, free, touches neither end of it, so
		// job 6 (1000 s) is backfilled there and the head waits until
		// 1002. Counting processors, job 6 would end after the shadow
		// and the head leaves none spare: it waits for the head.
		W: testWorkload("inside the reservation", 5,
			rigid.Job{Procs: 1, RunSeconds: 10}, rigid.Job{Procs: 1, RunSeconds: 100}, rigid.Job{Procs: 1, RunSeconds: 1, RequestedSeconds: 10},
			rigid.Job{Procs: 1, RunSeconds: 100}, rigid.Job{Procs: 1, RunSeconds: 10},
			rigid.Job{SubmitSeconds: 2, Procs: 5, RunSeconds: 10}, rigid.Job{SubmitSeconds: 2, Procs: 1, RunSeconds: 1000}),
		Starts: []int64{0, 0, 0, 0, 0, 1002, 2}, StartsCounted: []int64{0, 0, 0, 0, 0, 100, 110},
		Resources: []string{"0-0", "1-1", "2-2", "3-3", "4-4", "0-4", "2-2"},
	},
}

// testWorkload numbers the jobs; a requested time left out is the run
// time.
func testWorkload(name string, procs int, jobs ...rigid.Job) *rigid.Workload {
	w := &rigid.Workload{Name: name, Procs: procs, Jobs: jobs}
	for i := range w.Jobs {
		w.Jobs[i].Number = int64(i + 1)
		w.Jobs[i].RequestedSeconds = max(w.Jobs[i].RequestedSeconds, w.Jobs[i].RunSeconds)
	}
	return w
}

func TestContiguousHandMade(t *testing.T) {
	for _, c := range contiguousCases {
		t.Run(c.W.Name, func(t *testing.T) {
			p := FCFSEasy()
			p.Placement, p.Pass = PlaceContiguous, PassPerEvent
			sched, err := Simulate(context.Background(), c.W, rigid.EstimateRequested, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sched.StartSeconds, c.Starts) {
				t.Errorf("contiguous, per event: starts %v, want %v", sched.StartSeconds, c.Starts)
			}
			var ids []string
			for j, first := range sched.FirstResource {
				ids = append(ids, fmt.Sprintf("%d-%d", first, first+c.W.Jobs[j].Procs-1))
			}
			if !slices.Equal(ids, c.Resources) {
				t.Errorf("contiguous, per event: blocks %v, want %v", ids, c.Resources)
			}
			plan := sched.ResourceSchedule(c.W)
			if err := placement.Check(c.W.Procs, placementJobs(c.W), len(c.W.Jobs), &plan); err != nil {
				t.Error(err)
			}
			counted, err := Simulate(context.Background(), c.W, rigid.EstimateRequested, FCFSEasy())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(counted.StartSeconds, c.StartsCounted) {
				t.Errorf("counting processors, per instant: starts %v, want %v", counted.StartSeconds, c.StartsCounted)
			}
		})
	}
}

func placementJobs(w *rigid.Workload) []placement.Job {
	out := make([]placement.Job, len(w.Jobs))
	for i, j := range w.Jobs {
		out[i] = placement.Job{SubmitNanos: j.SubmitSeconds * placement.NanosPerSecond, RunNanos: j.RunSeconds * placement.NanosPerSecond, Resources: j.Procs}
	}
	return out
}

// Each option alone on the per-event trace: contiguous placement with a
// pass per instant sees both ends of second 10 (the built-in's
// schedule); counting processors with a pass per event backfills job 3
// as pybatsim does. So the per-event cause is not contiguity's.
func TestOptionsApart(t *testing.T) {
	w := contiguousCases[1].W
	for _, c := range []struct {
		placed Placement
		pass   Pass
		want   []int64
	}{
		{PlaceContiguous, PassPerInstant, []int64{0, 0, 10, 15}},
		{PlaceProcessors, PassPerEvent, []int64{0, 0, 30, 10}},
	} {
		p := FCFSEasy()
		p.Placement, p.Pass = c.placed, c.pass
		sched, err := Simulate(context.Background(), w, rigid.EstimateRequested, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sched.StartSeconds, c.want) {
			t.Errorf("%s, %s: starts %v, want %v", c.placed, c.pass, sched.StartSeconds, c.want)
		}
	}
}

// Contiguous placement is EASY's; a Decider is asked once per instant.
func TestModellingOptionsRefused(t *testing.T) {
	w := contiguousCases[0].W
	for _, p := range []Policy{
		{Order: OrderFCFS, Allocation: AllocConservative, Placement: PlaceContiguous},
		{Order: OrderRelShare, Planner: DefaultTradeoff(), Placement: PlaceContiguous},
		{Order: OrderFCFS, Placement: 7},
		{Order: OrderFCFS, Pass: 7},
	} {
		if _, err := Simulate(context.Background(), w, rigid.EstimateRequested, p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}
