package backfill

import "github.com/sweep-sched/sweep/workload/rigid"

// setEstimates fills each job's estimate under variant v: the run time it
// will run (T), its request (R) or, for predicted, the request until the
// job arrives and its prediction is made (arrive). Estimates that may
// prove too short, predictions and requests a job outlives under
// KillNever, are corrected at each pass (correctEstimates).
func (s *sim) setEstimates(v rigid.Variant, p Policy) {
	for i := range s.jobs {
		s.est[i] = s.jobs[i].EstimateSecondsUnder(v, p.Kill)
	}
	if v == rigid.EstimatePredicted {
		s.history = make([]userHistory, s.users)
	}
	s.correct = v == rigid.EstimatePredicted || v == rigid.EstimateRequested && p.Kill == rigid.KillNever
	if s.correct {
		s.firstEst = append([]int64(nil), s.est...)
	}
}

// correctEstimates re-estimates every running job that has outlived its
// estimate (rigid.CorrectedSeconds). Doing it at the pass rather than at
// the instant the estimate runs out gives the same estimates, as the
// correction depends only on the first estimate and the time run, and no
// decision is taken in between.
func (s *sim) correctEstimates() {
	for _, j := range s.running {
		elapsed := s.now - s.sched.StartSeconds[j]
		if s.est[j] <= elapsed {
			s.est[j] = rigid.CorrectedSeconds(s.firstEst[j], elapsed, s.jobs[j].EstimateBoundSeconds(s.policy.Kill))
			s.corrections++
		}
	}
}

// userHistory is what predicted estimates remember of a user: how many of
// its jobs ended (counted up to two) and the run times of the last two.
type userHistory struct {
	ended                        int
	lastSeconds, previousSeconds int64
}

// ended1 records that one of the user's jobs ended after running
// runSeconds.
func (h *userHistory) ended1(runSeconds int64) {
	h.previousSeconds, h.lastSeconds = h.lastSeconds, runSeconds
	h.ended = min(h.ended+1, 2)
}
