// Package deciles cuts a schedule's jobs into deciles of volume and
// summarises their SLRs (seed 004's Fig. 7): the one rule that the grid
// model's volume_deciles rows and the analysis's recomputation from job
// rows (runs written before that table) share.
package deciles

import (
	"cmp"
	"slices"

	"github.com/sweep-sched/sweep/store/table"
)

// A Decile summarises the SLRs of the jobs of one volume decile of one
// schedule: a row of the volume_deciles table.
type Decile struct {
	Decile int   // 1 (smallest jobs) .. table.DecileCount
	Jobs   int64 // jobs in the decile, >= 1
	SLRSum float64
	SLRMax float64
}

// Order returns the indices of jobs sorted by volume, ties by index.
func Order[J any](jobs []J, volume func(*J) int64) []int32 {
	order := make([]int32, len(jobs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(volume(&jobs[a]), volume(&jobs[b])), cmp.Compare(a, b))
	})
	return order
}

// Summarize cuts the jobs, in Order's order, into deciles and summarises
// each populated one, in ascending order: the k-th of n (from 0) falls in
// decile floor(10k/n) + 1, so the deciles hold floor or ceil of n/10 jobs
// each and, for n < 10, some stay empty (and are left out). The SLRs are
// summed in order.
func Summarize[M any](order []int32, measured []M, slr func(*M) float64) []Decile {
	var deciles [table.DecileCount]Decile
	n := len(order)
	for k, i := range order {
		d := &deciles[table.DecileCount*k/n]
		s := slr(&measured[i])
		if d.Jobs == 0 || s > d.SLRMax {
			d.SLRMax = s
		}
		d.Jobs++
		d.SLRSum += s
	}
	var out []Decile
	for i, d := range deciles {
		if d.Jobs > 0 {
			d.Decile = i + 1
			out = append(out, d)
		}
	}
	return out
}
