package gym

import (
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// An observer writes what the agent sees at a decision point: K slots of
// F features each, and which slots hold a job. visible[i] is the job in
// slot i (it must be the action's job), -1 for an empty slot.
type observer interface {
	features() int
	// reset prepares the observer for an episode stepped by st under
	// the estimates of variant v.
	reset(ep episode, st *backfill.Stepper, v rigid.Variant)
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
	// Per job of the episode, fixed at reset: its dense user, its
	// processors over the machine's, its estimate feature (recomputed at
	// every observation under predicted estimates, which change).
	user        []int32
	submit      []int64
	procs       []int
	procsShare  []float32
	estimate    []float32
	dynamicEst  bool
	userProcs   []int // per dense user, the processors its running jobs hold
	denseByUser map[int64]int32
}

func (o *sweepObserver) features() int { return 8 }

func (o *sweepObserver) reset(ep episode, st *backfill.Stepper, v rigid.Variant) {
	w := ep.w
	n := len(w.Jobs)
	state := st.State()
	o.user, o.procsShare, o.estimate = slices.Grow(o.user[:0], n)[:n], slices.Grow(o.procsShare[:0], n)[:n], slices.Grow(o.estimate[:0], n)[:n]
	o.submit, o.procs = slices.Grow(o.submit[:0], n)[:n], slices.Grow(o.procs[:0], n)[:n]
	if o.denseByUser == nil {
		o.denseByUser = map[int64]int32{}
	}
	clear(o.denseByUser)
	for i := range w.Jobs {
		j := &w.Jobs[i]
		u, ok := o.denseByUser[j.User]
		if !ok {
			u = int32(len(o.denseByUser))
			o.denseByUser[j.User] = u
		}
		o.user[i], o.submit[i], o.procs[i] = u, j.SubmitSeconds, j.Procs
		o.procsShare[i] = float32(j.Procs) / float32(w.Procs)
		o.estimate[i] = o.estimateFeature(state.Job(i).EstimateSeconds) // the simulator's, kill rule included
	}
	o.userProcs = slices.Grow(o.userProcs[:0], len(o.denseByUser))[:len(o.denseByUser)]
	o.dynamicEst = v == rigid.EstimatePredicted
}

func (o *sweepObserver) estimateFeature(seconds int64) float32 {
	return float32(min(float64(seconds)/o.maxEstimateSeconds, 1))
}

func (o *sweepObserver) observe(st *backfill.State, obs []float32, mask []uint8, visible []int) {
	const f = 8
	k := len(mask)
	procs := float32(st.Procs)
	clear(o.userProcs)
	for _, j := range st.Running {
		o.userProcs[o.user[j]] += o.procs[j]
	}
	free := float32(st.FreeProcs) / procs
	queued := min(float32(len(st.Waiting))/float32(k), 1)
	n := min(k, len(st.Waiting))
	for i, j := range st.Waiting[:n] {
		row := obs[i*f : i*f+f : i*f+f]
		row[0] = 1
		row[1] = float32(min(float64(st.NowSeconds-o.submit[j])/maxWaitSeconds, 1))
		row[2] = o.estimate[j]
		if o.dynamicEst {
			row[2] = o.estimateFeature(st.Job(j).EstimateSeconds)
		}
		row[3] = o.procsShare[j]
		row[4] = 0
		if o.procs[j] <= st.FreeProcs {
			row[4] = 1
		}
		row[5] = float32(o.userProcs[o.user[j]]) / procs
		row[6] = free
		row[7] = queued
		mask[i], visible[i] = 1, j
	}
	clear(obs[n*f:])
	clear(mask[n:])
	for i := n; i < k; i++ {
		visible[i] = -1
	}
}
