package rigid

import "math"

// The predictions of variant predicted follow Tsafrir, Etsion and
// Feitelson, "Backfilling using system-generated predictions rather than
// user runtime estimates" (IEEE TPDS 18(6), 2007): a job's prediction is
// the average run time of the two jobs of its user that ended last before
// it was submitted (in the simulated schedule: a job ending at the
// submit second counts, as completions come before arrivals), rounded up
// to a whole second and never above the job's request; a user with fewer
// than two such jobs gets the request, the user's own estimate. The kill
// still uses the request (the paper divorces the kill time from the
// prediction). A job still running when its prediction runs out is
// re-predicted upwards (the paper's prediction correction): its
// prediction grows by the increments of PredictionIncrementsSeconds, one
// after another, until it exceeds the time the job has run, and never
// past the request. The same correction extends a request a job outlives
// under KillNever (then without bound).

// PredictionIncrementsSeconds are the successive increments of a
// prediction that proved too short: 1, 5, 15 and 30 minutes, 1, 2, 5, 10,
// 20, 50 and 100 hours, the last repeated.
var PredictionIncrementsSeconds = []int64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// PredictSeconds returns the prediction of a job requesting
// requestSeconds whose user's last two jobs ended before its submission
// ran lastSeconds and previousSeconds; history is how many such jobs
// there were (only 0, 1 or 2 and more matter).
func PredictSeconds(history int, lastSeconds, previousSeconds, requestSeconds int64) int64 {
	if history < 2 {
		return requestSeconds
	}
	return min(requestSeconds, (lastSeconds+previousSeconds+1)/2)
}

// CorrectedSeconds returns the estimate, after its corrections, of a job
// first estimated at estimateSeconds that is still running elapsedSeconds
// after its start: the estimate itself while it exceeds elapsedSeconds,
// else the estimate plus the first increments whose sum takes it past
// elapsedSeconds, at most boundSeconds (the request when the job is
// killed there; math.MaxInt64 under KillNever). A job is never still
// running at its bound when the bound kills it, so the result always
// exceeds elapsedSeconds then.
func CorrectedSeconds(estimateSeconds, elapsedSeconds, boundSeconds int64) int64 {
	e := estimateSeconds
	for k := 0; e <= elapsedSeconds && e < boundSeconds; k++ {
		inc := PredictionIncrementsSeconds[min(k, len(PredictionIncrementsSeconds)-1)]
		if k >= len(PredictionIncrementsSeconds) {
			// Past the list, jump by whole last increments at once.
			inc *= max(1, (elapsedSeconds-e)/inc)
		}
		e += inc
	}
	return min(e, boundSeconds)
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
