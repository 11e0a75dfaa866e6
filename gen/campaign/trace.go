package campaign

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	workload "github.com/sweep-sched/sweep/workload/campaign"
	"github.com/sweep-sched/sweep/workload/swf"
)

// Release says when a replayed trace campaign's jobs are submitted.
type Release string

// The release modes of a trace replay.
const (
	// ReleasePerJob submits every job at its own recorded submit time (the
	// default, also when empty): no policy runs a job before its user
	// submitted it.
	ReleasePerJob Release = "per-job"
	// ReleaseCampaign submits all of a campaign's jobs with its first, as
	// in the papers' campaign model (a campaign is "the set of jobs
	// released in one submission").
	ReleaseCampaign Release = "campaign"
)

// Releases lists the release modes, the default first.
func Releases() []Release { return []Release{ReleasePerJob, ReleaseCampaign} }

// FromJobs builds the campaign workload of a trace's jobs (seed 000
// Sec. VI): campaigns per user by the MAX rule (Detect),
// listed by submit time, then user, then first job number. Times are
// rebased so that the earliest submit is tick 0. A campaign's submit time
// is its first job's; its think time is the gap, in the log, between the
// user's previous campaign's last finish and this submit (never negative
// under the MAX rule), so the closed loop keeps the user's recorded think
// times. With ReleasePerJob (the default) every job is released at its
// own recorded submit time: its ReleaseTicks is the gap to the campaign's
// first submit, so that no policy can run a job before the user submitted
// it, and a campaign that the MAX rule strings over days is not handed to
// the scheduler whole at its start. With ReleaseCampaign every
// ReleaseTicks is 0. Every job keeps its recorded start (submit + wait, an
// unknown wait taken as 0) for the log policy. Users are named
// "u<SWF user id>".
//
// The campaign model has sequential jobs only: a job with other than one
// allocated processor is an error naming its line (LPC-EGEE has none after
// the reader's drops). A job that ran 0 seconds (which the reader returns
// only with swf.Options.KeepZeroRun) is a job of 0 ticks: it adds no work,
// and a campaign of such jobs only has no work and an infinite stretch.
func FromJobs(jobs []swf.Job, release Release) (*workload.Workload, error) {
	if release != "" && !slices.Contains(Releases(), release) {
		return nil, fmt.Errorf("campaign workload from SWF: release %q; want one of %v", release, Releases())
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("campaign workload from SWF: no jobs; want at least one")
	}
	origin := jobs[0].SubmitSeconds
	for _, j := range jobs {
		origin = min(origin, j.SubmitSeconds)
		switch {
		case j.AllocatedProcs != 1:
			return nil, fmt.Errorf("SWF line %d (job %d): field \"allocated processors\" = %d; the campaign model wants sequential jobs (1 processor)", j.Line, j.Number, j.AllocatedProcs)
		case j.RunSeconds < 0:
			return nil, fmt.Errorf("SWF line %d (job %d): field \"run time\" = %d; want >= 0 seconds", j.Line, j.Number, j.RunSeconds)
		}
	}
	found := Detect(jobs)
	slices.SortStableFunc(found, func(a, b Campaign) int {
		return cmp.Or(cmp.Compare(a.SubmitSeconds, b.SubmitSeconds), cmp.Compare(a.User, b.User),
			cmp.Compare(jobs[a.JobIndices[0]].Number, jobs[b.JobIndices[0]].Number))
	})
	w := &workload.Workload{}
	userIndex := map[int64]int{}
	lastFinish := map[int64]int64{}
	var ids []int64
	for _, c := range found {
		if _, ok := userIndex[c.User]; !ok {
			userIndex[c.User] = -1
			ids = append(ids, c.User)
		}
	}
	slices.Sort(ids)
	for i, id := range ids {
		userIndex[id] = i
		w.Users = append(w.Users, workload.User{ID: swf.UserName(id)})
	}
	for _, c := range found {
		camp := workload.Campaign{User: userIndex[c.User], SubmitTicks: c.SubmitSeconds - origin}
		if prev, ok := lastFinish[c.User]; ok {
			camp.ThinkTicks = c.SubmitSeconds - prev
		}
		lastFinish[c.User] = c.LogFinishSeconds
		for _, i := range c.JobIndices {
			j := &jobs[i]
			start := j.SubmitSeconds + max(j.WaitSeconds, 0) - origin
			var offset int64
			if release != ReleaseCampaign {
				offset = j.SubmitSeconds - c.SubmitSeconds
			}
			camp.Jobs = append(camp.Jobs, workload.Job{ID: strconv.FormatInt(j.Number, 10), ExecTicks: j.RunSeconds,
				ReleaseTicks: offset, LogStartTicks: &start})
		}
		w.Campaigns = append(w.Campaigns, camp)
	}
	return w, nil
}

// LoadTrace reads the SWF log at path with opts (window, user filters) and
// returns its campaign workload with the given release mode and the
// reader's report of dropped and repaired lines.
func LoadTrace(path string, opts swf.Options, release Release) (*workload.Workload, swf.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, swf.Report{}, fmt.Errorf("opening SWF log: %w", err)
	}
	defer f.Close()
	return ReadTrace(f, path, opts, release)
}

// ReadTrace is LoadTrace on a log read from src, gzip-compressed or
// plain, named source in errors and in the report.
func ReadTrace(src io.Reader, source string, opts swf.Options, release Release) (*workload.Workload, swf.Report, error) {
	r, err := swf.NewNamedReader(src, source, opts)
	if err != nil {
		return nil, swf.Report{}, err
	}
	defer r.Close()
	jobs, err := r.ReadAll()
	if err != nil {
		return nil, r.Report(), fmt.Errorf("reading %s: %w", source, err)
	}
	w, err := FromJobs(jobs, release)
	if err != nil {
		return nil, r.Report(), fmt.Errorf("%s: %w", source, err)
	}
	return w, r.Report(), nil
}
