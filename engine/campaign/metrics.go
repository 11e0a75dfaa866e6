package campaign

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/engine"
)

// A Row is one campaign of one schedule: a row of the optional `campaigns`
// Parquet table (the runner adds cell_id).
type Row struct {
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

// Stretch bases (Options.StretchBase): what a campaign's flow time is
// divided by. See the package comment for why both exist.
const (
	// StretchBaseAlone divides by the campaign's flow time alone on the
	// empty machine (Campaign.AloneFlowTicks), as DESIGN.md section 4
	// says. It is the default, also when empty.
	StretchBaseAlone = "alone"
	// StretchBaseBound divides by seed 001's lower bound on that flow
	// time (Campaign.BoundFlowTicks).
	StretchBaseBound = "bound"
)

// StretchBases lists the values Options.StretchBase accepts.
func StretchBases() []string { return []string{StretchBaseAlone, StretchBaseBound} }

func checkStretchBase(name string) error {
	switch name {
	case "", StretchBaseAlone, StretchBaseBound:
		return nil
	}
	return fmt.Errorf("stretch base %q: want one of %v", name, StretchBases())
}

// Rows measures every campaign of schedule s of workload w, in campaign
// order, with the default stretch base (StretchBaseAlone) on m =
// s.Instance's processors.
func Rows(w *Workload, s *engine.Schedule) []Row {
	rows, _ := RowsWith(w, s, Options{})
	return rows
}

// RowsWith measures every campaign of schedule s of workload w, in
// campaign order, with the stretch base opts.StretchBase (the other
// options do not matter: the base does not depend on the policy). The
// stretch is computed from integers: flow / alone, or flow x m /
// max(W, m x pmax') for the bound.
func RowsWith(w *Workload, s *engine.Schedule, opts Options) ([]Row, error) {
	if err := checkStretchBase(opts.StretchBase); err != nil {
		return nil, fmt.Errorf("measure campaigns: %w", err)
	}
	m := s.Instance.Platform.TotalCores()
	ord := w.Ordinals()
	rows := make([]Row, len(w.Campaigns))
	for c := range w.Campaigns {
		camp := &w.Campaigns[c]
		flow := s.JobFinish[c] - s.JobArrival[c]
		// The stretch is num / den, both integers.
		num, den := flow, camp.AloneFlowTicks(m)
		if opts.StretchBase == StretchBaseBound {
			num, den = flow*int64(m), camp.BoundFlowTicks(m)
		}
		u := w.Users[camp.User]
		rows[c] = Row{
			User:            u.ID,
			Profile:         u.Profile,
			Campaign:        int64(ord[c]),
			Jobs:            int64(len(camp.Jobs)),
			SubmitTicks:     s.JobArrival[c],
			CompletionTicks: s.JobFinish[c],
			WorkTicks:       camp.WorkTicks(),
			Stretch:         float64(num) / float64(den),
			Exact1:          num == den,
		}
	}
	return rows, nil
}

// AloneFlowTicks returns the campaign's flow time alone on m >= 1 empty
// identical processors: the greedy list schedule that, whenever a
// processor is free, starts the shortest submitted job (ties by listed
// order), each job submitted ReleaseTicks after the campaign. It is the
// schedule ostrich, with its default job order, builds for a campaign
// that has the machine to itself, which then has stretch 1 exactly. It
// is not the optimum (minimising it is NP-hard): a schedule in another
// order, such as fcfs's listed order or the log's, may beat it.
func (c *Campaign) AloneFlowTicks(m int) int64 {
	byRelease := make([]int32, len(c.Jobs))
	for k := range byRelease {
		byRelease[k] = int32(k)
	}
	slices.SortStableFunc(byRelease, func(a, b int32) int {
		return cmp.Compare(c.Jobs[a].ReleaseTicks, c.Jobs[b].ReleaseTicks)
	})
	ready := &taskHeap{less: func(a, b int32) bool {
		ea, eb := c.Jobs[a].ExecTicks, c.Jobs[b].ExecTicks
		return ea < eb || (ea == eb && a < b)
	}}
	procs := min(m, len(c.Jobs))
	free := make([]int64, procs)
	idle := &taskHeap{less: func(a, b int32) bool { return free[a] < free[b] || (free[a] == free[b] && a < b) }}
	for p := range procs {
		idle.push(int32(p))
	}
	var flow int64
	next := 0
	for range c.Jobs {
		p := idle.pop()
		now := free[p]
		if len(ready.items) == 0 {
			now = max(now, c.Jobs[byRelease[next]].ReleaseTicks)
		}
		for ; next < len(byRelease) && c.Jobs[byRelease[next]].ReleaseTicks <= now; next++ {
			ready.push(byRelease[next])
		}
		free[p] = now + c.Jobs[ready.pop()].ExecTicks
		flow = max(flow, free[p])
		idle.push(p)
	}
	return flow
}

// BoundFlowTicks returns m times seed 001's lower bound on the campaign's
// flow time alone on m processors, max(W/m, pmax), in m-ths of a tick so
// that it is an integer: max(W, m x pmax). With release offsets pmax is
// taken as the latest max(release + exec) of a job, which no schedule can
// beat either; it is the paper's pmax when every release is 0.
func (c *Campaign) BoundFlowTicks(m int) int64 {
	var last int64
	for _, j := range c.Jobs {
		last = max(last, j.ReleaseTicks+j.ExecTicks)
	}
	return max(c.WorkTicks(), int64(m)*last)
}

// OutlierStretch is the stretch above which seed 000 leaves a campaign out
// of its figures and statistics ("stretches of more than 1000").
const OutlierStretch = 1000

// A Summary holds the papers' figures of merit for one schedule.
// Trimmed statistics leave out campaigns with stretch > OutlierStretch, as
// seed 000 does. Quantiles interpolate linearly between order statistics
// (Hyndman-Fan type 7, the default of R and NumPy). A mean over users of a
// profile is NaN when the workload has no such user.
type Summary struct {
	Campaigns        int64
	StretchMean      float64
	StretchMax       float64
	Over20Share      float64 // fraction of campaigns with stretch > 20 (seed 001)
	OutlierShare     float64 // fraction with stretch > OutlierStretch
	TrimmedMean      float64 // seed 000's mean stretch
	TrimmedExact1    float64 // fraction at exactly 1, of the trimmed set
	TrimmedP50       float64
	TrimmedP90       float64
	TrimmedP99       float64
	UserMaxMean      float64 // mean over users of their max campaign stretch
	ShortUserMaxMean float64 // the same over ProfileShort users (seed 001)
	LongUserMaxMean  float64 // the same over ProfileLong users
}

// Summarize computes the Summary of rows (one schedule's campaigns).
func Summarize(rows []Row) Summary {
	s := Summary{Campaigns: int64(len(rows))}
	if len(rows) == 0 {
		nan := math.NaN()
		return Summary{StretchMean: nan, StretchMax: nan, Over20Share: nan, OutlierShare: nan, TrimmedMean: nan,
			TrimmedExact1: nan, TrimmedP50: nan, TrimmedP90: nan, TrimmedP99: nan,
			UserMaxMean: nan, ShortUserMaxMean: nan, LongUserMaxMean: nan}
	}
	var sum, trimmedSum float64
	var over20, outliers, exact1 int
	trimmed := make([]float64, 0, len(rows))
	userMax := map[string]float64{}
	profileOf := map[string]string{}
	var users []string
	for _, r := range rows {
		sum += r.Stretch
		s.StretchMax = max(s.StretchMax, r.Stretch)
		if r.Stretch > 20 {
			over20++
		}
		if r.Stretch > OutlierStretch {
			outliers++
		} else {
			trimmed = append(trimmed, r.Stretch)
			trimmedSum += r.Stretch
			if r.Exact1 {
				exact1++
			}
		}
		if _, ok := userMax[r.User]; !ok {
			users = append(users, r.User)
			profileOf[r.User] = r.Profile
		}
		userMax[r.User] = max(userMax[r.User], r.Stretch)
	}
	n := float64(len(rows))
	s.StretchMean = sum / n
	s.Over20Share = float64(over20) / n
	s.OutlierShare = float64(outliers) / n
	nt := float64(len(trimmed))
	s.TrimmedMean = trimmedSum / nt
	s.TrimmedExact1 = float64(exact1) / nt
	slices.Sort(trimmed)
	s.TrimmedP50 = Quantile(trimmed, 0.5)
	s.TrimmedP90 = Quantile(trimmed, 0.9)
	s.TrimmedP99 = Quantile(trimmed, 0.99)
	mean := func(profile string, any bool) float64 {
		var total float64
		var count int
		for _, u := range users {
			if any || profileOf[u] == profile {
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
	s.ShortUserMaxMean = mean(ProfileShort, false)
	s.LongUserMaxMean = mean(ProfileLong, false)
	return s
}

// Quantile returns the q-quantile of sorted (ascending, non-empty) by
// linear interpolation between order statistics: h = (n-1)q, the value
// at floor(h) plus the fraction of h times the step to the next
// (Hyndman-Fan type 7). It is NaN for an empty slice.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := float64(len(sorted)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// A SummaryColumn describes one Summary field as a column of the cells
// table, like analysis.MetricColumn does for ScheduleMetrics.
type SummaryColumn struct {
	Name    string
	Integer bool // stored as int64: Int is set
	Better  analysis.Direction
	Int     func(*Summary) int64
	Float   func(*Summary) float64 // every column, integers converted
}

// SummaryColumns returns the Summary's columns in a fixed order; each call
// returns a new slice.
func SummaryColumns() []SummaryColumn {
	f := func(name string, better analysis.Direction, value func(*Summary) float64) SummaryColumn {
		return SummaryColumn{Name: name, Better: better, Float: value}
	}
	lower, higher := analysis.LowerIsBetter, analysis.HigherIsBetter
	return []SummaryColumn{
		{Name: "campaigns", Integer: true, Better: analysis.Descriptive,
			Int:   func(s *Summary) int64 { return s.Campaigns },
			Float: func(s *Summary) float64 { return float64(s.Campaigns) }},
		f("campaign_stretch_mean", lower, func(s *Summary) float64 { return s.StretchMean }),
		f("campaign_stretch_max", lower, func(s *Summary) float64 { return s.StretchMax }),
		f("campaign_stretch_over20_share", lower, func(s *Summary) float64 { return s.Over20Share }),
		f("campaign_stretch_outlier_share", lower, func(s *Summary) float64 { return s.OutlierShare }),
		f("campaign_stretch_trimmed_mean", lower, func(s *Summary) float64 { return s.TrimmedMean }),
		f("campaign_stretch_trimmed_exact1_share", higher, func(s *Summary) float64 { return s.TrimmedExact1 }),
		f("campaign_stretch_trimmed_p50", lower, func(s *Summary) float64 { return s.TrimmedP50 }),
		f("campaign_stretch_trimmed_p90", lower, func(s *Summary) float64 { return s.TrimmedP90 }),
		f("campaign_stretch_trimmed_p99", lower, func(s *Summary) float64 { return s.TrimmedP99 }),
		f("user_max_stretch_mean", lower, func(s *Summary) float64 { return s.UserMaxMean }),
		f("short_user_max_stretch_mean", lower, func(s *Summary) float64 { return s.ShortUserMaxMean }),
		f("long_user_max_stretch_mean", lower, func(s *Summary) float64 { return s.LongUserMaxMean }),
	}
}
