package swf

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/workload/campaign"
)

// Campaigns builds the campaign workload of a trace's jobs (seed 000
// Sec. VI): campaigns per user by the MAX rule (DetectCampaigns),
// listed by submit time, then user, then first job number. Times are
// rebased so that the earliest submit is tick 0. A campaign's submit time
// is its first job's; its think time is the gap, in the log, between the
// user's previous campaign's last finish and this submit (never negative
// under the MAX rule), so the closed loop keeps the user's recorded think
// times. Every job is released at its own recorded submit time: its
// ReleaseTicks is the gap to the campaign's first submit, so that no
// policy can run a job before the user submitted it, and a campaign that
// the MAX rule strings over days is not handed to the scheduler whole at
// its start. Every job keeps its recorded start (submit + wait, an
// unknown wait taken as 0) for the log policy. Users are named
// "u<SWF user id>".
//
// The campaign model has sequential jobs only: a job with other than one
// allocated processor is an error naming its line (LPC-EGEE has none after
// the reader's drops), as is a run time below 1 second.
func Campaigns(jobs []Job) (*campaign.Workload, error) {
	if len(jobs) == 0 {
		return nil, fmt.Errorf("campaign workload from SWF: no jobs; want at least one")
	}
	origin := jobs[0].SubmitSeconds
	for _, j := range jobs {
		origin = min(origin, j.SubmitSeconds)
		switch {
		case j.AllocatedProcs != 1:
			return nil, fmt.Errorf("SWF line %d (job %d): field \"allocated processors\" = %d; the campaign model wants sequential jobs (1 processor)", j.Line, j.Number, j.AllocatedProcs)
		case j.RunSeconds < 1:
			return nil, fmt.Errorf("SWF line %d (job %d): field \"run time\" = %d; want >= 1 second", j.Line, j.Number, j.RunSeconds)
		}
	}
	found := DetectCampaigns(jobs)
	slices.SortStableFunc(found, func(a, b Campaign) int {
		return cmp.Or(cmp.Compare(a.SubmitSeconds, b.SubmitSeconds), cmp.Compare(a.User, b.User),
			cmp.Compare(jobs[a.JobIndices[0]].Number, jobs[b.JobIndices[0]].Number))
	})
	w := &campaign.Workload{}
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
		w.Users = append(w.Users, campaign.User{ID: "u" + strconv.FormatInt(id, 10)})
	}
	for _, c := range found {
		camp := campaign.Campaign{User: userIndex[c.User], SubmitTicks: c.SubmitSeconds - origin}
		if prev, ok := lastFinish[c.User]; ok {
			camp.ThinkTicks = c.SubmitSeconds - prev
		}
		lastFinish[c.User] = c.LogFinishSeconds
		for _, i := range c.JobIndices {
			j := &jobs[i]
			start := j.SubmitSeconds + max(j.WaitSeconds, 0) - origin
			camp.Jobs = append(camp.Jobs, campaign.Job{ID: strconv.FormatInt(j.Number, 10), ExecTicks: j.RunSeconds,
				ReleaseTicks: j.SubmitSeconds - c.SubmitSeconds, LogStartTicks: &start})
		}
		w.Campaigns = append(w.Campaigns, camp)
	}
	return w, nil
}

// LoadCampaigns reads the SWF log at path with opts (window, user filters) and
// returns its campaign workload and the reader's report of dropped and
// repaired lines.
func LoadCampaigns(path string, opts Options) (*campaign.Workload, Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Report{}, fmt.Errorf("opening SWF log: %w", err)
	}
	defer f.Close()
	return ReadCampaigns(f, path, opts)
}

// ReadCampaigns is LoadCampaigns on a log read from src, gzip-compressed or
// plain, named source in errors and in the report.
func ReadCampaigns(src io.Reader, source string, opts Options) (*campaign.Workload, Report, error) {
	r, err := newReader(src, source, opts)
	if err != nil {
		return nil, Report{}, err
	}
	defer r.Close()
	jobs, err := r.ReadAll()
	if err != nil {
		return nil, r.Report(), fmt.Errorf("reading %s: %w", source, err)
	}
	w, err := Campaigns(jobs)
	if err != nil {
		return nil, r.Report(), fmt.Errorf("%s: %w", source, err)
	}
	return w, r.Report(), nil
}
