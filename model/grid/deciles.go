package grid

import (
	"cmp"
	"slices"
	"sync"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
)

// DecileCount is the number of volume classes of Fig. 7 of seed 004.
const DecileCount = 10

// sharedVolumeOrder is the volume order of the jobs of one compiled
// instance, sorted once for all its cells: a job's volume does not depend
// on the load, the policy or the schedule, and sorting 10,000 jobs took
// 6% of seed 004's run.
type sharedVolumeOrder struct {
	once  sync.Once
	order []int32
}

// of returns the order of jobs, sorting them at the first call; a nil
// order (an Outcome not made by a prepared instance) sorts them each time.
func (v *sharedVolumeOrder) of(jobs []gridengine.JobOutcome) []int32 {
	if v == nil {
		return volumeOrder(jobs)
	}
	v.once.Do(func() { v.order = volumeOrder(jobs) })
	return v.order
}

// A VolumeDecile summarises the SLRs of the jobs of one volume decile of
// one schedule: a row of the volume_deciles table, which the runner writes
// for every DAG cell so that Fig. 7 needs no job rows.
type VolumeDecile struct {
	Decile int   // 1 (smallest jobs) .. DecileCount
	Jobs   int64 // jobs in the decile, >= 1
	SLRSum float64
	SLRMax float64
}

// VolumeDeciles cuts a schedule's jobs into deciles of volume and
// summarises each populated one, in ascending order. Jobs are sorted by
// volume, ties by job index, and the k-th of n (from 0) falls in decile
// floor(10k/n) + 1, so the deciles hold floor or ceil of n/10 jobs each
// and, for n < 10, some stay empty (and are left out). measured[i] are
// jobs[i]'s metrics (MeasureJobs).
func VolumeDeciles(jobs []gridengine.JobOutcome, measured []JobMetrics) []VolumeDecile {
	return volumeDeciles(volumeOrder(jobs), measured)
}

// volumeOrder returns the job indices sorted by volume, ties by index.
func volumeOrder(jobs []gridengine.JobOutcome) []int32 {
	order := make([]int32, len(jobs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(jobs[a].VolumeCoreTicks, jobs[b].VolumeCoreTicks), cmp.Compare(a, b))
	})
	return order
}

// volumeDeciles is VolumeDeciles for jobs in volumeOrder's order: the SLRs
// are summed in that order.
func volumeDeciles(order []int32, measured []JobMetrics) []VolumeDecile {
	var deciles [DecileCount]VolumeDecile
	n := len(order)
	for k, i := range order {
		d := &deciles[DecileCount*k/n]
		slr := measured[i].SLR
		if d.Jobs == 0 || slr > d.SLRMax {
			d.SLRMax = slr
		}
		d.Jobs++
		d.SLRSum += slr
	}
	var out []VolumeDecile
	for i, d := range deciles {
		if d.Jobs > 0 {
			d.Decile = i + 1
			out = append(out, d)
		}
	}
	return out
}
