package sweep

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/sweep-sched/sweep/model"
)

// A dispatcher hands a run's cells to its workers and prepares each
// workload instance once (its model's Prepare: generated, compiled per
// platform, bounds computed), for the cells that share it.
//
// A worker takes the next cell of an instance already prepared; when none
// is left it prepares the next instance itself, and it waits only when
// every cell left belongs to an instance that another worker is still
// preparing. Handing out cells in plan order instead made two workers meet
// at one instance, one waiting out the other's Prepare: on seed 002's
// study, where preparing (lambda*, the interval LP) is most of an
// instance's work, two workers kept 1.14 cores busy.
//
// The order is deterministic for one worker (the plan's), and a cell's
// numbers never depend on it. Memory holds the instances in flight: at
// most one being prepared per worker, and those whose cells still run.
type dispatcher struct {
	prepare func(context.Context, Cell) (model.Prepared, error)

	mu        sync.Mutex
	wake      *sync.Cond
	groups    []*instance // in plan order
	next      int         // the first group nobody has begun to prepare
	ready     []*instance // prepared, with cells not yet handed out, oldest first
	preparing int         // groups being prepared now
	stopped   bool
}

// An instance is one workload instance of the run and its cells.
type instance struct {
	cells    []Cell
	taken    int // cells handed out
	prepared model.Prepared
	err      error // Prepare's, every cell's
}

// A task is one cell to compute, on its prepared instance. PrepareTime is
// the time its worker spent preparing the instance just before, counted
// in the cell's wall time as when the first cell of an instance prepared
// it.
type task struct {
	Cell
	inst        *instance
	PrepareTime time.Duration
}

// newDispatcher groups cells by workload instance; prepare makes an
// instance's shared state from its first cell. The cells of an instance
// are contiguous in a plan (Manifest.Cells), so each group is a part of
// cells, not a copy: a copy of seed 004's 5,250 cells held 1.3 MB more
// for the whole run.
func newDispatcher(cells []Cell, prepare func(context.Context, Cell) (model.Prepared, error)) *dispatcher {
	d := &dispatcher{prepare: prepare}
	d.wake = sync.NewCond(&d.mu)
	seen := map[int]bool{}
	for first := 0; first < len(cells); {
		g := cells[first].group
		end := first + 1
		for end < len(cells) && cells[end].group == g {
			end++
		}
		if seen[g] {
			panic(fmt.Sprintf("sweep: the cells of workload instance %d are not contiguous in the plan", g))
		}
		seen[g] = true
		d.groups = append(d.groups, &instance{cells: cells[first:end:end]})
		first = end
	}
	return d
}

// Stop makes Next hand out no more cells and wakes the workers waiting in
// it; a run calls it when its context is done.
func (d *dispatcher) Stop() {
	d.mu.Lock()
	d.stopped = true
	d.mu.Unlock()
	d.wake.Broadcast()
}

// Next returns the next cell to compute, preparing its instance first if
// need be (with ctx); false once every cell is handed out or after Stop.
func (d *dispatcher) Next(ctx context.Context) (task, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for !d.stopped {
		if len(d.ready) > 0 {
			in := d.ready[0]
			return task{Cell: d.take(in), inst: in}, true
		}
		if d.next < len(d.groups) {
			// Only the tasks and the ready list hold an instance, so it
			// is freed when its last cell is done.
			in := d.groups[d.next]
			d.groups[d.next] = nil
			d.next++
			d.preparing++
			d.mu.Unlock()
			began := time.Now()
			in.prepared, in.err = d.prepareSafely(ctx, in.cells[0])
			took := time.Since(began)
			d.mu.Lock()
			d.preparing--
			c := d.take(in)
			if in.taken < len(in.cells) {
				d.ready = append(d.ready, in)
			}
			// Waiting workers wake for the new cells, or, when this was
			// the last instance being prepared and it had no cell for
			// them, to learn that nothing is left.
			d.wake.Broadcast()
			return task{Cell: c, inst: in, PrepareTime: took}, true
		}
		if d.preparing == 0 {
			return task{}, false
		}
		d.wake.Wait()
	}
	return task{}, false
}

// take hands out in's next cell; in leaves the ready list with its last.
// d.mu is held.
func (d *dispatcher) take(in *instance) Cell {
	c := in.cells[in.taken]
	in.taken++
	if in.taken == len(in.cells) && len(d.ready) > 0 && d.ready[0] == in {
		// Delete clears the slot left behind, which would otherwise
		// hold the instance, and its memory, until the next append.
		d.ready = slices.Delete(d.ready, 0, 1)
	}
	return c
}

// prepareSafely runs Prepare, turning a panic into the instance's error:
// each of its cells is then recorded failed with it, as a panicking
// simulation is.
func (d *dispatcher) prepareSafely(ctx context.Context, c Cell) (p model.Prepared, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic preparing the workload instance: %v\n%s", r, debug.Stack())
		}
	}()
	return d.prepare(ctx, c)
}
