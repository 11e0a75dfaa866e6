package moldable

import (
	"cmp"
	"fmt"
	"slices"

	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// An Instance is a validated workload with the quantities every algorithm
// shares: lambda*, p_min = min_i p_i(m), and the MRT allotment at lambda*.
type Instance struct {
	Workload   *workload.Workload
	LambdaStar float64
	PMin       float64
	MRT        Allotment
}

// NewInstance validates the workload and computes lambda* and the MRT
// allotment.
func NewInstance(w *workload.Workload) (*Instance, error) {
	lambda, err := LambdaStar(w)
	if err != nil {
		return nil, err
	}
	mrt, err := MRTAllotment(w, lambda)
	if err != nil {
		return nil, fmt.Errorf("lambda* = %v: %w", lambda, err)
	}
	pMin := w.Tasks[0].Time(w.Processors)
	for _, t := range w.Tasks[1:] {
		pMin = min(pMin, t.Time(w.Processors))
	}
	return &Instance{Workload: w, LambdaStar: lambda, PMin: pMin, MRT: mrt}, nil
}

// byKey returns the task indices sorted by key ascending, ties by index.
func byKey(n int, key func(i int) float64) []int {
	keys := make([]float64, n)
	list := make([]int, n)
	for i := range list {
		keys[i], list[i] = key(i), i
	}
	slices.SortFunc(list, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return list
}

// Gang runs every task on all m processors, by w_i / p_i(m) descending.
func (in *Instance) Gang(mode ListMode) Schedule {
	w := in.Workload
	m := w.Processors
	allot := make([]int, len(w.Tasks))
	for i := range allot {
		allot[i] = m
	}
	list := byKey(len(w.Tasks), func(i int) float64 { return -w.Tasks[i].Weight / w.Tasks[i].Time(m) })
	return ListSchedule(w, allot, list, mode)
}

// Sequential runs every task on one processor, longest p_i(1) first.
func (in *Instance) Sequential(mode ListMode) Schedule {
	w := in.Workload
	allot := make([]int, len(w.Tasks))
	for i := range allot {
		allot[i] = 1
	}
	list := byKey(len(w.Tasks), func(i int) float64 { return -w.Tasks[i].Time(1) })
	return ListSchedule(w, allot, list, mode)
}

// ListMRT lists the MRT allotment shelf 1, then shelf 2, then the small
// tasks, by index inside each.
func (in *Instance) ListMRT(mode ListMode) Schedule {
	rank := [...]float64{Shelf1: 0, Shelf2: 1, ShelfSmall: 2}
	list := byKey(len(in.Workload.Tasks), func(i int) float64 { return rank[in.MRT.Shelf[i]] })
	return ListSchedule(in.Workload, in.MRT.Processors, list, mode)
}

// ListWLPTF lists the MRT allotment by p_i(q_i) / w_i descending.
func (in *Instance) ListWLPTF(mode ListMode) Schedule {
	w, q := in.Workload, in.MRT.Processors
	list := byKey(len(w.Tasks), func(i int) float64 { return -w.Tasks[i].Time(q[i]) / w.Tasks[i].Weight })
	return ListSchedule(w, q, list, mode)
}

// ListSAF lists the MRT allotment by area q_i p_i(q_i) ascending.
func (in *Instance) ListSAF(mode ListMode) Schedule {
	w, q := in.Workload, in.MRT.Processors
	list := byKey(len(w.Tasks), func(i int) float64 { return w.Tasks[i].Work(q[i]) })
	return ListSchedule(w, q, list, mode)
}

// Algorithm names, as in the paper's figures.
const (
	AlgDEMT       = "DEMT"
	AlgGang       = "Gang"
	AlgSequential = "Sequential"
	AlgListMRT    = "List-MRT"
	AlgListWLPTF  = "List-wLPTF"
	AlgListSAF    = "List-SAF"
)

// Algorithms returns the six algorithm names in the paper's order.
func Algorithms() []string {
	return []string{AlgDEMT, AlgGang, AlgSequential, AlgListMRT, AlgListWLPTF, AlgListSAF}
}

// Run schedules the instance with the named algorithm; the baselines use
// the list semantics of opts.List.
func (in *Instance) Run(name string, opts DEMTOptions) (Schedule, error) {
	switch name {
	case AlgDEMT:
		r, err := in.DEMT(opts)
		return r.Schedule, err
	case AlgGang:
		return in.Gang(opts.List), nil
	case AlgSequential:
		return in.Sequential(opts.List), nil
	case AlgListMRT:
		return in.ListMRT(opts.List), nil
	case AlgListWLPTF:
		return in.ListWLPTF(opts.List), nil
	case AlgListSAF:
		return in.ListSAF(opts.List), nil
	}
	return Schedule{}, fmt.Errorf("unknown moldable algorithm %q; valid: %v", name, Algorithms())
}
