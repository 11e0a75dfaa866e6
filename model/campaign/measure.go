package campaign

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"

	"github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/internal/pqueue"
	"github.com/sweep-sched/sweep/workload/campaign"
)

// A CampaignRow measures one campaign of one schedule: a row of the
// optional `campaigns` Parquet table (the runner adds cell_id).
type CampaignRow struct {
	User            string  `json:"user"`
	Profile         string  `json:"profile"`
	Campaign        int64   `json:"campaign"` // 1-based ordinal among the user's campaigns
	Jobs            int64   `json:"jobs"`
	SubmitTicks     int64   `json:"submit"`     // real submission
	CompletionTicks int64   `json:"completion"` // last job's finish
	WorkTicks       int64   `json:"work"`       // processor-ticks
	Stretch         float64 `json:"stretch"`
	// Exact1 reports a stretch of exactly 1, decided in integers.
	Exact1 bool `json:"-"`
}

// Stretch bases (the base argument of CampaignRows): what a campaign's
// flow time is divided by. The base does not depend on the policy, so
// fcfs, ostrich and log are divided by the same number.
//
//   - "bound" (the default; DESIGN.md section 4 since issue 11): seed
//     001 Sec. 3's lower bound on the campaign's flow time,
//     l = max(W/m, pmax), W the campaign's work and pmax its longest job
//     (BoundFlowTicks). It ignores when a trace campaign's jobs were
//     submitted: the campaign is measured as if all its work had arrived
//     at its submission, as in the papers' model. With release offsets a
//     schedule can then not reach it, but none beats it either, so the
//     stretch is never below 1.
//   - "bound-release" (ours): the same bound with pmax generalised to the
//     latest release + exec of a job (BoundReleaseFlowTicks), which counts
//     a trace campaign's spread of submit times as time no schedule can
//     save. It equals "bound" when every offset is 0.
//   - "alone" (ours; DESIGN.md section 4 before issue 11): the campaign's
//     flow time alone on the empty m-processor machine, the greedy list
//     schedule of its jobs, shortest submitted job first, each released at
//     its offset (AloneFlowTicks). It is 1 exactly when the campaign did
//     as well as if it had had the machine to itself under ostrich's
//     default order. It is a schedule, not the optimum, so another order
//     (LPT, the log's) can do better and give a stretch below 1.
//
// All are computed exactly in integers, and so is a stretch of exactly 1
// (CampaignRow.Exact1). A campaign whose base is 0 (no work: every job ran
// 0 seconds) has an infinite stretch: it is above every cut, so the
// trimmed statistics count it among the dropped.
const (
	// StretchBaseBound divides by seed 001's lower bound max(W/m, pmax)
	// (BoundFlowTicks). It is the default, also when empty.
	StretchBaseBound = "bound"
	// StretchBaseBoundRelease divides by max(W/m, max(release + exec))
	// (BoundReleaseFlowTicks).
	StretchBaseBoundRelease = "bound-release"
	// StretchBaseAlone divides by the campaign's flow time alone on the
	// empty machine (AloneFlowTicks).
	StretchBaseAlone = "alone"
)

// StretchBases lists the values Options.StretchBase accepts, the default
// first.
func StretchBases() []string {
	return []string{StretchBaseBound, StretchBaseBoundRelease, StretchBaseAlone}
}

func checkStretchBase(name string) error {
	if name == "" || slices.Contains(StretchBases(), name) {
		return nil
	}
	return fmt.Errorf("stretch base %q: want one of %v", name, StretchBases())
}

// CampaignRows measures every campaign of schedule s of workload w, in
// campaign order, on the schedule's m processors, with the stretch base
// base (StretchBaseBound when empty; the base does not depend on the
// policy). The stretch is computed from integers: flow x m / max(W, m x
// pmax) for the bounds, flow / alone for alone.
func CampaignRows(w *campaign.Workload, s *grid.Schedule, base string) ([]CampaignRow, error) {
	if err := checkStretchBase(base); err != nil {
		return nil, fmt.Errorf("measure campaigns: %w", err)
	}
	m := s.Instance.Platform.TotalCores()
	ord := w.Ordinals()
	rows := make([]CampaignRow, len(w.Campaigns))
	for c := range w.Campaigns {
		camp := &w.Campaigns[c]
		flow := s.JobFinish[c] - s.JobArrival[c]
		// The stretch is num / den, both integers.
		var num, den int64
		switch base {
		case StretchBaseAlone:
			num, den = flow, AloneFlowTicks(camp, m)
		case StretchBaseBoundRelease:
			num, den = flow*int64(m), BoundReleaseFlowTicks(camp, m)
		default:
			num, den = flow*int64(m), BoundFlowTicks(camp, m)
		}
		stretch := math.Inf(1)
		if den > 0 {
			stretch = float64(num) / float64(den)
		}
		u := w.Users[camp.User]
		rows[c] = CampaignRow{
			User:            u.ID,
			Profile:         u.Profile,
			Campaign:        int64(ord[c]),
			Jobs:            int64(len(camp.Jobs)),
			SubmitTicks:     s.JobArrival[c],
			CompletionTicks: s.JobFinish[c],
			WorkTicks:       camp.WorkTicks(),
			Stretch:         stretch,
			Exact1:          den > 0 && num == den,
		}
	}
	return rows, nil
}

// AloneFlowTicks returns campaign c's flow time alone on m >= 1 empty
// identical processors: the greedy list schedule that, whenever a
// processor is free, starts the shortest submitted job (ties by listed
// order), each job submitted ReleaseTicks after the campaign. It is the
// schedule ostrich, with its default job order, builds for a campaign
// that has the machine to itself, which then has stretch 1 exactly. It
// is not the optimum (minimising it is NP-hard): a schedule in another
// order, such as fcfs's listed order or the log's, may beat it.
func AloneFlowTicks(c *campaign.Campaign, m int) int64 {
	byRelease := make([]int32, len(c.Jobs))
	for k := range byRelease {
		byRelease[k] = int32(k)
	}
	slices.SortStableFunc(byRelease, func(a, b int32) int {
		return cmp.Compare(c.Jobs[a].ReleaseTicks, c.Jobs[b].ReleaseTicks)
	})
	ready := pqueue.New(func(a, b int32) bool {
		ea, eb := c.Jobs[a].ExecTicks, c.Jobs[b].ExecTicks
		return ea < eb || (ea == eb && a < b)
	})
	procs := min(m, len(c.Jobs))
	free := make([]int64, procs)
	idle := pqueue.New(func(a, b int32) bool { return free[a] < free[b] || (free[a] == free[b] && a < b) })
	for p := range procs {
		idle.Push(int32(p))
	}
	var flow int64
	next := 0
	for range c.Jobs {
		p := idle.Pop()
		now := free[p]
		if ready.Len() == 0 {
			now = max(now, c.Jobs[byRelease[next]].ReleaseTicks)
		}
		for ; next < len(byRelease) && c.Jobs[byRelease[next]].ReleaseTicks <= now; next++ {
			ready.Push(byRelease[next])
		}
		free[p] = now + c.Jobs[ready.Pop()].ExecTicks
		flow = max(flow, free[p])
		idle.Push(p)
	}
	return flow
}

// BoundFlowTicks returns m times seed 001's lower bound on campaign c's
// flow time on m processors, max(W/m, pmax) with pmax its longest job, in
// m-ths of a tick so that it is an integer: max(W, m x pmax).
func BoundFlowTicks(c *campaign.Campaign, m int) int64 {
	return max(c.WorkTicks(), int64(m)*c.LongestTicks())
}

// BoundReleaseFlowTicks is BoundFlowTicks with pmax taken as the latest
// release + exec of a job, max(W, m x max(release + exec)): a bound that no
// schedule of the jobs at their own submit times can beat either.
func BoundReleaseFlowTicks(c *campaign.Campaign, m int) int64 {
	var last int64
	for _, j := range c.Jobs {
		last = max(last, j.ReleaseTicks+j.ExecTicks)
	}
	return max(c.WorkTicks(), int64(m)*last)
}

// A CampaignSummary holds the papers' figures of merit for one schedule.
// Trimmed statistics leave out campaigns with stretch > table.CampaignOutlierStretch, as
// seed 000 does. Quantiles interpolate linearly between order statistics
// (Hyndman-Fan type 7, the default of R and NumPy). A mean over users of a
// profile is NaN when the workload has no such user. A campaign without
// work (infinite stretch: a trace campaign of jobs that ran 0 seconds)
// counts in the shares above 20, 100 and 1000 and so is dropped from every
// trimmed statistic; the untrimmed mean and max and the per-user maxima
// leave it out, so that they stay finite (NaN for a user who has no other
// campaign).
type CampaignSummary struct {
	Campaigns    int64
	StretchMean  float64
	StretchMax   float64
	Over20Share  float64 // fraction of campaigns with stretch > 20 (seed 001)
	OutlierShare float64 // fraction with stretch > table.CampaignOutlierStretch
	TrimmedMean  float64 // seed 000's mean stretch
	// Trimmed20Mean and Trimmed100Mean are the mean stretch of the
	// campaigns with stretch <= 20 and <= 100: the trimmed mean at stricter
	// cuts, which the few campaigns of short jobs caught behind a user who
	// fills the machine (seed 000's footnote 4) move less.
	Trimmed20Mean    float64
	Trimmed100Mean   float64
	TrimmedExact1    float64 // fraction at exactly 1, of the trimmed set
	TrimmedP50       float64
	TrimmedP90       float64
	TrimmedP99       float64
	UserMaxMean      float64 // mean over users of their max campaign stretch
	ShortUserMaxMean float64 // the same over campaign.ProfileShort users (seed 001)
	LongUserMaxMean  float64 // the same over campaign.ProfileLong users
}

// SummarizeCampaigns computes the CampaignSummary of rows (one schedule's
// campaigns).
func SummarizeCampaigns(rows []CampaignRow) CampaignSummary {
	s := CampaignSummary{Campaigns: int64(len(rows))}
	if len(rows) == 0 {
		nan := math.NaN()
		return CampaignSummary{StretchMean: nan, StretchMax: nan, Over20Share: nan, OutlierShare: nan, TrimmedMean: nan,
			Trimmed20Mean: nan, Trimmed100Mean: nan, TrimmedExact1: nan, TrimmedP50: nan, TrimmedP90: nan, TrimmedP99: nan,
			UserMaxMean: nan, ShortUserMaxMean: nan, LongUserMaxMean: nan}
	}
	var sum, trimmedSum, sum20, sum100 float64
	var over20, over100, outliers, exact1 int
	trimmed := make([]float64, 0, len(rows))
	userMax := map[string]float64{}
	profileOf := map[string]string{}
	var users []string
	finite := 0
	for _, r := range rows {
		if _, ok := userMax[r.User]; !ok {
			users = append(users, r.User)
			profileOf[r.User] = r.Profile
			userMax[r.User] = math.NaN()
		}
		if !math.IsInf(r.Stretch, 1) {
			finite++
			sum += r.Stretch
			s.StretchMax = max(s.StretchMax, r.Stretch)
			if m := userMax[r.User]; math.IsNaN(m) || r.Stretch > m {
				userMax[r.User] = r.Stretch
			}
		}
		if r.Stretch > 20 {
			over20++
		} else {
			sum20 += r.Stretch
		}
		if r.Stretch > 100 {
			over100++
		} else {
			sum100 += r.Stretch
		}
		if r.Stretch > table.CampaignOutlierStretch {
			outliers++
		} else {
			trimmed = append(trimmed, r.Stretch)
			trimmedSum += r.Stretch
			if r.Exact1 {
				exact1++
			}
		}
	}
	n := float64(len(rows))
	s.StretchMean = sum / float64(finite)
	if finite == 0 {
		s.StretchMax = math.NaN()
	}
	s.Over20Share = float64(over20) / n
	s.OutlierShare = float64(outliers) / n
	nt := float64(len(trimmed))
	s.TrimmedMean = trimmedSum / nt
	s.Trimmed20Mean = sum20 / (n - float64(over20))
	s.Trimmed100Mean = sum100 / (n - float64(over100))
	s.TrimmedExact1 = float64(exact1) / nt
	slices.Sort(trimmed)
	s.TrimmedP50 = stats.Quantile(trimmed, 0.5)
	s.TrimmedP90 = stats.Quantile(trimmed, 0.9)
	s.TrimmedP99 = stats.Quantile(trimmed, 0.99)
	mean := func(profile string, any bool) float64 {
		var total float64
		var count int
		for _, u := range users {
			if (any || profileOf[u] == profile) && !math.IsNaN(userMax[u]) {
				total += userMax[u]
				count++
			}
		}
		if count == 0 {
			return math.NaN()
		}
		return total / float64(count)
	}
	s.UserMaxMean = mean("", true)
	s.ShortUserMaxMean = mean(campaign.ProfileShort, false)
	s.LongUserMaxMean = mean(campaign.ProfileLong, false)
	return s
}

// A CampaignColumn is one CampaignSummary field as a measure of the cells
// table with its getter, like MetricColumn for ScheduleMetrics.
type CampaignColumn struct {
	table.Measure
	Int   func(*CampaignSummary) int64   // Integer columns only
	Float func(*CampaignSummary) float64 // every column, integers converted
}

// CampaignColumns returns the CampaignSummary's columns in the order the
// runner adds them to the cells table of a manifest with campaign
// workloads; each call returns a new slice. Shares are fractions from 0 to
// 1; "trimmed" statistics leave out the campaigns with stretch >
// table.CampaignOutlierStretch, as seed 000 does.
func CampaignColumns() []CampaignColumn {
	f := func(name, unit string, better table.Direction, doc string, value func(*CampaignSummary) float64) CampaignColumn {
		return CampaignColumn{Measure: table.Measure{Name: name, Unit: unit, Better: better, Doc: doc}, Float: value}
	}
	lower, higher := table.LowerIsBetter, table.HigherIsBetter
	return []CampaignColumn{
		{Measure: table.Measure{Name: table.CampaignCount, Integer: true, Unit: "campaigns", Better: table.Descriptive, Doc: "campaigns of the workload"},
			Int:   func(s *CampaignSummary) int64 { return s.Campaigns },
			Float: func(s *CampaignSummary) float64 { return float64(s.Campaigns) }},
		f("campaign_stretch_mean", "ratio", lower, "mean campaign stretch", func(s *CampaignSummary) float64 { return s.StretchMean }),
		f("campaign_stretch_max", "ratio", lower, "largest campaign stretch", func(s *CampaignSummary) float64 { return s.StretchMax }),
		f("campaign_stretch_over20_share", "fraction", lower, "campaigns with stretch > 20", func(s *CampaignSummary) float64 { return s.Over20Share }),
		f("campaign_stretch_outlier_share", "fraction", lower, "campaigns with stretch above the outlier cut, table.CampaignOutlierStretch", func(s *CampaignSummary) float64 { return s.OutlierShare }),
		f("campaign_stretch_trimmed_mean", "ratio", lower, "mean stretch without outliers", func(s *CampaignSummary) float64 { return s.TrimmedMean }),
		f("campaign_stretch_trimmed20_mean", "ratio", lower, "mean stretch of the campaigns with stretch <= 20", func(s *CampaignSummary) float64 { return s.Trimmed20Mean }),
		f("campaign_stretch_trimmed100_mean", "ratio", lower, "mean stretch of the campaigns with stretch <= 100", func(s *CampaignSummary) float64 { return s.Trimmed100Mean }),
		f("campaign_stretch_trimmed_exact1_share", "fraction", higher, "campaigns with stretch exactly 1, outliers left out", func(s *CampaignSummary) float64 { return s.TrimmedExact1 }),
		f("campaign_stretch_trimmed_p50", "ratio", lower, "median stretch without outliers", func(s *CampaignSummary) float64 { return s.TrimmedP50 }),
		f("campaign_stretch_trimmed_p90", "ratio", lower, "90th percentile of stretch without outliers", func(s *CampaignSummary) float64 { return s.TrimmedP90 }),
		f("campaign_stretch_trimmed_p99", "ratio", lower, "99th percentile of stretch without outliers", func(s *CampaignSummary) float64 { return s.TrimmedP99 }),
		f("user_max_stretch_mean", "ratio", lower, "mean over users of their largest campaign stretch", func(s *CampaignSummary) float64 { return s.UserMaxMean }),
		f("short_user_max_stretch_mean", "ratio", lower, "the same over short-profile users", func(s *CampaignSummary) float64 { return s.ShortUserMaxMean }),
		f("long_user_max_stretch_mean", "ratio", lower, "the same over long-profile users", func(s *CampaignSummary) float64 { return s.LongUserMaxMean }),
	}
}
