package pqueue

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueueSortsLikeSlicesSort: pushing random keys (with many ties, made
// total by an index) and popping them all gives exactly slices.Sort's order,
// also when pushes and pops interleave.
func TestQueueSortsLikeSlicesSort(t *testing.T) {
	type item struct{ key, index int }
	less := func(a, b item) bool { return a.key < b.key || (a.key == b.key && a.index < b.index) }
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 10, 1000} {
		q := New(less)
		var want, got []item
		for i := range n {
			x := item{rng.IntN(10), i}
			q.Push(x)
			want = append(want, x)
			if rng.IntN(4) == 0 {
				// Pop the least so far: it must be the minimum of what is in.
				slices.SortFunc(want, func(a, b item) int {
					if less(a, b) {
						return -1
					}
					return 1
				})
				if p := q.Pop(); p != want[0] {
					t.Fatalf("n=%d: interleaved Pop %v, want %v", n, p, want[0])
				}
				want = want[1:]
			}
		}
		slices.SortFunc(want, func(a, b item) int {
			if less(a, b) {
				return -1
			}
			return 1
		})
		for q.Len() > 0 {
			if q.Peek() != q.items[0] {
				t.Fatal("Peek is not the head")
			}
			got = append(got, q.Pop())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: popped %v, want %v", n, got, want)
		}
	}
}

// TestGrow: after Grow(n), n pushes allocate nothing (AllocsPerRun runs
// the function twice: once to warm up, once measured).
func TestGrow(t *testing.T) {
	q := New(func(a, b int) bool { return a < b })
	q.Grow(200)
	allocs := testing.AllocsPerRun(1, func() {
		for i := range 100 {
			q.Push(100 - i)
		}
	})
	if allocs != 0 || q.Len() != 200 || q.Pop() != 1 {
		t.Errorf("200 pushes after Grow(200): %v allocations, %d elements", allocs, q.Len())
	}
}
