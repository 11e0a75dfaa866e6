// Package pqueue is the binary min-heap behind the priority queues of the
// simulators and measures: event queues ordered by tick, ready queues
// ordered by a policy's keys, idle processors ordered by when they free up.
// The grid engine's event queue and keyed ready queues are copies of it
// specialised to their element types, where the comparison through a
// function value cost 8-18% of a simulation (engine/event.go, order.go).
//
// Unlike container/heap it needs no interface boxing: the queue holds its
// elements by value and orders them with a strict weak order given once.
// Callers make the order total (ties broken by an index) whenever the pop
// order must not depend on the push order.
package pqueue

import "slices"

// A Queue is a min-heap of T under less. The zero Queue is not usable:
// make one with New.
type Queue[T any] struct {
	items []T
	less  func(a, b T) bool
}

// New returns an empty queue ordered by less, which reports whether a
// must be popped before b.
func New[T any](less func(a, b T) bool) Queue[T] {
	return Queue[T]{less: less}
}

// Grow makes room for n more elements without another allocation, as
// slices.Grow does: a queue that will hold thousands of elements is best
// grown once than doubled a dozen times.
func (q *Queue[T]) Grow(n int) { q.items = slices.Grow(q.items, n) }

// Len returns the number of elements in the queue.
func (q *Queue[T]) Len() int { return len(q.items) }

// Peek returns the least element without removing it. The queue must not
// be empty.
func (q *Queue[T]) Peek() T { return q.items[0] }

// Push adds x in O(log n).
func (q *Queue[T]) Push(x T) {
	q.items = append(q.items, x)
	h := q.items
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// Pop removes and returns the least element in O(log n). The queue must
// not be empty.
func (q *Queue[T]) Pop() T {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	h := q.items
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && q.less(h[r], h[l]) {
			m = r
		}
		if !q.less(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}
