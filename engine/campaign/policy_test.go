package campaign_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/engine/enginetest"
	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	wc "github.com/sweep-sched/sweep/workload/campaign"
)

func jobsOf(execs ...int64) []wc.Job {
	out := make([]wc.Job, len(execs))
	for i, e := range execs {
		out[i] = wc.Job{ExecTicks: e}
	}
	return out
}

func simulate(t *testing.T, w *wc.Workload, machines int, policy string, opts ecampaign.Options) ([]mcampaign.CampaignRow, []int64, []int64) {
	t.Helper()
	in, err := ecampaign.Compile(w, machines)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ecampaign.Simulate(context.Background(), in, w, policy, opts)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckSchedule(t, s, policy)
	rows, err := mcampaign.CampaignRows(w, s, "")
	if err != nil {
		t.Fatal(err)
	}
	return rows, s.TaskStart, s.JobArrival
}

// threeUsers is a hand-made set on 1 machine: user A submits a1 = [3] at 0
// and, in closed loop, a2 = [1]; user B submits b1 = [4] at 1; user C
// submits c1 = [1] at 2. Campaign indices: a1 0, a2 1, b1 2, c1 3.
func threeUsers() *wc.Workload {
	return &wc.Workload{
		Users: []wc.User{{ID: "A"}, {ID: "B"}, {ID: "C"}},
		Campaigns: []wc.Campaign{
			{User: 0, SubmitTicks: 0, Jobs: jobsOf(3)},
			{User: 0, SubmitTicks: 0, Jobs: jobsOf(1)},
			{User: 1, SubmitTicks: 1, Jobs: jobsOf(4)},
			{User: 2, SubmitTicks: 2, Jobs: jobsOf(1)},
		},
	}
}

func TestPoliciesOnThreeUsers(t *testing.T) {
	for _, tc := range []struct {
		policy     string
		hold       string
		submit     []int64
		completion []int64
		stretch    []float64
	}{
		{
			policy: "fcfs",
			// a1 runs 0-3; a2 is submitted at 3, behind b1 (1) and c1 (2):
			// b1 3-7, c1 7-8, a2 8-9. Alone on 1 machine a campaign takes
			// its work: 3, 1, 4, 1.
			submit:     []int64{0, 3, 1, 2},
			completion: []int64{3, 9, 7, 8},
			stretch:    []float64{1, 6, 1.5, 6},
		},
		{
			policy: "ostrich",
			hold:   ecampaign.HoldNone,
			// Virtual schedule (m = 1): at 1, A has 2 left, k = 2: C(a1) =
			// 1 + 2x2 = 5, C(b1) = 1 + 2x4 = 9. At 2, A 1.5 and B 3.5 left,
			// k = 3: C(c1) = 2 + 3x1 = 5. At 3 (a1 done in real, 7/6 left
			// virtually; B 19/6; C 2/3), a2 queues behind a1: C(a2) = 3 +
			// 3x(7/6 + 1) = 9.5 < C(b1) = 3 + 3x19/6 = 12.5, C(c1) = 5:
			// c1 runs 3-4. At 4 C(a2) = 4 + 3x(5/6 + 1) = 9.5 < C(b1) =
			// 12.5: a2 4-5, then b1 5-9.
			submit:     []int64{0, 3, 1, 2},
			completion: []int64{3, 5, 9, 4},
			stretch:    []float64{1, 2, 2, 2},
		},
		{
			policy: "ostrich",
			hold:   ecampaign.HoldVirtualStart,
			// The same virtual schedule, but a2 waits for a1's virtual
			// completion. From 3 (k = 3) c1 completes at 3 + 3x2/3 = 5;
			// then k = 2 and a1's 7/6 - 2/3 = 1/2 left takes 1: a2 starts
			// virtually at 6. c1 runs 3-4; at 4 a2 is held and b1 runs
			// 4-8; a2 runs 8-9.
			submit:     []int64{0, 3, 1, 2},
			completion: []int64{3, 9, 8, 4},
			stretch:    []float64{1, 6, 1.75, 2},
		},
	} {
		t.Run(tc.policy+"/"+tc.hold, func(t *testing.T) {
			rows, _, _ := simulate(t, threeUsers(), 1, tc.policy, ecampaign.Options{Hold: tc.hold})
			for c, r := range rows {
				if r.SubmitTicks != tc.submit[c] || r.CompletionTicks != tc.completion[c] || r.Stretch != tc.stretch[c] {
					t.Errorf("campaign %d: submit %d completion %d stretch %g; want %d %d %g",
						c, r.SubmitTicks, r.CompletionTicks, r.Stretch, tc.submit[c], tc.completion[c], tc.stretch[c])
				}
			}
		})
	}
}

// TestOstrichTie: on 1 machine users A and B each submit one job of 2 at
// 0. With k = 2 each is served 1/2 per tick, so both virtual completions
// are 0 + 2 x 2 = 4: the tie goes to the lower campaign index, A (0-2),
// then B (2-4).
func TestOstrichTie(t *testing.T) {
	w := &wc.Workload{
		Users:     []wc.User{{ID: "A"}, {ID: "B"}},
		Campaigns: []wc.Campaign{{User: 0, Jobs: jobsOf(2)}, {User: 1, Jobs: jobsOf(2)}},
	}
	for _, hold := range ecampaign.Holds() {
		if _, start, _ := simulate(t, w, 1, "ostrich", ecampaign.Options{Hold: hold}); !slices.Equal(start, []int64{0, 2}) {
			t.Errorf("hold %s: starts %v, want [0 2]", hold, start)
		}
	}
}

// TestOstrichJobOrder: one campaign [5, 1, 3] alone on 1 machine runs its
// jobs back to back in the chosen order.
func TestOstrichJobOrder(t *testing.T) {
	for _, tc := range []struct {
		order string
		start []int64 // per listed job
	}{
		{"", []int64{4, 0, 1}},     // SPT: 1 (0-1), 3 (1-4), 5 (4-9)
		{"lpt", []int64{0, 8, 5}},  // LPT: 5 (0-5), 3 (5-8), 1 (8-9)
		{"fifo", []int64{0, 5, 6}}, // listed: 5 (0-5), 1 (5-6), 3 (6-9)
	} {
		w := &wc.Workload{Users: []wc.User{{ID: "A"}}, Campaigns: []wc.Campaign{{Jobs: jobsOf(5, 1, 3)}}}
		_, start, _ := simulate(t, w, 1, "ostrich", ecampaign.Options{JobOrder: tc.order})
		if !slices.Equal(start, tc.start) {
			t.Errorf("order %q: starts %v, want %v", tc.order, start, tc.start)
		}
	}
	w := &wc.Workload{Users: []wc.User{{ID: "A"}}, Campaigns: []wc.Campaign{{Jobs: jobsOf(1)}}}
	in, _ := ecampaign.Compile(w, 1)
	if _, err := ecampaign.Simulate(context.Background(), in, w, "ostrich", ecampaign.Options{JobOrder: "random"}); err == nil || !strings.Contains(err.Error(), `"spt"`) {
		t.Errorf("unknown job order: error %v, want one listing the valid orders", err)
	}
}

// TestClosedLoopRelease: one user on 1 machine. c1 = [2] at 0 completes at
// 2; c2 (submit 1, think 3) is submitted at max(1, 2+3) = 5 and completes
// at 6; c3 (submit 10, think 0) is submitted at max(10, 6+0) = 10 and
// completes at 11. In open loop (Options.Loop) each is submitted at its
// submit time.
func TestClosedLoopRelease(t *testing.T) {
	w := &wc.Workload{
		Users: []wc.User{{ID: "A"}},
		Campaigns: []wc.Campaign{
			{Jobs: jobsOf(2)},
			{SubmitTicks: 1, ThinkTicks: 3, Jobs: jobsOf(1)},
			{SubmitTicks: 10, Jobs: jobsOf(1)},
		},
	}
	for _, policy := range []string{"fcfs", "ostrich"} {
		rows, _, arrival := simulate(t, w, 1, policy, ecampaign.Options{})
		if want := []int64{0, 5, 10}; !slices.Equal(arrival, want) {
			t.Errorf("%s: submissions %v, want %v", policy, arrival, want)
		}
		var done []int64
		for _, r := range rows {
			done = append(done, r.CompletionTicks)
		}
		if want := []int64{2, 6, 11}; !slices.Equal(done, want) {
			t.Errorf("%s: completions %v, want %v", policy, done, want)
		}
		// Open loop: the second campaign is submitted at 1, while the
		// first runs, and runs 2-3 (under ostrich, held until its virtual
		// start 2, the first's virtual completion on 1 machine).
		rows, _, arrival = simulate(t, w, 1, policy, ecampaign.Options{Loop: ecampaign.LoopOpen})
		done = done[:0]
		for _, r := range rows {
			done = append(done, r.CompletionTicks)
		}
		if want := []int64{0, 1, 10}; !slices.Equal(arrival, want) {
			t.Errorf("%s, open loop: submissions %v, want %v", policy, arrival, want)
		}
		if want := []int64{2, 3, 11}; !slices.Equal(done, want) {
			t.Errorf("%s, open loop: completions %v, want %v", policy, done, want)
		}
	}
}

// TestLogReplay: 2 machines. Campaign 0 (submit 0) has jobs exec 3
// recorded at 2 and exec 1 at 0: it completes at 5; alone on 2
// machines it takes 3 (both at 0), stretch 5/3. Campaign 1 (submit 4) has
// exec 2 recorded at 7: completes at 9, alone 2, stretch 5/2.
func TestLogReplay(t *testing.T) {
	at := func(t int64) *int64 { return &t }
	w := &wc.Workload{
		Users: []wc.User{{ID: "A"}, {ID: "B"}},
		Campaigns: []wc.Campaign{
			{User: 0, Jobs: []wc.Job{{ExecTicks: 3, LogStartTicks: at(2)}, {ExecTicks: 1, LogStartTicks: at(0)}}},
			{User: 1, SubmitTicks: 4, Jobs: []wc.Job{{ExecTicks: 2, LogStartTicks: at(7)}}},
		},
	}
	rows, start, _ := simulate(t, w, 2, "log", ecampaign.Options{})
	if want := []int64{2, 0, 7}; !slices.Equal(start, want) {
		t.Errorf("starts %v, want %v", start, want)
	}
	want := []mcampaign.CampaignRow{
		{User: "A", Campaign: 1, Jobs: 2, SubmitTicks: 0, CompletionTicks: 5, WorkTicks: 4, Stretch: 5.0 / 3},
		{User: "B", Campaign: 1, Jobs: 1, SubmitTicks: 4, CompletionTicks: 9, WorkTicks: 2, Stretch: 2.5},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows %+v, want %+v", rows, want)
	}
	w.Campaigns[1].Jobs[0].LogStartTicks = nil
	in, _ := ecampaign.Compile(w, 2)
	if _, err := ecampaign.Simulate(context.Background(), in, w, "log", ecampaign.Options{}); err == nil || !strings.Contains(err.Error(), "log_start") {
		t.Errorf("missing recorded start: error %v, want one naming log_start", err)
	}
}

func TestSimulateRejects(t *testing.T) {
	w := threeUsers()
	in, _ := ecampaign.Compile(w, 1)
	if _, err := ecampaign.Simulate(context.Background(), in, w, "sjf", ecampaign.Options{}); err == nil || !strings.Contains(err.Error(), "fcfs") {
		t.Errorf("unknown policy: error %v, want one listing the policies", err)
	}
	if _, err := ecampaign.Simulate(context.Background(), in, w, "ostrich", ecampaign.Options{Hold: "forever"}); err == nil || !strings.Contains(err.Error(), "virtual-start") {
		t.Errorf("unknown hold: error %v, want one listing the valid holds", err)
	}
	if _, err := ecampaign.Simulate(context.Background(), in, w, "fcfs", ecampaign.Options{Loop: "spiral"}); err == nil || !strings.Contains(err.Error(), "[closed open]") {
		t.Errorf("unknown loop: error %v, want one listing the valid loops", err)
	}
	other := &wc.Workload{Users: []wc.User{{ID: "A"}}, Campaigns: []wc.Campaign{{Jobs: jobsOf(1)}}}
	if _, err := ecampaign.Simulate(context.Background(), in, other, "fcfs", ecampaign.Options{}); err == nil {
		t.Error("instance of another workload: no error")
	}
}

// seed000Example is the instance of seed 000 Sec. IV-B on 6 machines with
// job sizes that give the paper's works (the text gives works, not jobs):
// user 1 submits 4 jobs of 12 (W = 48) at 0, user 2 6 jobs of 3 (W = 18)
// at 0, user 3 5 jobs of 2 (W = 10) at 2 and, in closed loop, 4 jobs of 2
// (W = 8) at 5. Tasks: user 1 0-3, user 2 4-9, user 3 10-14 and 15-18.
func seed000Example() *wc.Workload {
	return &wc.Workload{
		Users: []wc.User{{ID: "1"}, {ID: "2"}, {ID: "3"}},
		Campaigns: []wc.Campaign{
			{User: 0, Jobs: jobsOf(12, 12, 12, 12)},
			{User: 1, Jobs: jobsOf(3, 3, 3, 3, 3, 3)},
			{User: 2, SubmitTicks: 2, Jobs: jobsOf(2, 2, 2, 2, 2)},
			{User: 2, SubmitTicks: 5, Jobs: jobsOf(2, 2, 2, 2)},
		},
	}
}

// TestOstrichHoldSeed000Example: the virtual schedule is the paper's
// (TestVirtualScheduleSeed000Example): C(1) = 16 and C(2) = 6 at 0, C(3,1)
// = 7 and C(1) = 23 from 2, user 3's second campaign starts virtually at
// 7 with C = 11. Real schedule, both holds: user 2 (6 < 16) takes all 6
// machines 0-3, so user 3 waits from 2 to 3; at 3 user 3 (7 < 23) runs its
// five 2s 3-5 and user 1 one 12 3-15. At 5 user 3 completes and submits
// her second campaign; 5 machines are free.
//   - none: it ranks first (11 < 23) and runs 5-7 on 4 machines; user 1
//     starts a 12 at 5 and its last two at 7: user 1 completes at 19.
//   - virtual-start: it is held until 7, so user 1 starts its three 12s
//     at 5 (done 17) and 2 machines idle. Nothing happens at 7 but the
//     wake-up: the campaign starts virtually and its 2s run 7-9 on the
//     idle machines, the other two 9-11.
func TestOstrichHoldSeed000Example(t *testing.T) {
	for _, tc := range []struct {
		hold       string
		start      []int64
		completion []int64
	}{
		{ecampaign.HoldNone,
			[]int64{3, 5, 7, 7, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 5, 5, 5, 5},
			[]int64{19, 3, 5, 7}},
		{ecampaign.HoldVirtualStart,
			[]int64{3, 5, 5, 5, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 7, 7, 9, 9},
			[]int64{17, 3, 5, 11}},
		{"", // the default holds
			[]int64{3, 5, 5, 5, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 7, 7, 9, 9},
			[]int64{17, 3, 5, 11}},
	} {
		rows, start, arrival := simulate(t, seed000Example(), 6, "ostrich", ecampaign.Options{Hold: tc.hold})
		if want := []int64{0, 0, 2, 5}; !slices.Equal(arrival, want) {
			t.Errorf("hold %q: submissions %v, want %v", tc.hold, arrival, want)
		}
		if !slices.Equal(start, tc.start) {
			t.Errorf("hold %q: starts %v, want %v", tc.hold, start, tc.start)
		}
		var done []int64
		for _, r := range rows {
			done = append(done, r.CompletionTicks)
		}
		if !slices.Equal(done, tc.completion) {
			t.Errorf("hold %q: completions %v, want %v", tc.hold, done, tc.completion)
		}
	}
}

// holdWorkload is on 2 machines: user A submits a1 = [2, 2] at 0 and, in
// closed loop, a2 = [1]; user B submits b1 = [10] at 0; with late, user C
// submits c1 = [1] at 3. Campaigns a1 0, a2 1, b1 2, c1 3; tasks a1 0-1,
// a2 2, b1 3, c1 4.
func holdWorkload(late bool) *wc.Workload {
	w := &wc.Workload{
		Users: []wc.User{{ID: "A"}, {ID: "B"}, {ID: "C"}},
		Campaigns: []wc.Campaign{
			{User: 0, Jobs: jobsOf(2, 2)},
			{User: 0, Jobs: jobsOf(1)},
			{User: 1, Jobs: jobsOf(10)},
		},
	}
	if late {
		w.Campaigns = append(w.Campaigns, wc.Campaign{User: 2, SubmitTicks: 3, Jobs: jobsOf(1)})
	}
	return w
}

// TestOstrichWakeFollowsVirtualStart: in holdWorkload, a1 (C = 0 + 2x4/2 =
// 4) beats b1 (C = 10) and runs 0-2; a2 is submitted at 2, when a1 has 2
// left virtually and b1 8: a2 starts virtually at 2 + (2 + 2)/2 = 4. b1
// runs from 2 on one machine, the other idles. Without C the wake-up is
// at 4 and a2 runs 4-5 (with hold none, 2-3). C's arrival at 3 raises k
// to 3 when a1 and c1 both have 1 left: a2's start moves to 3 + (1 + 1 +
// 1)/2 = 9/2, so the wake-up moves to 5; c1 runs 3-4, the machine idles
// 4-5 and a2 runs 5-6.
func TestOstrichWakeFollowsVirtualStart(t *testing.T) {
	for _, tc := range []struct {
		late  bool
		hold  string
		start []int64
	}{
		{false, ecampaign.HoldVirtualStart, []int64{0, 0, 4, 2}},
		{false, ecampaign.HoldNone, []int64{0, 0, 2, 2}},
		{true, ecampaign.HoldVirtualStart, []int64{0, 0, 5, 2, 3}},
	} {
		_, start, _ := simulate(t, holdWorkload(tc.late), 2, "ostrich", ecampaign.Options{Hold: tc.hold})
		if !slices.Equal(start, tc.start) {
			t.Errorf("late %v hold %q: starts %v, want %v", tc.late, tc.hold, start, tc.start)
		}
	}

	// The same steps on the order itself: NextWake is 4 once a2 is
	// held, 5 after C's arrival, none once a2 runs.
	w := holdWorkload(true)
	in, err := ecampaign.Compile(w, 2)
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := ecampaign.JobOrder(in, "")
	o := ecampaign.NewOstrichOrder(in, w, inner, true)
	wake := func(now, want int64, ok bool) {
		t.Helper()
		if got, gotOK := o.NextWake(now); got != want || gotOK != ok {
			t.Errorf("NextWake(%d) = %d, %v; want %d, %v", now, got, gotOK, want, ok)
		}
	}
	pass := func(now int64, free int, want ...int32) {
		t.Helper()
		o.BeginPass(now)
		var got []int32
		for ; free > 0; free-- {
			if _, ok := o.Head(); !ok {
				break
			}
			got = append(got, o.Pop())
		}
		if !slices.Equal(got, want) {
			t.Errorf("pass at %d started %v, want %v", now, got, want)
		}
	}
	o.Push(0, 0)
	o.Push(1, 0)
	o.Push(3, 0)
	pass(0, 2, 0, 1)
	wake(0, 0, false)
	o.Push(2, 2)
	pass(2, 2, 3)
	wake(2, 4, true)
	o.Push(4, 3)
	wake(3, 5, true)
	pass(3, 1, 4)
	pass(4, 1)
	wake(4, 5, true)
	pass(5, 1, 2)
	wake(5, 0, false)
}

// randomCampaigns builds users who submit campaigns of 1-6 jobs of 1-20
// ticks at random ticks in [0, span) with think times of 0-10; a third of
// the campaigns release their later jobs 0-15 ticks after the first, as
// trace campaigns do.
func randomCampaigns(seed uint64, users, campaigns int, span int64) *wc.Workload {
	r := rand.New(rand.NewPCG(seed, 11))
	w := &wc.Workload{}
	for u := range users {
		w.Users = append(w.Users, wc.User{ID: fmt.Sprintf("u%d", u+1)})
	}
	for range campaigns {
		c := wc.Campaign{User: r.IntN(users), SubmitTicks: r.Int64N(span), ThinkTicks: r.Int64N(11)}
		staggered := r.IntN(3) == 0
		for k := range 1 + r.IntN(6) {
			job := wc.Job{ExecTicks: 1 + r.Int64N(20)}
			if staggered && k > 0 {
				job.ReleaseTicks = r.Int64N(16)
			}
			c.Jobs = append(c.Jobs, job)
		}
		w.Campaigns = append(w.Campaigns, c)
	}
	return w
}

// TestRandomCampaignsValid runs the schedule validator on randomized
// campaign workloads under fcfs (strict head of queue in submission order)
// and every ostrich variant (capacity, releases, exactly once), and
// replays each fcfs schedule under log: the replay must start every job
// when fcfs did and be valid too.
func TestRandomCampaignsValid(t *testing.T) {
	variants := []struct {
		policy string
		opts   ecampaign.Options
	}{
		{"fcfs", ecampaign.Options{}},
		{"ostrich", ecampaign.Options{Hold: ecampaign.HoldVirtualStart}},
		{"ostrich", ecampaign.Options{Hold: ecampaign.HoldNone}},
		{"ostrich", ecampaign.Options{JobOrder: ecampaign.JobOrderLPT}},
		{"ostrich", ecampaign.Options{JobOrder: ecampaign.JobOrderFIFO, Hold: ecampaign.HoldNone}},
	}
	for seed := uint64(1); seed <= 4; seed++ {
		for _, machines := range []int{1, 3, 8} {
			w := randomCampaigns(seed, 4, 40, 200)
			in, err := ecampaign.Compile(w, machines)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range variants {
				t.Run(fmt.Sprintf("%d/%d/%s/%s/%s", seed, machines, v.policy, v.opts.Hold, v.opts.JobOrder), func(t *testing.T) {
					s, err := ecampaign.Simulate(context.Background(), in, w, v.policy, v.opts)
					if err != nil {
						t.Fatal(err)
					}
					enginetest.CheckSchedule(t, s, v.policy)
					if v.policy != "fcfs" {
						return
					}
					for c := range w.Campaigns {
						first, _ := in.JobTasks(c)
						for k := range w.Campaigns[c].Jobs {
							w.Campaigns[c].Jobs[k].LogStartTicks = &s.TaskStart[first+k]
						}
					}
					defer func() {
						for c := range w.Campaigns {
							for k := range w.Campaigns[c].Jobs {
								w.Campaigns[c].Jobs[k].LogStartTicks = nil
							}
						}
					}()
					replay, err := ecampaign.Simulate(context.Background(), in, w, "log", ecampaign.Options{})
					if err != nil {
						t.Fatal(err)
					}
					enginetest.CheckSchedule(t, replay, "log")
					if !slices.Equal(replay.TaskStart, s.TaskStart) {
						t.Errorf("log replay starts %v, fcfs %v", replay.TaskStart, s.TaskStart)
					}
				})
			}
		}
	}
}
