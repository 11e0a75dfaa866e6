package grid

import (
	"sync"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/internal/deciles"
	"github.com/sweep-sched/sweep/store/table"
)

// DecileCount is the number of volume classes of Fig. 7 of seed 004
// (table.DecileCount).
const DecileCount = table.DecileCount

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
type VolumeDecile = deciles.Decile

// VolumeDeciles cuts a schedule's jobs into deciles of volume and
// summarises each populated one, in ascending order (deciles.Summarize;
// jobs sorted by volume, ties by job index). measured[i] are jobs[i]'s
// metrics (MeasureJobs).
func VolumeDeciles(jobs []gridengine.JobOutcome, measured []JobMetrics) []VolumeDecile {
	return volumeDeciles(volumeOrder(jobs), measured)
}

// volumeOrder returns the job indices sorted by volume, ties by index.
func volumeOrder(jobs []gridengine.JobOutcome) []int32 {
	return deciles.Order(jobs, func(j *gridengine.JobOutcome) int64 { return j.VolumeCoreTicks })
}

// volumeDeciles is VolumeDeciles for jobs in volumeOrder's order.
func volumeDeciles(order []int32, measured []JobMetrics) []VolumeDecile {
	return deciles.Summarize(order, measured, func(m *JobMetrics) float64 { return m.SLR })
}
