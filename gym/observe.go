package gym

import (
	"github.com/sweep-sched/sweep/engine/backfill"
)

// An observer writes what the agent sees at a decision point: K slots of
// F features each, and which slots hold a job. visible[i] is the job in
// slot i (it must be the action's job), -1 for an empty slot.
type observer interface {
	features() int
	observe(st *backfill.State, obs []float32, mask []uint8, visible []int)
}

// sweepFeatures are the sweep preset's columns, per waiting job:
//
//	present       1 (0 in an empty slot, all of whose features are 0)
//	wait          the wait so far over 12 h, at most 1
//	estimate      the estimate (of the variant) over the source's longest request, at most 1
//	procs         the job's processors over the machine's
//	fits          1 if the job fits the free processors now
//	user_running  the processors the job's user's running jobs hold, over the machine's
//	free          the free processors over the machine's (the same in every slot)
//	queued        the waiting jobs over K, at most 1 (the same in every slot)
//
// The slots are the K first waiting jobs in submit order.
const sweepFeatures = "present,wait,estimate,procs,fits,user_running,free,queued"

// maxWaitSeconds normalises waits, as RLScheduler's MAX_WAIT_TIME.
const maxWaitSeconds = 12 * 3600

type sweepObserver struct {
	maxEstimateSeconds float64
	userProcs          map[int64]int
}

func (o *sweepObserver) features() int { return 8 }

func (o *sweepObserver) observe(st *backfill.State, obs []float32, mask []uint8, visible []int) {
	const f = 8
	k := len(mask)
	procs := float32(st.Procs)
	clear(o.userProcs)
	for _, j := range st.Running {
		job := st.Job(j)
		o.userProcs[job.User] += job.Procs
	}
	free := float32(st.FreeProcs) / procs
	queued := min(float32(len(st.Waiting))/float32(k), 1)
	for i := range k {
		row := obs[i*f : i*f+f]
		if i >= len(st.Waiting) {
			clear(row)
			mask[i], visible[i] = 0, -1
			continue
		}
		j := st.Waiting[i]
		job := st.Job(j)
		row[0] = 1
		row[1] = float32(min(float64(st.NowSeconds-job.SubmitSeconds)/maxWaitSeconds, 1))
		row[2] = float32(min(float64(job.EstimateSeconds)/o.maxEstimateSeconds, 1))
		row[3] = float32(job.Procs) / procs
		row[4] = 0
		if job.Procs <= st.FreeProcs {
			row[4] = 1
		}
		row[5] = float32(o.userProcs[job.User]) / procs
		row[6] = free
		row[7] = queued
		mask[i], visible[i] = 1, j
	}
}
