package campaign

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"testing"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"

	ec "github.com/sweep-sched/sweep/engine/campaign"
	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	wc "github.com/sweep-sched/sweep/workload/campaign"
	"github.com/sweep-sched/sweep/workload/swf"
)

const lpcTrace = "../../../shared/traces/LPC-EGEE-2004-1.2-cln.swf.gz"

// TestLPCEGEEWindow builds the seed 000 study (Dec 6 2004 - Jan 24 2005
// included) and checks it against the counts of gen/campaign's independent
// awk/Python pass (46,373 jobs, 36 users, 14,501 MAX-rule campaigns),
// that the log replay completes every campaign where the log says, that
// no job starts before its own submission and that no schedule beats the
// lower bound (every stretch >= 1 with StretchBaseBound; the default base
// is one particular schedule, which others may beat).
func TestLPCEGEEWindow(t *testing.T) {
	if _, err := os.Stat(lpcTrace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download LPC-EGEE-2004-1.2-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", lpcTrace)
	}
	if testing.Short() {
		t.Skip("simulates the 46,373-job trace window")
	}
	w, _, err := gcampaign.LoadTrace(lpcTrace, swf.Options{Window: swf.DateWindow("2004-12-06", "2005-01-25")}, gcampaign.ReleasePerJob)
	if err != nil {
		t.Fatal(err)
	}
	jobs := 0
	for _, c := range w.Campaigns {
		jobs += len(c.Jobs)
	}
	if jobs != 46373 || len(w.Users) != 36 || len(w.Campaigns) != 14501 {
		t.Fatalf("%d jobs, %d users, %d campaigns; want 46373, 36, 14501", jobs, len(w.Users), len(w.Campaigns))
	}
	in, err := ec.Compile(w, 140)
	if err != nil {
		t.Fatal(err)
	}
	for _, policy := range []string{"log", "ostrich"} {
		s, err := ec.Simulate(context.Background(), in, w, policy, ec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := mcampaign.CampaignRows(w, s, mcampaign.StretchBaseBound)
		if err != nil {
			t.Fatal(err)
		}
		for c, r := range rows {
			first, _ := in.JobTasks(c)
			for k, j := range w.Campaigns[c].Jobs {
				if s.TaskStart[first+k] < s.JobArrival[c]+j.ReleaseTicks {
					t.Fatalf("%s: campaign %d job %d starts at %d, before its submission %d + %d",
						policy, c, k, s.TaskStart[first+k], s.JobArrival[c], j.ReleaseTicks)
				}
			}
			if r.Stretch < 1 {
				t.Fatalf("%s: campaign %d stretch %g < 1", policy, c, r.Stretch)
			}
			if policy == "log" && c+1 < len(w.Campaigns) {
				// Under the MAX rule the user's next campaign was submitted
				// at or after this one's last finish in the log.
				next := -1
				for d := c + 1; d < len(w.Campaigns); d++ {
					if w.Campaigns[d].User == w.Campaigns[c].User {
						next = d
						break
					}
				}
				if next >= 0 && w.Campaigns[next].SubmitTicks-w.Campaigns[next].ThinkTicks != r.CompletionTicks {
					t.Fatalf("campaign %d: log completion %d, but the next campaign's submit - think = %d",
						c, r.CompletionTicks, w.Campaigns[next].SubmitTicks-w.Campaigns[next].ThinkTicks)
				}
			}
		}
	}
}

// TestTraceCampaignReleases on a hand-made log (times in seconds). User 7: job 1
// submitted at 100, waits 0, runs 10 (log 100-110); job 2 submitted at
// 105 (< 110: same MAX batch), waits 5, runs 3 (log 110-113); job 3
// submitted at 120 (>= 113: new batch), runs 2 (log 120-122). User 8:
// job 4 submitted at 101, waits 12, runs 1 (log 113-114). Rebased on 100
// and listed by submit: u7#1 = [job 1 exec 10 release 0, job 2 exec 3
// release 5] at 0; u8#1 = [job 4] at 1; u7#2 = [job 3] at 20, think
// 120 - 113 = 7.
//
// On 2 machines fcfs and ostrich both run job 1 at 0-10 and job 4 at
// 1-2, and job 2 no earlier than its submission, 5-8 (released whole at
// 0, job 2 would have started at 0); u7#1 completes at 10, so u7#2 is
// submitted at max(20, 10 + 7) = 20 and runs 20-22. Alone, u7#1 takes
// 10 (job 2 at 5-8 beside job 1): stretch 1. The log keeps its recorded
// starts 0, 10, 13, 20: u7#1 completes at 13, stretch 13/10; u8#1 at 14,
// flow 13 over alone 1.
func TestTraceCampaignReleases(t *testing.T) {
	jobs := []swf.Job{
		{Number: 1, SubmitSeconds: 100, WaitSeconds: 0, RunSeconds: 10, AllocatedProcs: 1, User: 7},
		{Number: 2, SubmitSeconds: 105, WaitSeconds: 5, RunSeconds: 3, AllocatedProcs: 1, User: 7},
		{Number: 3, SubmitSeconds: 120, WaitSeconds: 0, RunSeconds: 2, AllocatedProcs: 1, User: 7},
		{Number: 4, SubmitSeconds: 101, WaitSeconds: 12, RunSeconds: 1, AllocatedProcs: 1, User: 8},
	}
	w, err := gcampaign.FromJobs(jobs, gcampaign.ReleasePerJob)
	if err != nil {
		t.Fatal(err)
	}
	at := func(t int64) *int64 { return &t }
	want := &wc.Workload{
		Users: []wc.User{{ID: "u7"}, {ID: "u8"}},
		Campaigns: []wc.Campaign{
			{User: 0, SubmitTicks: 0, Jobs: []wc.Job{{ID: "1", ExecTicks: 10, LogStartTicks: at(0)}, {ID: "2", ExecTicks: 3, ReleaseTicks: 5, LogStartTicks: at(10)}}},
			{User: 1, SubmitTicks: 1, Jobs: []wc.Job{{ID: "4", ExecTicks: 1, LogStartTicks: at(13)}}},
			{User: 0, SubmitTicks: 20, ThinkTicks: 7, Jobs: []wc.Job{{ID: "3", ExecTicks: 2, LogStartTicks: at(20)}}},
		},
	}
	if !reflect.DeepEqual(w, want) {
		t.Fatalf("Campaigns:\n got %+v\nwant %+v", w, want)
	}
	for _, tc := range []struct {
		policy  string
		start   []int64 // tasks: job 1, job 2, job 4, job 3
		stretch []float64
	}{
		{"fcfs", []int64{0, 5, 1, 20}, []float64{1, 1, 1}},
		{"ostrich", []int64{0, 5, 1, 20}, []float64{1, 1, 1}},
		{"log", []int64{0, 10, 13, 20}, []float64{1.3, 13, 1}},
	} {
		rows, start := simulateCampaigns(t, w, 2, tc.policy)
		var stretch []float64
		for _, r := range rows {
			stretch = append(stretch, r.Stretch)
		}
		if !slices.Equal(start, tc.start) || !slices.Equal(stretch, tc.stretch) {
			t.Errorf("%s: starts %v stretches %v; want %v %v", tc.policy, start, stretch, tc.start, tc.stretch)
		}
	}
}

// simulateCampaigns schedules w on machines processors under policy with
// the default options and measures its campaigns with the default base.
func simulateCampaigns(t *testing.T, w *wc.Workload, machines int, policy string) ([]mcampaign.CampaignRow, []int64) {
	t.Helper()
	in, err := ec.Compile(w, machines)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ec.Simulate(context.Background(), in, w, policy, ec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := mcampaign.CampaignRows(w, s, "")
	if err != nil {
		t.Fatal(err)
	}
	return rows, s.TaskStart
}
