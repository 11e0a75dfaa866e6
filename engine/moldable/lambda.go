package moldable

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/sweep-sched/sweep/internal/radix"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// Gamma returns the smallest processor count on which task t runs within
// length seconds, or 0 when even all processors are too slow.
func Gamma(t workload.Task, length float64) int {
	m := len(t.Times)
	k := sort.Search(m, func(j int) bool { return t.Times[j] <= length })
	if k == m {
		return 0
	}
	return k + 1
}

// Shelf is where the MRT dual test puts a task.
type Shelf int

const (
	ShelfSmall Shelf = iota // p(1) <= L/2: one processor, stacked
	Shelf1                  // gamma(L) processors, a shelf of length L
	Shelf2                  // gamma(L/2) processors, a shelf of length L/2
)

// An Allotment is the outcome of the MRT dual test at a guess: each task's
// shelf and processor count.
type Allotment struct {
	Shelf      []Shelf
	Processors []int
}

// dualTest is the Mounié-Rapine-Trystram two-shelf test at guess L
// (moldable.md section 2). It returns the minimal total work of the
// two-shelf allotment and whether the allotment exists at all (every
// p(m) <= L and the forced shelf-1 tasks fit in m processors); the guess
// is accepted iff feasible and work <= m L. With allot it also returns
// the allotment.
//
// scratch, when not nil, lends its buffers, so that the many tests of a
// search allocate nothing.
func dualTest(w *workload.Workload, L float64, allot bool, scratch *dualScratch) (work float64, feasible bool, a Allotment) {
	m := w.Processors
	n := len(w.Tasks)
	if allot {
		a = Allotment{Shelf: make([]Shelf, n), Processors: make([]int, n)}
	}
	if scratch == nil {
		scratch = &dualScratch{}
	}
	free := scratch.free[:0]
	defer func() { scratch.free = free }()
	capacity := m
	for i, t := range w.Tasks {
		if t.Time(m) > L {
			return 0, false, a
		}
		if t.Time(1) <= L/2 {
			work += t.Time(1)
			if allot {
				a.Shelf[i], a.Processors[i] = ShelfSmall, 1
			}
			continue
		}
		ka := Gamma(t, L)
		kb := Gamma(t, L/2)
		if kb == 0 {
			capacity -= ka
			work += t.Work(ka)
			if allot {
				a.Shelf[i], a.Processors[i] = Shelf1, ka
			}
			continue
		}
		free = append(free, knapsackItem{task: i, size: ka, profit: t.Work(kb) - t.Work(ka),
			shelf1Work: t.Work(ka), shelf1Procs: ka, shelf2Procs: kb})
		work += t.Work(kb)
	}
	if capacity < 0 {
		return 0, false, a
	}
	cols := capacity + 1
	if !allot {
		return work - knapsackBest(free, capacity, scratch), true, a
	}
	// 0/1 knapsack "at most capacity": best[a][c] is the largest work
	// saving with the first a free tasks in shelf 1 using <= c processors.
	best := make([]float64, (len(free)+1)*cols)
	for j, it := range free {
		prev, cur := best[j*cols:(j+1)*cols], best[(j+1)*cols:(j+2)*cols]
		for c := range cols {
			cur[c] = prev[c]
			if c >= it.size {
				cur[c] = max(cur[c], prev[c-it.size]+it.profit)
			}
		}
	}
	work -= best[len(free)*cols+capacity]
	if allot {
		c := capacity
		for j := len(free) - 1; j >= 0; j-- {
			it := free[j]
			if best[(j+1)*cols+c] == best[j*cols+c] {
				a.Shelf[it.task], a.Processors[it.task] = Shelf2, it.shelf2Procs
				continue
			}
			a.Shelf[it.task], a.Processors[it.task] = Shelf1, it.shelf1Procs
			c -= it.size
		}
	}
	return work, true, a
}

// dualScratch holds dualTest's buffers between calls.
type dualScratch struct {
	free []knapsackItem
	best []float64
}

// knapsackBest returns the largest profit of the items on at most
// capacity processors: the last entry of the "at most capacity" table of
// dualTest's allotment, bit for bit, from only the entries it depends on.
//
// That table's entry (a, c) is the largest profit sum, each summed in item
// order, of the first a items on at most c processors (rounding is
// monotone, so the maximum of sums plus a profit is the sum of the maximum
// plus it). Profits are >= 0, so adding an item never lowers a sum: from
// c = the size of the first a items on, the entry is the sum of them all,
// and the row is kept only up to top = min(capacity, that size), the
// entries above it equal to its last (filled in as the items come). Entry
// (a, c) reads row a-1 at c and c - size only, so the last entry needs row
// a only from min(top, capacity minus the sizes of the items after a) up.
// One row, updated from the largest c down, holds row a-1 where row a
// still reads it.
func knapsackBest(items []knapsackItem, capacity int, scratch *dualScratch) float64 {
	after := 0 // the sizes of the items after the current one
	for _, it := range items {
		after += it.size
	}
	best := slices.Grow(scratch.best[:0], capacity+1)[:capacity+1]
	scratch.best = best
	best[0] = 0
	top := 0 // best[:top+1] holds the row
	for _, it := range items {
		after -= it.size
		reach := min(capacity, top+it.size)
		for c := top + 1; c <= reach; c++ {
			best[c] = best[top]
		}
		top = reach
		for c := top; c >= max(it.size, min(top, capacity-after)); c-- {
			if v := best[c-it.size] + it.profit; v > best[c] {
				best[c] = v
			}
		}
	}
	return best[top]
}

// knapsackItem is a task the dual test may put in shelf 1 or shelf 2.
type knapsackItem struct {
	task        int
	size        int
	profit      float64
	shelf1Work  float64
	shelf2Procs int
	shelf1Procs int
}

// accepts reports whether the dual test accepts guess L.
func accepts(w *workload.Workload, L float64, scratch *dualScratch) bool {
	work, feasible, _ := dualTest(w, L, false, scratch)
	return feasible && work <= float64(w.Processors)*L
}

// LambdaStar returns lambda*, the smallest guess the MRT dual test
// accepts: a lower bound on the optimal makespan. The test's minimal work
// F(L) is a step function with jumps only at the breakpoints p_i(k) and
// 2 p_i(k), and acceptance (F(L) <= m L with a feasible allotment) is
// monotone in L, so a binary search finds the first accepted breakpoint
// b; lambda* is F/m of the step just below b when that lies inside it,
// else b.
func LambdaStar(w *workload.Workload) (float64, error) {
	if err := w.Validate(); err != nil {
		return 0, fmt.Errorf("lambda*: %w", err)
	}
	scratch := lambdaScratches.Get().(*lambdaScratch)
	defer lambdaScratches.Put(scratch)
	points := scratch.breakpoints(w)
	m := float64(w.Processors)
	first := sort.Search(len(points), func(j int) bool { return accepts(w, points[j], &scratch.dual) })
	if first == len(points) {
		// Every task is small above the last breakpoint, so the test is
		// feasible there; the bound is the total sequential work over m.
		work, _, _ := dualTest(w, math.Inf(1), false, &scratch.dual)
		return work / m, nil
	}
	if first == 0 {
		return points[0], nil
	}
	below := points[first-1]
	work, feasible, _ := dualTest(w, below, false, &scratch.dual)
	if feasible && work/m < points[first] {
		return max(below, work/m), nil
	}
	return points[first], nil
}

// MRTAllotment returns the allotment of the dual test at guess L (the
// baselines use it at lambda*): shelf-1 tasks on gamma(L) processors,
// shelf-2 tasks on gamma(L/2), small tasks on one. The knapsack that
// chooses shelf 1 keeps an item out on ties. It fails when no two-shelf
// allotment exists at L.
func MRTAllotment(w *workload.Workload, L float64) (Allotment, error) {
	_, feasible, a := dualTest(w, L, true, nil)
	if !feasible {
		return Allotment{}, fmt.Errorf("MRT allotment at %v: some task needs more than %v seconds on all processors, or shelf 1 needs more than %d processors", L, L, w.Processors)
	}
	return a, nil
}

// lambdaScratch holds the buffers of LambdaStar, reused through
// lambdaScratches: the breakpoints of an instance of the study (n = 400,
// m = 200) take 3 MB, which allocating afresh zeroes and collects.
type lambdaScratch struct {
	keys, swap []uint64
	points     []float64
	dual       dualScratch
}

var lambdaScratches = sync.Pool{New: func() any { return new(lambdaScratch) }}

// breakpoints returns the distinct values p_i(k) and 2 p_i(k) in
// ascending order, in the scratch's buffer.
func (s *lambdaScratch) breakpoints(w *workload.Workload) []float64 {
	// The times of a task repeat only one after another (they are
	// non-increasing): keep the first of each run.
	keys := slices.Grow(s.keys[:0], len(w.Tasks)*w.Processors)
	for _, t := range w.Tasks {
		last := 0.0 // no time
		for _, p := range t.Times {
			if p != last {
				keys = append(keys, math.Float64bits(p))
				last = p
			}
		}
	}
	s.keys = keys
	s.swap = slices.Grow(s.swap[:0], len(keys))[:len(keys)]
	// The bits of values > 0 order as the values do: radix-sorted, they
	// are the order slices.Sort gives the values (a comparison sort took
	// two thirds of BenchmarkDEMT400).
	times := radix.Sort(keys, s.swap)
	// Doubling is exact and keeps the order, so the breakpoints p and 2p
	// are two sorted runs of n each. They interleave at random, which
	// makes a merge's branches mispredict and its loads wait on each
	// other: merge them from both ends at once (two independent chains),
	// comparing and selecting bits, which order as the values do (all
	// are > 0) and compile to conditional moves. The front takes the
	// smallest, p first on ties, the back the largest, 2p first on ties:
	// together each element once. Then drop the repeats.
	n := len(times)
	points := slices.Grow(s.points[:0], 2*n)[:2*n]
	double := func(k uint64) uint64 { return math.Float64bits(2 * math.Float64frombits(k)) }
	for f, i, j, back, bi, bj := 0, 0, 0, 2*n-1, n-1, n-1; f < n; f, back = f+1, back-1 {
		p, q := times[i], double(times[j])
		v, fromQ := p, 0
		if q < p {
			v, fromQ = q, 1
		}
		i, j = i+1-fromQ, j+fromQ
		points[f] = math.Float64frombits(v)
		p, q = times[bi], double(times[bj])
		v, fromP := q, 0
		if p > q {
			v, fromP = p, 1
		}
		bi, bj = bi-fromP, bj-1+fromP
		points[back] = math.Float64frombits(v)
	}
	unique, last := 0, 0.0 // no breakpoint
	for _, v := range points {
		points[unique] = v
		if v != last {
			unique++
		}
		last = v
	}
	s.points = points
	return points[:unique]
}
