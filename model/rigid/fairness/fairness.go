// Package fairness owns the per-user measures of seed 003 (design note
// fairshare.md, section 5) over one month of a rigid schedule: each user's
// fair-share deviation against a water-filling entitlement, the month's
// total absolute deviation, waits and bounded slowdowns of the month's
// jobs, the highest-demand user, and the workload summary of the paper's
// Table I.
package fairness

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// User is one user's measures over a month.
type User struct {
	User int64
	// Jobs counts the user's jobs submitted in the month.
	Jobs int
	// DemandProcSeconds sums processors x run time (end − start) over
	// those jobs.
	DemandProcSeconds int64
	// DevProcHours is the integral over the month of the processors the
	// user held minus its entitlement, in processor-hours (node-hours on
	// KTH): positive means over its share.
	DevProcHours float64
	// MeanWaitSeconds and MeanAccuracy (run time / requested time) are
	// over the month's jobs; 0 without jobs.
	MeanWaitSeconds float64
	MeanAccuracy    float64
}

// Summary describes the jobs submitted in a month, as the paper's
// Table I does.
type Summary struct {
	FromSeconds, ToSeconds int64
	Procs                  int
	Jobs, Users            int
	DemandProcSeconds      int64
	// TopUser is the user of the largest demand (the lower id on a tie).
	TopUser                  int64
	TopUserDemandProcSeconds int64
}

// Summarize describes the jobs of w's measured window, each job's work
// its processors times its RunSeconds (the run killed at its request): the
// workload before any schedule, as the paper's Table I gives it.
func Summarize(w *rigid.Workload) Summary {
	return summarize(w, func(i int) int64 { return w.Jobs[i].RunSeconds })
}

// summarize is Summarize with each job's run time given by runSeconds:
// Measure's is the schedule's end − start, so that under kill: never a job
// that ran past its request counts the work it did.
func summarize(w *rigid.Workload, runSeconds func(i int) int64) Summary {
	s := Summary{FromSeconds: w.MeasureFromSeconds, ToSeconds: w.MeasureToSeconds, Procs: w.Procs}
	demand := map[int64]int64{}
	for i := range w.Jobs {
		if !w.Measured(i) {
			continue
		}
		j := &w.Jobs[i]
		work := int64(j.Procs) * runSeconds(i)
		s.Jobs++
		s.DemandProcSeconds += work
		demand[j.User] += work
	}
	s.Users = len(demand)
	for u, d := range demand {
		if d > s.TopUserDemandProcSeconds || d == s.TopUserDemandProcSeconds && u < s.TopUser {
			s.TopUser, s.TopUserDemandProcSeconds = u, d
		}
	}
	return s
}

// DemandPercent returns the month's demand as a share of the cluster's
// capacity over the month, in percent; the paper prints it truncated.
func (s Summary) DemandPercent() float64 {
	return 100 * float64(s.DemandProcSeconds) / (float64(s.Procs) * float64(s.ToSeconds-s.FromSeconds))
}

// DemandProcHours returns the month's demand in processor-hours.
func (s Summary) DemandProcHours() float64 { return float64(s.DemandProcSeconds) / 3600 }

// MeanJobProcHours returns the mean job size in processor-hours.
func (s Summary) MeanJobProcHours() float64 { return s.DemandProcHours() / float64(s.Jobs) }

// PerUserJobs returns the mean number of jobs per user.
func (s Summary) PerUserJobs() float64 { return float64(s.Jobs) / float64(s.Users) }

// PerUserDemandProcHours returns the mean demand per user.
func (s Summary) PerUserDemandProcHours() float64 { return s.DemandProcHours() / float64(s.Users) }

// Month is the measures of one month of a schedule.
type Month struct {
	Summary
	// PerUser lists every user with a job in the system during the month,
	// by user id.
	PerUser []User
	// TotalAbsDevProcHours sums |dev| over PerUser.
	TotalAbsDevProcHours float64
	// Waits of the month's jobs, seconds; P99 is the nearest rank.
	MeanWaitSeconds, MaxWaitSeconds, P99WaitSeconds float64
	// Mean bounded slowdown max(1, (w + T) / max(T, tau)) for tau = 10 s
	// and 60 s, and unbounded (w + T) / T.
	MeanSlowdownTau10, MeanSlowdownTau60, MeanSlowdown float64
}

// DevOf returns the deviation of user u, 0 if it was not in the system.
func (m *Month) DevOf(u int64) float64 {
	i, ok := slices.BinarySearchFunc(m.PerUser, u, func(x User, u int64) int { return cmp.Compare(x.User, u) })
	if !ok {
		return 0
	}
	return m.PerUser[i].DevProcHours
}

// Measure computes the month's measures from a schedule of workload w
// given as each job's start and end (-1 if never started): a job's run
// time is end − start, what it ran under the cell's kill rule. The month
// is w's measured window, which must be set; every job submitted before
// its end must have started.
func Measure(w *rigid.Workload, startSeconds, endSeconds []int64) (*Month, error) {
	from, to := w.MeasureFromSeconds, w.MeasureToSeconds
	if from >= to {
		return nil, fmt.Errorf("measuring %s: the measured window [%d, %d) s is empty", w.Name, from, to)
	}
	if len(startSeconds) != len(w.Jobs) || len(endSeconds) != len(w.Jobs) {
		return nil, fmt.Errorf("measuring %s: %d starts and %d ends for %d jobs", w.Name, len(startSeconds), len(endSeconds), len(w.Jobs))
	}
	m := &Month{Summary: summarize(w, func(i int) int64 { return endSeconds[i] - startSeconds[i] })}
	byUser := map[int64]*User{}
	userOf := func(id int64) *User {
		u, ok := byUser[id]
		if !ok {
			u = &User{User: id}
			byUser[id] = u
		}
		return u
	}
	var waits []float64
	var sum10, sum60, sumRaw float64
	for i := range w.Jobs {
		j := &w.Jobs[i]
		if j.SubmitSeconds >= to {
			break
		}
		start := startSeconds[i]
		if start < 0 {
			return nil, fmt.Errorf("measuring %s: job %d (SWF %d) submitted at %d s never started", w.Name, i, j.Number, j.SubmitSeconds)
		}
		end := endSeconds[i]
		if end <= from {
			continue // left the system before the month
		}
		u := userOf(j.User)
		if j.SubmitSeconds < from {
			continue
		}
		wait := float64(start - j.SubmitSeconds)
		run := float64(end - start)
		u.Jobs++
		u.DemandProcSeconds += int64(j.Procs) * (end - start)
		u.MeanWaitSeconds += wait
		u.MeanAccuracy += run / float64(j.RequestedSeconds)
		waits = append(waits, wait)
		sum10 += max(1, (wait+run)/max(run, 10))
		sum60 += max(1, (wait+run)/max(run, 60))
		sumRaw += (wait + run) / run
	}
	for _, u := range byUser {
		m.PerUser = append(m.PerUser, *u)
	}
	slices.SortFunc(m.PerUser, func(a, b User) int { return cmp.Compare(a.User, b.User) })
	for i := range m.PerUser {
		if u := &m.PerUser[i]; u.Jobs > 0 {
			u.MeanWaitSeconds /= float64(u.Jobs)
			u.MeanAccuracy /= float64(u.Jobs)
		}
	}
	if n := len(waits); n > 0 {
		slices.Sort(waits)
		var total float64
		for _, x := range waits {
			total += x
		}
		m.MeanWaitSeconds = total / float64(n)
		m.MaxWaitSeconds = waits[n-1]
		m.P99WaitSeconds = waits[int(math.Ceil(0.99*float64(n)))-1]
		m.MeanSlowdownTau10 = sum10 / float64(n)
		m.MeanSlowdownTau60 = sum60 / float64(n)
		m.MeanSlowdown = sumRaw / float64(n)
	}
	deviations(w, startSeconds, endSeconds, m)
	for _, u := range m.PerUser {
		m.TotalAbsDevProcHours += math.Abs(u.DevProcHours)
	}
	return m, nil
}

// deviations integrates each user's held processors minus its
// water-filling entitlement over the month, exactly between events: the
// users in the system (waiting or running jobs) share the cluster equally,
// each capped by its demand d = min(N, processors of its waiting and
// running jobs), the share a capped user leaves going to the others.
func deviations(w *rigid.Workload, startSeconds, endSeconds []int64, m *Month) {
	index := make(map[int64]int, len(m.PerUser))
	for i, u := range m.PerUser {
		index[u.User] = i
	}
	type event struct {
		seconds int64
		user    int
		// waiting and running change the user's processors.
		waiting, running int
	}
	var events []event
	for i := range w.Jobs {
		j := &w.Jobs[i]
		if j.SubmitSeconds >= m.ToSeconds {
			break
		}
		start, end := startSeconds[i], endSeconds[i]
		if end <= m.FromSeconds {
			continue
		}
		u := index[j.User]
		n := j.Procs
		events = append(events,
			event{max(j.SubmitSeconds, m.FromSeconds), u, n, 0},
			event{max(start, m.FromSeconds), u, -n, n},
			event{end, u, 0, -n})
	}
	slices.SortFunc(events, func(a, b event) int { return cmp.Compare(a.seconds, b.seconds) })
	users := len(m.PerUser)
	waiting := make([]int, users)
	running := make([]int, users)
	dev := make([]float64, users)
	active := make([]int, 0, users)
	share := make([]float64, users)
	at := m.FromSeconds
	for k := 0; k < len(events) && at < m.ToSeconds; {
		next := min(events[k].seconds, m.ToSeconds)
		if next > at {
			entitle(m.Procs, waiting, running, active[:0], share)
			dt := float64(next - at)
			for u := range users {
				if waiting[u]+running[u] > 0 {
					dev[u] += dt * (float64(running[u]) - share[u])
				}
			}
			at = next
		}
		for ; k < len(events) && events[k].seconds == at; k++ {
			e := events[k]
			waiting[e.user] += e.waiting
			running[e.user] += e.running
		}
	}
	if at < m.ToSeconds {
		entitle(m.Procs, waiting, running, active[:0], share)
		dt := float64(m.ToSeconds - at)
		for u := range users {
			if waiting[u]+running[u] > 0 {
				dev[u] += dt * (float64(running[u]) - share[u])
			}
		}
	}
	for u := range users {
		m.PerUser[u].DevProcHours = dev[u] / 3600
	}
}

// entitle fills share with the water-filling entitlement of every user in
// the system; active is scratch space.
func entitle(procs int, waiting, running, active []int, share []float64) {
	demand := func(u int) int { return min(procs, waiting[u]+running[u]) }
	for u := range waiting {
		share[u] = 0
		if waiting[u]+running[u] > 0 {
			active = append(active, u)
		}
	}
	slices.SortFunc(active, func(a, b int) int { return cmp.Or(cmp.Compare(demand(a), demand(b)), cmp.Compare(a, b)) })
	remaining := float64(procs)
	for i, u := range active {
		e := min(float64(demand(u)), remaining/float64(len(active)-i))
		share[u] = e
		remaining -= e
	}
}

// RunningSums returns the running sums of monthly values, as the paper's
// Tables V-VII print them.
func RunningSums(monthly []float64) []float64 {
	out := make([]float64, len(monthly))
	var sum float64
	for i, x := range monthly {
		sum += x
		out[i] = sum
	}
	return out
}

// Differences undoes RunningSums: the monthly values of running sums.
func Differences(running []float64) []float64 {
	out := make([]float64, len(running))
	var prev float64
	for i, x := range running {
		out[i] = x - prev
		prev = x
	}
	return out
}
