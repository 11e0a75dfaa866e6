package moldable

import (
	"fmt"
	"math"
	"slices"
	"sort"

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
		// The same knapsack in one row, the capacities in descending
		// order so that best[c-size] still holds the previous row's
		// value: the same additions and maxima, so the same work.
		best := slices.Grow(scratch.best[:0], cols)[:cols]
		clear(best)
		scratch.best = best
		for _, it := range free {
			for c := cols - 1; c >= it.size; c-- {
				best[c] = max(best[c], best[c-it.size]+it.profit)
			}
		}
		return work - best[capacity], true, a
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
	times := make([]float64, 0, len(w.Tasks)*w.Processors)
	for _, t := range w.Tasks {
		times = append(times, t.Times...)
	}
	sortPositive(times)
	// Doubling is exact and keeps the order, so the breakpoints p and 2p
	// are two sorted runs: merge them instead of sorting twice as many.
	points := make([]float64, 0, 2*len(times))
	i, j := 0, 0
	for i < len(times) {
		if 2*times[j] < times[i] {
			points = append(points, 2*times[j])
			j++
		} else {
			points = append(points, times[i])
			i++
		}
	}
	for ; j < len(times); j++ {
		points = append(points, 2*times[j])
	}
	points = slices.Compact(points)
	m := float64(w.Processors)
	var scratch dualScratch
	first := sort.Search(len(points), func(j int) bool { return accepts(w, points[j], &scratch) })
	if first == len(points) {
		// Every task is small above the last breakpoint, so the test is
		// feasible there; the bound is the total sequential work over m.
		work, _, _ := dualTest(w, math.Inf(1), false, &scratch)
		return work / m, nil
	}
	if first == 0 {
		return points[0], nil
	}
	below := points[first-1]
	work, feasible, _ := dualTest(w, below, false, &scratch)
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

// sortPositive sorts values that are all > 0 (or +Inf) into ascending
// order: an LSD radix sort on their bits, which for such values order as
// the numbers do, so the result is the one slices.Sort gives. The
// breakpoints of LambdaStar are 2 n m values (160,000 at n = 400 on 200
// processors); the comparison sort took two thirds of BenchmarkDEMT400.
// A pass whose byte is the same in every value (the high exponent bytes,
// mostly) is skipped.
func sortPositive(values []float64) {
	keys := make([]uint64, len(values))
	for i, v := range values {
		keys[i] = math.Float64bits(v)
	}
	buf := make([]uint64, len(keys))
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range keys {
			count[byte(k>>shift)]++
		}
		if len(keys) == 0 || count[byte(keys[0]>>shift)] == len(keys) {
			continue
		}
		at := 0
		for d, c := range count {
			count[d] = at
			at += c
		}
		for _, k := range keys {
			d := byte(k >> shift)
			buf[count[d]] = k
			count[d]++
		}
		keys, buf = buf, keys
	}
	for i, k := range keys {
		values[i] = math.Float64frombits(k)
	}
}
