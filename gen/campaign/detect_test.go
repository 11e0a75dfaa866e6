package campaign

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/workload/swf"
)

func TestDetect(t *testing.T) {
	job := func(number, user, submit, wait, run, procs int64) swf.Job {
		return swf.Job{Number: number, User: user, SubmitSeconds: submit, WaitSeconds: wait, RunSeconds: run, AllocatedProcs: procs}
	}
	// Given out of order; index in the slice on the left.
	jobs := []swf.Job{
		0: job(6, 1, 200, 0, 1, 4),   // finish 201
		1: job(3, 1, 50, 0, 10, 1),   // finish 60
		2: job(8, 0, 100, 0, 1, 1),   // finish 101
		3: job(1, 1, 0, 0, 100, 1),   // finish 100
		4: job(5, 1, 104, -1, 10, 1), // unknown wait taken as 0: finish 114
		5: job(2, 1, 5, 1, 2, 1),     // finish 8
		6: job(7, 0, 100, 0, 1, 1),   // finish 101
		7: job(4, 1, 100, 0, 5, 1),   // finish 105
	}
	// User 0: jobs 7 and 8 are submitted together at 100 (ordered by job
	// number), 100 < 101, so one campaign, work 1+1.
	// User 1 by submit time: job 1 (0..100) opens a campaign; job 2 at 5 <
	// 100 joins (finish max 100); job 3 at 50 < 100 joins: the MAX rule
	// compares with the latest finish of the whole campaign, where the LAST
	// rule (previous job only, finish 8) would have split here. Work
	// 100+2+10 = 112. Job 4 at 100 is not before 100: a new campaign,
	// finish 105; job 5 at 104 < 105 joins, finish 114, work 5+10 = 15.
	// Job 6 at 200 >= 114: alone, work 1 s x 4 processors.
	want := []Campaign{
		{User: 0, JobIndices: []int{6, 2}, SubmitSeconds: 100, LogFinishSeconds: 101, WorkProcSeconds: 2},
		{User: 1, JobIndices: []int{3, 5, 1}, SubmitSeconds: 0, LogFinishSeconds: 100, WorkProcSeconds: 112},
		{User: 1, JobIndices: []int{7, 4}, SubmitSeconds: 100, LogFinishSeconds: 114, WorkProcSeconds: 15},
		{User: 1, JobIndices: []int{0}, SubmitSeconds: 200, LogFinishSeconds: 201, WorkProcSeconds: 4},
	}
	got := Detect(jobs)
	if !slices.EqualFunc(got, want, func(a, b Campaign) bool {
		return a.User == b.User && slices.Equal(a.JobIndices, b.JobIndices) && a.SubmitSeconds == b.SubmitSeconds &&
			a.LogFinishSeconds == b.LogFinishSeconds && a.WorkProcSeconds == b.WorkProcSeconds
	}) {
		t.Errorf("campaigns\n got %+v\nwant %+v", got, want)
	}
	if got := Detect(nil); len(got) != 0 {
		t.Errorf("no jobs: %+v, want none", got)
	}
}
