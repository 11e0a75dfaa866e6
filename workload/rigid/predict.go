package rigid

import "math"

// The predictions of variant predicted follow Tsafrir, Etsion and
// Feitelson, "Backfilling using system-generated predictions rather than
// user runtime estimates" (IEEE TPDS 18(6), 2007), as pyss, the
// simulator of the authors' group, implements them (predictor_tsafrir.py
// and the tsafrir corrector of common_correctors.py in its predictsim
// fork): a job's prediction is the average run time, rounded down to a
// whole second, of the two jobs of its user that ended last before it
// was submitted (in the simulated schedule: a job ending at the submit
// second counts, as completions come before arrivals), and never above
// the job's request; a user with fewer than two such jobs gets the
// request, the user's own estimate. The kill still uses the request (the
// paper divorces the kill time from the prediction). A job still running
// when its prediction runs out is re-predicted upwards (the paper's
// prediction correction): its k-th correction makes its prediction the
// first one plus the k-th of PredictionIncrementsSeconds, never past the
// request. The same correction extends a request a job outlives under
// KillNever (then without bound, by whole last increments once the list
// is used up).

// PredictionIncrementsSeconds are what successive corrections add to a
// job's first prediction: 1, 5, 15 and 30 minutes, 1, 2, 5, 10, 20, 50
// and 100 hours.
var PredictionIncrementsSeconds = []int64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// PredictSeconds returns the prediction of a job requesting
// requestSeconds whose user's last two jobs ended before its submission
// ran lastSeconds and previousSeconds; history is how many such jobs
// there were (only 0, 1 or 2 and more matter).
func PredictSeconds(history int, lastSeconds, previousSeconds, requestSeconds int64) int64 {
	if history < 2 {
		return requestSeconds
	}
	return min(requestSeconds, (lastSeconds+previousSeconds)/2)
}

// CorrectedSeconds returns the estimate, after its corrections, of a job
// first estimated at estimateSeconds that is still running elapsedSeconds
// after its start: the estimate itself while it exceeds elapsedSeconds,
// else the estimate plus the first increment that takes it past
// elapsedSeconds (after the list, the multiple of the last that does), at
// most boundSeconds (the request when the job is killed there;
// math.MaxInt64 under KillNever). A job is never still running at its
// bound when the bound kills it, so the result always exceeds
// elapsedSeconds then.
func CorrectedSeconds(estimateSeconds, elapsedSeconds, boundSeconds int64) int64 {
	e := estimateSeconds
	if e > elapsedSeconds || e >= boundSeconds {
		return min(e, boundSeconds)
	}
	for _, inc := range PredictionIncrementsSeconds {
		if e+inc > elapsedSeconds {
			return min(e+inc, boundSeconds)
		}
	}
	last := PredictionIncrementsSeconds[len(PredictionIncrementsSeconds)-1]
	return min(e+((elapsedSeconds-e)/last+1)*last, boundSeconds)
}

// EstimateBoundSeconds is the largest estimate the correction may reach
// for a job under kill rule k: its request, where the job is killed, or
// no bound.
func (j *Job) EstimateBoundSeconds(k Kill) int64 {
	if k == KillNever {
		return math.MaxInt64
	}
	return j.RequestedSeconds
}
