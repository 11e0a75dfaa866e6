package main

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/rigid"
)

// sjfEasy is shortest job first with EASY backfilling for rigid jobs:
// the waiting jobs by estimate (or estimate x processors), then submit
// time, then job index, and EASY's rule over that order. Its Python twin
// is python/examples/sjf_easy.py.
var sjfEasy = rigid.Policy{
	Name:   "sjf-easy",
	Doc:    "shortest estimate first, with EASY backfilling (examples/ownpolicy)",
	Params: []model.Param{{Name: "order", Doc: "estimate or area (estimate x processors)", Default: "estimate"}},
	New: func(params map[string]string) (backfill.Decider, error) {
		switch params["order"] {
		case "estimate":
			return sjf{}, nil
		case "area":
			return sjf{byArea: true}, nil
		}
		return nil, fmt.Errorf("params.order %q: want estimate or area", params["order"])
	},
}

type sjf struct{ byArea bool }

func (p sjf) Decide(st *backfill.State) ([]int, error) {
	key := func(j int) int64 {
		info := st.Job(j)
		if p.byArea {
			return info.EstimateSeconds * int64(info.Procs)
		}
		return info.EstimateSeconds
	}
	order := slices.Clone(st.Waiting)
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(st.Job(a).SubmitSeconds, st.Job(b).SubmitSeconds), cmp.Compare(a, b))
	})
	return st.EASY(order), nil
}

// smallFirst orders DAG tasks by their job's volume (core-ticks), smallest
// first. Its Python twin is python/examples/dag_small_first.py.
var smallFirst = grid.Order{
	Name: "small-first",
	Doc:  "the task of the job with the smallest volume first (examples/ownpolicy)",
	New: func(map[string]string, uint64) (func(v *gridengine.View, cluster int) gridengine.Order, error) {
		return gridengine.JobPriorityOrders(func(v *gridengine.View, jobs []int) []float64 {
			out := make([]float64, len(jobs))
			for i, j := range jobs {
				out[i] = float64(v.Instance().Volume(j))
			}
			return out
		}), nil
	},
}
