package grid

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/dag"
)

// holdOrder is a FIFO that holds every task until tick hold: a Waker.
type holdOrder struct {
	*fifoOrder
	hold int64
	now  int64
}

func (o *holdOrder) BeginPass(now int64) { o.now = now }
func (o *holdOrder) Head() (int32, bool) {
	if o.now < o.hold {
		return 0, false
	}
	return o.fifoOrder.Head()
}
func (o *holdOrder) NextWake(now int64) (int64, bool) {
	return o.hold, now < o.hold && o.Len() > 0
}

// TestWaker: an order that holds its tasks until tick 7 gets a pass at 7
// although nothing else happens then (the job arrives at 0 and no task
// runs before 7).
func TestWaker(t *testing.T) {
	arrival := int64(0)
	w := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: &arrival, Tasks: []dag.Task{{ID: "T1", ExecTicks: 2, Cores: 1}}}}}
	in, err := Compile(w, platform.Single(1), DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Simulate(context.Background(), in, Options{Order: func(v *View, _ int) Order {
		return &holdOrder{fifoOrder: &fifoOrder{}, hold: 7}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.TaskStart[0]; got != 7 {
		t.Fatalf("T1 starts at %d, want 7", got)
	}
}

// logOrder is a FIFO that logs what the simulation tells it: a Finisher.
type logOrder struct {
	*fifoOrder
	log []string
}

func (o *logOrder) Push(g int32, now int64) {
	o.log = append(o.log, fmt.Sprintf("push %d@%d", g, now))
	o.fifoOrder.Push(g, now)
}

func (o *logOrder) Pop() int32 {
	g := o.fifoOrder.Pop()
	o.log = append(o.log, fmt.Sprintf("pop %d", g))
	return g
}

func (o *logOrder) Finished(g int32, now int64) {
	o.log = append(o.log, fmt.Sprintf("finished %d@%d", g, now))
}

// TestFinisher: on 1 core, T1 (2 ticks) -> T2 (3 ticks). The order is
// told of T1's finish at 2 before T2 is pushed, and of T2's at 5.
func TestFinisher(t *testing.T) {
	arrival := int64(0)
	w := &dag.Workload{Jobs: []dag.Job{{ID: "J1", Arrival: &arrival, Tasks: []dag.Task{
		{ID: "T1", ExecTicks: 2, Cores: 1}, {ID: "T2", ExecTicks: 3, Cores: 1, After: []string{"T1"}}}}}}
	in, err := Compile(w, platform.Single(1), DefaultNetwork())
	if err != nil {
		t.Fatal(err)
	}
	var o *logOrder
	if _, err := Simulate(context.Background(), in, Options{Order: func(v *View, _ int) Order {
		o = &logOrder{fifoOrder: &fifoOrder{}}
		return o
	}}); err != nil {
		t.Fatal(err)
	}
	want := "push 0@0, pop 0, finished 0@2, push 1@2, pop 1, finished 1@5"
	if got := strings.Join(o.log, ", "); got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}

// TestFifoQueueSortsLikeKeyHeap drives a fifoQueue and a keyHeap with
// the same random pushes (ready ticks that never decrease, one to many
// tasks per tick, indices in any order) and pops, and checks every pop of
// both against the least key of a plain slice.
func TestFifoQueueSortsLikeKeyHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, perTick := range []int{1, 3, 50} {
		var fq fifoQueue
		var kh keyHeap
		var want []taskKey
		now := int64(0)
		for step := 0; step < 20000; step++ {
			if r.IntN(perTick) == 0 {
				now += r.Int64N(3)
			}
			if len(want) == 0 || r.IntN(5) < 3 {
				g := int32(r.IntN(1 << 20))
				fq.push(g, now)
				k := taskKey{now, 0, 0, g}
				kh.push(k)
				want = append(want, k)
				continue
			}
			least := leastKey(want)
			if fq.len() != len(want) || len(kh.items) != len(want) {
				t.Fatalf("step %d: lengths %d and %d, want %d", step, fq.len(), len(kh.items), len(want))
			}
			if got := fq.pop(); got != want[least].g {
				t.Fatalf("step %d: fifoQueue pops %d, want %d", step, got, want[least].g)
			}
			if got := kh.pop(); got != want[least] {
				t.Fatalf("step %d: keyHeap pops %v, want %v", step, got, want[least])
			}
			want = slices.Delete(want, least, least+1)
		}
	}
}

// TestKeyHeapSortsLikeSlicesSort: random keys with ties in every field,
// pushed and popped in random order, pop in the order of taskKey.less.
func TestKeyHeapSortsLikeSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var kh keyHeap
	var want []taskKey
	for step := 0; step < 20000; step++ {
		if len(want) == 0 || r.IntN(5) < 3 {
			k := taskKey{r.Int64N(4) - 2, r.Int64N(3), r.Int64N(3), int32(r.IntN(50))}
			kh.push(k)
			want = append(want, k)
			continue
		}
		least := leastKey(want)
		if got := kh.pop(); got != want[least] {
			t.Fatalf("step %d: keyHeap pops %v, want %v", step, got, want[least])
		}
		want = slices.Delete(want, least, least+1)
	}
}

// leastKey returns the index of the least of keys by taskKey.less, the
// first of equal ones.
func leastKey(keys []taskKey) int {
	least := 0
	for i := range keys {
		if keys[i].less(keys[least]) {
			least = i
		}
	}
	return least
}
