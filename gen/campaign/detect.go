package campaign

import (
	"cmp"
	"slices"

	"github.com/sweep-sched/sweep/workload/swf"
)

// Campaign is one user's batch of overlapping jobs found by the MAX rule.
type Campaign struct {
	User int64
	// JobIndices index the slice given to Detect, ordered by
	// submit time, then job number, then index.
	JobIndices []int
	// SubmitSeconds is the first job's submit time.
	SubmitSeconds int64
	// LogFinishSeconds is the latest finish, in the log, of its jobs.
	LogFinishSeconds int64
	// WorkProcSeconds is the sum of its jobs' Job.WorkProcSeconds.
	WorkProcSeconds int64
}

// Detect splits each user's jobs into campaigns with the MAX rule (see
// the package comment) and returns them ordered by user, then submit
// time, then first job number. Every job is in exactly one campaign; jobs
// is not modified.
func Detect(jobs []swf.Job) []Campaign {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ja, jb := &jobs[a], &jobs[b]
		return cmp.Or(
			cmp.Compare(ja.User, jb.User),
			cmp.Compare(ja.SubmitSeconds, jb.SubmitSeconds),
			cmp.Compare(ja.Number, jb.Number),
			cmp.Compare(a, b),
		)
	})
	var campaigns []Campaign
	for _, i := range order {
		j := &jobs[i]
		if n := len(campaigns); n > 0 {
			c := &campaigns[n-1]
			if c.User == j.User && j.SubmitSeconds < c.LogFinishSeconds {
				c.JobIndices = append(c.JobIndices, i)
				c.LogFinishSeconds = max(c.LogFinishSeconds, j.LogFinishSeconds())
				c.WorkProcSeconds += j.WorkProcSeconds()
				continue
			}
		}
		campaigns = append(campaigns, Campaign{
			User:             j.User,
			JobIndices:       []int{i},
			SubmitSeconds:    j.SubmitSeconds,
			LogFinishSeconds: j.LogFinishSeconds(),
			WorkProcSeconds:  j.WorkProcSeconds(),
		})
	}
	return campaigns
}
