package moldable

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// Anchor fixes DEMT's batch lengths.
type Anchor string

const (
	// AnchorCmax ends the doubling at lambda*: tau_j = lambda* / 2^(K-j)
	// with K = floor(log2(lambda*/p_min)).
	AnchorCmax Anchor = "cmax"
	// AnchorPmin starts the doubling at p_min: tau_j = 2^j p_min with
	// K = ceil(log2(lambda*/p_min)).
	AnchorPmin Anchor = "pmin"
)

// Tail fixes the lengths of the batches after batch K.
type Tail string

const (
	TailRepeat Tail = "repeat" // every later batch has length tau_K
	TailDouble Tail = "double" // the lengths keep doubling
)

// Variant is how DEMT turns its batches into a schedule.
type Variant string

const (
	// VariantList runs the list algorithm on the batch-ordered list (the
	// paper's final schedule).
	VariantList Variant = "list"
	// VariantShelf starts every batch when the previous batch's tallest
	// item ends, all items of a batch together.
	VariantShelf Variant = "shelf"
	// VariantCompact keeps the shelf schedule's processors and starts
	// each task as soon as all of its processors are idle.
	VariantCompact Variant = "compact"
)

// DEMTOptions are DEMT's choices (moldable.md section 3). The zero value
// is not valid; start from DefaultDEMTOptions.
type DEMTOptions struct {
	Anchor  Anchor
	Tail    Tail
	Variant Variant
	List    ListMode // list semantics of VariantList
	// Shuffles is R, the number of seeded random batch orders tried after
	// the natural one.
	Shuffles int
	Seed     uint64 // seed of the shuffles
}

// DefaultDEMTOptions returns the design note's defaults: anchor cmax, tail
// repeat, list schedule with overtaking, 10 shuffles, seed 0.
func DefaultDEMTOptions() DEMTOptions {
	return DEMTOptions{Anchor: AnchorCmax, Tail: TailRepeat, Variant: VariantList, List: ListOvertake, Shuffles: 10}
}

// Validate checks every option against its valid values.
func (o DEMTOptions) Validate() error {
	if o.Anchor != AnchorCmax && o.Anchor != AnchorPmin {
		return fmt.Errorf("DEMT anchor %q: want %s or %s", o.Anchor, AnchorCmax, AnchorPmin)
	}
	if o.Tail != TailRepeat && o.Tail != TailDouble {
		return fmt.Errorf("DEMT tail %q: want %s or %s", o.Tail, TailRepeat, TailDouble)
	}
	if o.Variant != VariantList && o.Variant != VariantShelf && o.Variant != VariantCompact {
		return fmt.Errorf("DEMT variant %q: want %s, %s or %s", o.Variant, VariantList, VariantShelf, VariantCompact)
	}
	if _, err := ParseListMode(string(o.List)); err != nil {
		return fmt.Errorf("DEMT: %w", err)
	}
	if o.Shuffles < 0 {
		return fmt.Errorf("DEMT shuffles %d: want >= 0", o.Shuffles)
	}
	return nil
}

// BatchLengths returns K and the lengths tau_0..tau_K of DEMT's first
// batches for the anchor, from lambda* and p_min = min_i p_i(m).
func BatchLengths(lambdaStar, pMin float64, anchor Anchor) (int, []float64) {
	// K by exact doubling, not log2, so that powers of two land exactly.
	k := 0
	switch anchor {
	case AnchorPmin:
		for math.Ldexp(pMin, k) < lambdaStar {
			k++
		}
	default:
		for math.Ldexp(pMin, k+1) <= lambdaStar {
			k++
		}
	}
	taus := make([]float64, k+1)
	for j := range taus {
		taus[j] = batchLength(lambdaStar, pMin, anchor, TailDouble, k, j)
	}
	return k, taus
}

// batchLength returns tau_j.
func batchLength(lambdaStar, pMin float64, anchor Anchor, tail Tail, k, j int) float64 {
	if j > k && tail == TailRepeat {
		j = k
	}
	if anchor == AnchorPmin {
		return math.Ldexp(pMin, j)
	}
	return math.Ldexp(lambdaStar, j-k)
}

// An Item is one knapsack item of a batch: a task on Processors
// processors, or a stack of small tasks run one after another on one
// processor (Tasks in stack order). Value is the summed weight and Length
// the running time in seconds.
type Item struct {
	Tasks      []int
	Processors int
	Value      float64
	Length     float64
}

// A Batch is one step of DEMT's selection loop.
type Batch struct {
	Length     float64 // tau
	Candidates []int   // unscheduled tasks with p(m) <= tau, by index
	Items      []Item  // big candidates by index, then the stacks
	Selected   []int   // indices into Items, increasing
}

// Selection is DEMT's batches before scheduling: only batches that
// selected something are kept (an empty batch takes no time).
type Selection struct {
	LambdaStar, PMin float64
	K                int
	Batches          []Batch
}

// Select runs DEMT's batch loop (moldable.md section 3, steps 1-2).
func (in *Instance) Select(anchor Anchor, tail Tail) Selection {
	w := in.Workload
	k, _ := BatchLengths(in.LambdaStar, in.PMin, anchor)
	sel := Selection{LambdaStar: in.LambdaStar, PMin: in.PMin, K: k}
	done := make([]bool, len(w.Tasks))
	left := len(w.Tasks)
	// knapsackExact's table, lent to all the batches (up to 600 KB at
	// n = 400, m = 200) and kept for the next selection.
	table := knapsackTables.Get().(*[]float64)
	defer knapsackTables.Put(table)
	for j := 0; left > 0; j++ {
		tau := batchLength(in.LambdaStar, in.PMin, anchor, tail, k, j)
		var b Batch
		b.Length = tau
		var small []int
		for i, t := range w.Tasks {
			if done[i] || t.Time(w.Processors) > tau {
				continue
			}
			b.Candidates = append(b.Candidates, i)
			if t.Time(1) <= tau/2 {
				small = append(small, i)
				continue
			}
			q := Gamma(t, tau)
			b.Items = append(b.Items, Item{Tasks: []int{i}, Processors: q, Value: t.Weight, Length: t.Time(q)})
		}
		if len(b.Candidates) == 0 {
			continue
		}
		b.Items = append(b.Items, stacks(w, small, tau)...)
		b.Selected, *table = knapsackExact(b.Items, w.Processors, *table)
		for _, s := range b.Selected {
			for _, i := range b.Items[s].Tasks {
				done[i] = true
				left--
			}
		}
		sel.Batches = append(sel.Batches, b)
	}
	return sel
}

var knapsackTables = sync.Pool{New: func() any { return new([]float64) }}

// stacks merges small tasks by decreasing weight (ties by index) into
// Next-Fit stacks of total sequential time <= tau.
func stacks(w *workload.Workload, small []int, tau float64) []Item {
	order := slices.Clone(small)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(w.Tasks[b].Weight, w.Tasks[a].Weight) })
	var items []Item
	for _, i := range order {
		p := w.Tasks[i].Time(1)
		if n := len(items); n > 0 && items[n-1].Length+p <= tau {
			items[n-1].Tasks = append(items[n-1].Tasks, i)
			items[n-1].Value += w.Tasks[i].Weight
			items[n-1].Length += p
			continue
		}
		items = append(items, Item{Tasks: []int{i}, Processors: 1, Value: w.Tasks[i].Weight, Length: p})
	}
	return items
}

// knapsackExact selects items of maximal total value on at most m
// processors: the exact-capacity table W(a, c), the smallest c reaching
// the maximum, and a backtrack that skips item a when W(a, c) = W(a-1, c).
// It writes every entry of the table in table, grown as needed and
// returned for the next call.
func knapsackExact(items []Item, m int, table []float64) ([]int, []float64) {
	cols := m + 1
	table = slices.Grow(table[:0], (len(items)+1)*cols)[:(len(items)+1)*cols]
	table[0] = 0
	for c := 1; c < cols; c++ {
		table[c] = math.Inf(-1)
	}
	// Row a is -Inf beyond top, the processors of the first a items (at
	// most m): computing it only up to there gives the same table.
	top := 0
	for a, it := range items {
		prev, cur := table[a*cols:(a+1)*cols], table[(a+1)*cols:(a+2)*cols]
		q := it.Processors
		reach := min(m, top+q)
		copy(cur[:min(q, reach+1)], prev)
		for c := q; c <= reach; c++ {
			v := prev[c-q] + it.Value
			if prev[c] >= v {
				v = prev[c]
			}
			cur[c] = v
		}
		for c := reach + 1; c < cols; c++ {
			cur[c] = math.Inf(-1)
		}
		top = reach
	}
	last := table[len(items)*cols:]
	c := 0
	for cc := range cols {
		if last[cc] > last[c] {
			c = cc
		}
	}
	var selected []int
	for a := len(items) - 1; a >= 0; a-- {
		if table[(a+1)*cols+c] == table[a*cols+c] {
			continue
		}
		selected = append(selected, a)
		c -= items[a].Processors
	}
	slices.Reverse(selected)
	return selected, table
}

// Allotment returns the processor count DEMT gives every task.
func (s Selection) Allotment(n int) []int {
	allot := make([]int, n)
	for _, b := range s.Batches {
		for _, it := range b.Selected {
			for _, i := range b.Items[it].Tasks {
				allot[i] = b.Items[it].Processors
			}
		}
	}
	return allot
}

// Schedule turns the selection into a schedule with the batches in the
// given order (a permutation of batch indices).
func (s Selection) Schedule(w *workload.Workload, order []int, variant Variant, mode ListMode) Schedule {
	switch variant {
	case VariantShelf, VariantCompact:
		return s.shelves(w, order, variant == VariantCompact)
	}
	return s.lists(w).schedule(w, order, mode)
}

// batchLists is what the list variant takes of a selection whatever the
// batch order: the allotment and each batch's tasks in list order.
type batchLists struct {
	allot []int
	tasks [][]int
}

// lists returns the allotment and the batches' task lists.
func (s Selection) lists(w *workload.Workload) batchLists {
	allot := s.Allotment(len(w.Tasks))
	lists := batchLists{allot: allot, tasks: make([][]int, len(s.Batches))}
	for j, b := range s.Batches {
		var tasks []int
		for _, it := range b.Selected {
			tasks = append(tasks, b.Items[it].Tasks...)
		}
		// Inside a batch: longest first, then widest, then by index.
		slices.SortFunc(tasks, func(a, b int) int {
			pa, pb := w.Tasks[a].Time(allot[a]), w.Tasks[b].Time(allot[b])
			if c := cmp.Compare(pb, pa); c != 0 {
				return c
			}
			if c := cmp.Compare(allot[b], allot[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		lists.tasks[j] = tasks
	}
	return lists
}

// schedule list-schedules the batches in the given order.
func (b batchLists) schedule(w *workload.Workload, order []int, mode ListMode) Schedule {
	list := make([]int, 0, len(w.Tasks))
	for _, j := range order {
		list = append(list, b.tasks[j]...)
	}
	return ListSchedule(w, b.allot, list, mode)
}

// shelves builds the shelf schedule: batch after batch, the selected items
// of a batch on consecutive processors from processor 0 in item order, a
// stack's tasks one after another. With compact, each task starts instead
// as soon as all its processors are idle, on the same processors.
func (s Selection) shelves(w *workload.Workload, order []int, compact bool) Schedule {
	sched := Schedule{Tasks: make([]Placement, len(w.Tasks))}
	idle := make([]float64, w.Processors) // compact: when each processor is next free
	shelfStart := 0.0
	for _, j := range order {
		b := s.Batches[j]
		shelfEnd := shelfStart
		first := 0
		for _, it := range b.Selected {
			item := b.Items[it]
			procs := idle[first : first+item.Processors]
			first += item.Processors
			start := shelfStart
			if compact {
				start = slices.Max(procs)
			}
			for _, i := range item.Tasks {
				end := start + w.Tasks[i].Time(item.Processors)
				sched.Tasks[i] = Placement{Processors: item.Processors, Start: start, End: end}
				start = end
			}
			for p := range procs {
				procs[p] = start
			}
			shelfEnd = max(shelfEnd, start)
		}
		// The end of the tallest item as computed, not shelfStart plus
		// its length: the sum may round differently.
		shelfStart = shelfEnd
	}
	return sched
}

// DEMTResult is DEMT's outcome: its batches, the batch order kept after
// the shuffles and the schedule in that order.
type DEMTResult struct {
	Selection Selection
	Order     []int
	Schedule  Schedule
}

// DEMT runs the bi-criteria batch algorithm: select the batches, schedule
// them in the natural order, then in Shuffles seeded random batch orders,
// and keep the best schedule by (sum w_i C_i, then C_max), replacing it
// only when strictly better.
func (in *Instance) DEMT(opts DEMTOptions) (DEMTResult, error) {
	if err := opts.Validate(); err != nil {
		return DEMTResult{}, err
	}
	w := in.Workload
	sel := in.Select(opts.Anchor, opts.Tail)
	order := make([]int, len(sel.Batches))
	for j := range order {
		order[j] = j
	}
	// The list variant sorts each batch once for all the orders.
	var lists batchLists
	if opts.Variant == VariantList {
		lists = sel.lists(w)
	}
	schedule := func(order []int) Schedule {
		if opts.Variant == VariantList {
			return lists.schedule(w, order, opts.List)
		}
		return sel.Schedule(w, order, opts.Variant, opts.List)
	}
	best := DEMTResult{Selection: sel, Order: order, Schedule: schedule(order)}
	bestSum, bestMax := best.Schedule.WeightedCompletion(w), best.Schedule.Makespan()
	rng := rand.New(rand.NewPCG(opts.Seed, 0x646d6574)) // "demt"
	for range opts.Shuffles {
		perm := rng.Perm(len(order))
		s := schedule(perm)
		sum, cmax := s.WeightedCompletion(w), s.Makespan()
		if sum < bestSum || (sum == bestSum && cmax < bestMax) {
			best.Order, best.Schedule, bestSum, bestMax = perm, s, sum, cmax
		}
	}
	return best, nil
}

// LPBoundaries returns the time boundaries of the interval LP bound
// (moldable.md section 2): p_min, the batch lengths tau_0..tau_K of the
// anchor and 2 tau_K, sorted, without duplicates.
func LPBoundaries(lambdaStar, pMin float64, anchor Anchor) []float64 {
	_, taus := BatchLengths(lambdaStar, pMin, anchor)
	b := append([]float64{pMin}, taus...)
	b = append(b, 2*taus[len(taus)-1])
	slices.Sort(b)
	return slices.Compact(b)
}
