package sweep

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/model"
)

// testCells returns cells named g<group>c<i>: counts[g] cells of each
// workload instance g, in plan order.
func testCells(counts ...int) []Cell {
	var cells []Cell
	for g, n := range counts {
		for i := range n {
			cells = append(cells, Cell{Cell: model.Cell{ID: fmt.Sprintf("g%dc%d", g, i)}, group: g})
		}
	}
	return cells
}

// preparedGroup is a model.Prepared that only remembers its instance.
type preparedGroup struct{ group int }

func (preparedGroup) Simulate(context.Context, model.Cell) (model.Outcome, error) {
	return nil, nil
}

// TestDispatcherOneWorkerKeepsPlanOrder: one worker gets every cell once,
// in plan order, and each instance is prepared once, from its first cell.
func TestDispatcherOneWorkerKeepsPlanOrder(t *testing.T) {
	var preparedFrom []string
	d := newDispatcher(testCells(3, 1, 2), func(_ context.Context, c Cell) (model.Prepared, error) {
		preparedFrom = append(preparedFrom, c.ID)
		return preparedGroup{c.group}, nil
	})
	var got []string
	for {
		tk, ok := d.Next(context.Background())
		if !ok {
			break
		}
		if tk.inst.prepared.(preparedGroup).group != tk.group {
			t.Errorf("cell %s got instance %d's preparation", tk.ID, tk.inst.prepared.(preparedGroup).group)
		}
		got = append(got, tk.ID)
	}
	if want := []string{"g0c0", "g0c1", "g0c2", "g1c0", "g2c0", "g2c1"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if want := []string{"g0c0", "g1c0", "g2c0"}; !slices.Equal(preparedFrom, want) {
		t.Errorf("prepared from %v, want %v", preparedFrom, want)
	}
}

// TestDispatcherNoWaitWhileWorkIsLeft: while worker 1 prepares instance 0,
// worker 2 is not made to wait for it (as it was when cells went out in
// plan order) but prepares instance 1 and gets its cells; when only
// instance 0's cells are left, it waits for worker 1's preparation and
// then shares them.
func TestDispatcherNoWaitWhileWorkIsLeft(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan int, 2)
	d := newDispatcher(testCells(3, 2), func(_ context.Context, c Cell) (model.Prepared, error) {
		entered <- c.group
		if c.group == 0 {
			<-release
		}
		return preparedGroup{c.group}, nil
	})
	first := make(chan task)
	go func() {
		tk, _ := d.Next(context.Background())
		first <- tk
	}()
	if g := <-entered; g != 0 {
		t.Fatalf("worker 1 prepares instance %d, want 0", g)
	}
	// Worker 2, while instance 0 is being prepared.
	var got []string
	for range 2 {
		tk, ok := d.Next(context.Background())
		if !ok {
			t.Fatal("worker 2 got no cell while instance 1 was left")
		}
		got = append(got, tk.ID)
	}
	if want := []string{"g1c0", "g1c1"}; !slices.Equal(got, want) {
		t.Fatalf("worker 2 got %v while instance 0 was prepared, want %v", got, want)
	}
	// Only instance 0 is left: worker 2 waits for it.
	second := make(chan task)
	go func() {
		tk, _ := d.Next(context.Background())
		second <- tk
	}()
	close(release)
	a, b := <-first, <-second
	if a.ID != "g0c0" || a.PrepareTime <= 0 || b.ID != "g0c1" || b.PrepareTime != 0 {
		t.Errorf("after the preparation: worker 1 %s (prepare time %v), worker 2 %s (%v); want g0c0 with its preparation's time, g0c1 with none",
			a.ID, a.PrepareTime, b.ID, b.PrepareTime)
	}
	if tk, ok := d.Next(context.Background()); !ok || tk.ID != "g0c2" {
		t.Errorf("next %s %v, want g0c2", tk.ID, ok)
	}
	if tk, ok := d.Next(context.Background()); ok {
		t.Errorf("every cell was handed out, got %s", tk.ID)
	}
}

// TestDispatcherStop: Stop wakes a worker waiting for another's
// preparation, and no cell goes out after it.
func TestDispatcherStop(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{})
	d := newDispatcher(testCells(2), func(context.Context, Cell) (model.Prepared, error) {
		close(entered)
		<-release
		return preparedGroup{}, nil
	})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		d.Next(context.Background()) // prepares, held until release
	}()
	<-entered
	waiting := make(chan bool)
	go func() {
		_, ok := d.Next(context.Background()) // only the instance being prepared is left
		waiting <- ok
	}()
	// Most often the worker waits by now; either way it must get nothing.
	time.Sleep(10 * time.Millisecond)
	d.Stop()
	if ok := <-waiting; ok {
		t.Error("a waiting worker got a cell after Stop")
	}
	close(release)
	wg.Wait()
	if _, ok := d.Next(context.Background()); ok {
		t.Error("a cell went out after Stop")
	}
}

// TestDispatcherWakesWaitersWhenNothingIsLeft: the last instance has one
// cell, which its preparing worker takes itself; a worker that waited
// meanwhile (only an instance being prepared was left) must learn that
// nothing is left and return false. It once waited forever: the
// preparer woke the waiters only when it left cells for them, which hung
// resumes whose cells to rerun were one per instance (a truncated
// flush's, TestTruncatedChildPartRerun, under load).
func TestDispatcherWakesWaitersWhenNothingIsLeft(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{})
	d := newDispatcher(testCells(1), func(context.Context, Cell) (model.Prepared, error) {
		close(entered)
		<-release
		return preparedGroup{}, nil
	})
	prepared := make(chan string)
	go func() {
		tk, _ := d.Next(context.Background()) // prepares the only instance, held until release
		prepared <- tk.ID
	}()
	<-entered
	waiter := make(chan bool)
	go func() {
		_, ok := d.Next(context.Background()) // only the instance being prepared is left: waits
		waiter <- ok
	}()
	// Let the second worker reach its wait (if it has not, it finds
	// nothing left once it looks, and the test passes either way).
	time.Sleep(10 * time.Millisecond)
	close(release)
	if id := <-prepared; id != "g0c0" {
		t.Errorf("the preparing worker took %q, want g0c0", id)
	}
	select {
	case ok := <-waiter:
		if ok {
			t.Error("the waiting worker got a cell; the only one was taken")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiting worker was never woken: it waits for an instance that has no cell left for it")
	}
}

// TestDispatcherPreparePanics: a panicking Prepare is every cell's error.
func TestDispatcherPreparePanics(t *testing.T) {
	d := newDispatcher(testCells(2), func(context.Context, Cell) (model.Prepared, error) {
		panic("generator bug")
	})
	for range 2 {
		tk, ok := d.Next(context.Background())
		if !ok || tk.inst.err == nil || !strings.Contains(tk.inst.err.Error(), "panic preparing the workload instance: generator bug") {
			t.Fatalf("cell %s: ok %v, error %v; want the preparation's panic", tk.ID, ok, tk.inst.err)
		}
	}
}
