package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/gen/swf"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The fair-share policies of seed 003, for trace-month workloads.
const (
	PolicyRelShare   = "relshare"
	PolicyFCFSEasy   = "fcfs-easy"
	PolicyTradeoffFS = "tradeoff-fs"
)

// FairSharePolicies lists the policies of rigid trace-month workloads.
func FairSharePolicies() []string {
	return []string{PolicyRelShare, PolicyTradeoffFS, PolicyFCFSEasy}
}

// MonthRange selects the calendar months (UTC) of a trace, both included,
// each simulated as its own cell.
type MonthRange struct {
	From string `yaml:"from"` // YYYY-MM
	To   string `yaml:"to"`   // YYYY-MM, included
}

// FairShareSpec sets the choices of the fair-share policies that the
// design note makes named options (fairshare.md sections 3-4).
type FairShareSpec struct {
	// Window is the RelShare usage window: tumbling (default, the
	// calendar day from 00:00 UTC) or sliding (the last 24 hours).
	Window string `yaml:"window"`
	// Backfill is relshare's allocation rule: easy (default) or
	// conservative. fcfs-easy is always EASY.
	Backfill string `yaml:"backfill"`
	// Tw is Tradeoff-fs's starvation threshold: a Go duration such as
	// 48h (default), or fcfs-max (the month's largest wait under
	// fcfs-easy).
	Tw string `yaml:"tw"`
	// Alpha weighs starvation hours against average bounded slowdown
	// (default 1 per hour).
	Alpha *float64 `yaml:"alpha"`
	// Objective is tradeoff (default: alpha E + A) or hier (E, then A).
	Objective string `yaml:"objective"`
	// Budget is the placements per decision point (default 10000).
	Budget *int `yaml:"budget"`
}

// fairShareSettings are a manifest's fair-share choices resolved.
type fairShareSettings struct {
	window     backfill.UsageWindow
	allocation backfill.Allocation
	tradeoff   backfill.Tradeoff
	canon      string
}

// fairShareSettings resolves the fairshare section; a key left out and
// its default written out give the same cells.
func (m *Manifest) fairShareSettings() (fairShareSettings, error) {
	spec := FairShareSpec{}
	if m.FairShare != nil {
		spec = *m.FairShare
	}
	s := fairShareSettings{tradeoff: *backfill.DefaultTradeoff()}
	switch spec.Window {
	case "", "tumbling":
		spec.Window = "tumbling"
	case "sliding":
		s.window = backfill.WindowSliding
	default:
		return s, fmt.Errorf("window %q; want tumbling (the calendar day from 00:00 UTC) or sliding (the last 24 h)", spec.Window)
	}
	switch spec.Backfill {
	case "", "easy":
		spec.Backfill = "easy"
	case "conservative":
		s.allocation = backfill.AllocConservative
	default:
		return s, fmt.Errorf("backfill %q; want easy or conservative", spec.Backfill)
	}
	tw := "172800s"
	switch spec.Tw {
	case "":
	case "fcfs-max":
		s.tradeoff.TwFCFSMax = true
		tw = "fcfs-max"
	default:
		d, err := time.ParseDuration(spec.Tw)
		if err != nil || d < 0 || d%time.Second != 0 {
			return s, fmt.Errorf("tw %q; want a whole number of seconds as a duration such as 48h, or fcfs-max", spec.Tw)
		}
		s.tradeoff.TwSeconds = int64(d / time.Second)
		tw = strconv.FormatInt(s.tradeoff.TwSeconds, 10) + "s"
	}
	if spec.Alpha != nil {
		if !(*spec.Alpha >= 0) {
			return s, fmt.Errorf("alpha %v; want a number >= 0 (per hour of starvation)", *spec.Alpha)
		}
		s.tradeoff.AlphaPerHour = *spec.Alpha
	}
	switch spec.Objective {
	case "", "tradeoff":
		spec.Objective = "tradeoff"
	case "hier":
		s.tradeoff.Objective = backfill.ObjectiveHier
	default:
		return s, fmt.Errorf("objective %q; want tradeoff or hier", spec.Objective)
	}
	if spec.Budget != nil {
		if *spec.Budget < 0 {
			return s, fmt.Errorf("budget %d; want placements >= 0 (the heuristic path always completes)", *spec.Budget)
		}
		s.tradeoff.BudgetPlacements = *spec.Budget
	}
	s.canon = fmt.Sprintf("window=%s backfill=%s tw=%s alpha=%s objective=%s budget=%d", spec.Window, spec.Backfill, tw,
		strconv.FormatFloat(s.tradeoff.AlphaPerHour, 'g', -1, 64), spec.Objective, s.tradeoff.BudgetPlacements)
	return s, nil
}

// policy returns the backfill policy a cell's policy name stands for.
func (s fairShareSettings) policy(name string) backfill.Policy {
	switch name {
	case PolicyFCFSEasy:
		return backfill.FCFSEasy()
	case PolicyTradeoffFS:
		t := s.tradeoff
		return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, Planner: &t}
	}
	return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, Allocation: s.allocation}
}

// rigidSource is a trace replayed month by month as rigid jobs. The trace
// is read once, when the manifest is loaded (so a month outside it or
// variant R without requested times is a manifest error); each cluster
// size of the run then drops the jobs wider than it, once.
type rigidSource struct {
	trace    *swf.RigidTrace // every job, whatever its width
	months   []swf.Month
	variants []rigid.Variant
}

// rigidTraceSource checks a trace workload with months; path is the
// trace's path from the working directory.
func rigidTraceSource(w *WorkloadSpec, path string) (*source, error) {
	if w.Instances > 1 {
		return nil, fmt.Errorf("instances %d: a trace is one workload, its months the cells; want 1 (or leave it out)", w.Instances)
	}
	if len(w.Set) > 0 {
		return nil, fmt.Errorf("set applies to generators, not traces")
	}
	w.Instances = 1
	if w.Window != nil {
		return nil, fmt.Errorf("window and months exclude each other: months select the trace's calendar months")
	}
	if w.Months.From == "" || w.Months.To == "" {
		return nil, fmt.Errorf("months: want both from and to, as YYYY-MM (to is included)")
	}
	from, err := swf.ParseMonth(w.Months.From)
	if err != nil {
		return nil, fmt.Errorf("months: from: %w", err)
	}
	to, err := swf.ParseMonth(w.Months.To)
	if err != nil {
		return nil, fmt.Errorf("months: to: %w", err)
	}
	rs := &rigidSource{}
	for m := from; !m.Start().After(to.Start()); {
		rs.months = append(rs.months, m)
		next := m.End()
		m = swf.Month{Year: next.Year(), Month: next.Month()}
	}
	if len(rs.months) == 0 {
		return nil, fmt.Errorf("months: from %s comes after to %s", from, to)
	}
	if len(w.Estimates) == 0 {
		return nil, fmt.Errorf("estimates: missing; want a list of T (actual run times) and/or R (requested times)")
	}
	for _, e := range w.Estimates {
		v, err := rigid.ParseVariant(e)
		if err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
		if slices.Contains(rs.variants, v) {
			return nil, fmt.Errorf("estimates: %s listed twice", e)
		}
		rs.variants = append(rs.variants, v)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w (paths are relative to the manifest's folder; the Parallel Workloads Archive has the logs: see the README)", err)
	}
	defer f.Close()
	// One pass over the file: the reader parses what the hash reads. The
	// width limit comes with each platform (rigidTraces).
	h := sha256.New()
	rs.trace, err = swf.NewRigidTrace(io.TeeReader(f, h), path, swf.RigidOptions{Procs: math.MaxInt})
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	for _, m := range rs.months {
		if _, err := rs.trace.Month(m); err != nil {
			return nil, fmt.Errorf("months: %w", err)
		}
	}
	if slices.Contains(rs.variants, rigid.EstimateRequested) {
		if err := rs.trace.CheckRequestedTimes(); err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
	}
	return &source{rigid: rs, canon: fmt.Sprintf("trace sha256=%s rigid", hex.EncodeToString(h.Sum(nil)))}, nil
}

// rigidCells appends the cells of a rigid source: per estimate variant
// (in the workload label), per month (the instance), platform and policy.
func (m *Manifest) rigidCells(cells []Cell, wi, group int) []Cell {
	w := &m.Workloads[wi]
	src := m.sources[wi]
	settings, _ := m.fairShareSettings()
	for _, v := range src.rigid.variants {
		for mi, month := range src.rigid.months {
			for _, plat := range m.Platforms {
				for _, pol := range m.Policies {
					c := Cell{Workload: w.Label + "-" + v.String(), Instance: mi, Month: month.String(), Platform: plat,
						Policy: pol, spec: wi, group: group, variant: v, month: month}
					if m.excluded(c) {
						continue
					}
					c.setID([]string{"sweep-rigid-cell", RigidModelVersion, m.Experiment, fmt.Sprint(m.Seed), src.canon,
						month.String(), v.String(), m.platform[plat].Canonical(), settings.canon, pol})
					cells = append(cells, c)
				}
			}
		}
	}
	return cells
}

// rigidTraces cuts a rigid source's trace to each cluster size once and
// shares it among the cells of a run.
type rigidTraces struct {
	mu     sync.Mutex
	bySize map[int]*rigidTrace
}

type rigidTrace struct {
	once  sync.Once
	trace *swf.RigidTrace
	err   error
}

func (r *rigidTraces) get(all *swf.RigidTrace, procs int) (*swf.RigidTrace, error) {
	r.mu.Lock()
	if r.bySize == nil {
		r.bySize = map[int]*rigidTrace{}
	}
	t := r.bySize[procs]
	if t == nil {
		t = &rigidTrace{}
		r.bySize[procs] = t
	}
	r.mu.Unlock()
	t.once.Do(func() { t.trace, t.err = all.ForCluster(procs) })
	return t.trace, t.err
}

// runRigidCell simulates one month of a rigid trace under a fair-share
// policy and returns its cells row and users rows.
func runRigidCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell, start time.Time) (store.Row, childRows, error) {
	src := m.sources[c.spec]
	procs := m.platform[c.Platform].TotalCores()
	trace, err := cache.rigidTraces(c).get(src.rigid.trace, procs)
	if err != nil {
		return nil, childRows{}, err
	}
	mw, err := trace.Month(c.month)
	if err != nil {
		return nil, childRows{}, err
	}
	settings, _ := m.fairShareSettings()
	sched, err := backfill.Simulate(ctx, &mw.Workload, c.variant, settings.policy(c.Policy))
	if err != nil {
		return nil, childRows{}, err
	}
	fm, err := fairness.Measure(&mw.Workload, sched.StartSeconds)
	if err != nil {
		return nil, childRows{}, err
	}
	row := cellHead(m, c, table.StatusOK, "", time.Since(start))
	i, f := store.Int64, store.Float64
	const hour = 3600.0
	row = append(row,
		i(int64(c.month.Year*100+int(c.month.Month))), i(int64(fm.Jobs)), i(int64(fm.Users)),
		f(fm.DemandProcHours()), f(fm.DemandPercent()), f(fm.TotalAbsDevProcHours), i(fm.TopUser),
		f(float64(fm.TopUserDemandProcSeconds)/hour), f(fm.DevOf(fm.TopUser)),
		f(fm.MeanWaitSeconds/hour), f(fm.MaxWaitSeconds/hour), f(fm.P99WaitSeconds/hour),
		f(fm.MeanSlowdownTau10), f(fm.MeanSlowdownTau60), f(fm.MeanSlowdown),
		i(sched.TwSeconds), i(sched.Stats.Placements), i(sched.Stats.BudgetExhausted),
		i(int64(trace.Report.ProcsAboveCluster)), i(int64(trace.Report.RequestFromRun)), i(int64(mw.WarmUpJobs)),
	)
	var children childRows
	if m.Record.Users {
		for _, u := range fm.PerUser {
			children.users = append(children.users, store.Row{
				store.String(c.ID), i(u.User), i(int64(u.Jobs)), f(float64(u.DemandProcSeconds) / hour),
				f(u.DevProcHours), f(u.MeanWaitSeconds), f(u.MeanAccuracy),
			})
		}
	}
	return row, children, nil
}
