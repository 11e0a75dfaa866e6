package rigid

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

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// The rigid model's built-in policies: the fair-share policies of
// Vasupongayya's study (seed 003) and the fcfs-easy baseline.
const (
	PolicyRelShare   = "relshare"
	PolicyFCFSEasy   = "fcfs-easy"
	PolicyTradeoffFS = "tradeoff-fs"
)

// Version versions the rigid model: part of every rigid cell id.
const Version = "1"

// Model is the rigid model: the rigid jobs of an SWF trace replayed month
// by month (or of a Batsim workload replayed whole) on one cluster, under
// RelShare, Tradeoff-fs or FCFS with EASY backfilling, the policies of
// Vasupongayya's fair-share study (seed 003), or a policy of one's own.
type Model struct {
	// Own are policies of the researcher's own module, offered beside
	// the built-in ones.
	Own []Policy
}

func (Model) Name() string { return "rigid" }
func (Model) Doc() string {
	return "rigid jobs of an SWF trace, month by month, under fair-share backfilling (seed 003)"
}
func (Model) Version() string { return Version }
func (Model) Section() string { return "rigid" }
func (Model) UsesLoads() bool { return false }

// SectionAliases keeps fairshare, the section's name before it was named
// for the model, so that every manifest written with it runs unchanged.
func (Model) SectionAliases() []string { return []string{"fairshare"} }

func (m Model) Policies() []model.Policy {
	out := []model.Policy{
		{Name: PolicyRelShare, Doc: "RelShare(1d): the user with the least usage relative to its share first, with EASY (or conservative) backfilling", Params: paramsOf(PolicyRelShare)},
		{Name: PolicyTradeoffFS, Doc: "Tradeoff-fs: a bounded search over placements weighing starvation past Tw against average bounded slowdown"},
		{Name: PolicyFCFSEasy, Doc: "first come, first served with EASY backfilling", Params: paramsOf(PolicyFCFSEasy)},
	}
	out = append(out, orderPolicyTable()...)
	for _, p := range m.Own {
		out = append(out, model.Policy{Name: p.Name, Doc: p.Doc, Params: p.Params})
	}
	return out
}

func (Model) Generators() []string { return nil }

// Takes traces with months, and Batsim workloads (format: batsim).
func (Model) Takes(w *model.WorkloadSpec) bool {
	_, months := w.Options["months"]
	return w.Trace != "" && (months || IsBatsimWorkload(w))
}

// IsBatsimWorkload reports whether a workload entry is a Batsim JSON
// workload: a trace with format: batsim.
func IsBatsimWorkload(w *model.WorkloadSpec) bool {
	f, ok := w.Options["format"]
	return ok && f.Value == "batsim"
}

func (Model) Measures() []table.Measure {
	var out []table.Measure
	for _, m := range measures() {
		out = append(out, m.Measure)
	}
	return out
}

func (Model) Tables(rec model.Record) []store.Schema {
	var out []store.Schema
	if rec.Users {
		out = append(out, table.UsersSchema())
	}
	if rec.Jobs {
		out = append(out, table.RigidJobsSchema())
	}
	return out
}

// MonthRange selects the calendar months (UTC) of a trace, both included,
// each simulated as its own cell.
type MonthRange struct {
	From string `yaml:"from"` // YYYY-MM
	To   string `yaml:"to"`   // YYYY-MM, included
}

// SectionSpec is the manifest's rigid section (or fairshare, its alias):
// the choices of the fair-share policies that the design note makes named
// options (fairshare.md sections 3-4).
type SectionSpec struct {
	// Window is the RelShare usage window: tumbling (default, the
	// calendar day from 00:00 UTC) or sliding (the last 24 hours).
	Window string `yaml:"window"`
	// Backfill is relshare's allocation rule: easy (default) or
	// conservative; relshare's backfill parameter overrides it. The
	// other policies take their own (fcfs-easy is always EASY).
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

// Settings are a manifest's rigid section resolved.
type Settings struct {
	window     backfill.UsageWindow
	allocation backfill.Allocation
	tradeoff   backfill.Tradeoff
	canon      string
}

// Canonical renders the settings for cell ids.
func (s Settings) Canonical() string { return s.canon }

// ParseSettings resolves the rigid section; a key left out and its
// default written out give the same cells, and so do the section's two
// names (Canonical leaves the name out).
func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	var spec SectionSpec
	if section != nil {
		if err := model.DecodeSection(section, &spec, "window", "backfill", "tw", "alpha", "objective", "budget"); err != nil {
			return nil, err
		}
	}
	s := Settings{tradeoff: *backfill.DefaultTradeoff()}
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

// Policy returns the backfill policy a cell's policy name stands for.
func (s Settings) Policy(name string) backfill.Policy {
	switch name {
	case PolicyFCFSEasy:
		return backfill.FCFSEasy()
	case PolicyTradeoffFS:
		t := s.tradeoff
		return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, Planner: &t}
	}
	if o, ok := orderPolicy(name); ok {
		return backfill.Policy{Order: o}
	}
	if a, ok := fcfsAllocation(name); ok {
		return backfill.Policy{Order: backfill.OrderFCFS, Allocation: a}
	}
	return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, Allocation: s.allocation}
}

// source is a trace replayed month by month as rigid jobs. The trace is
// read once, when the manifest is loaded (so a month outside it or variant
// R without requested times is a manifest error); each cluster size of the
// run then drops the jobs wider than it, once.
type source struct {
	canon    string            // the trace's hash, for cell ids
	trace    *rigidtrace.Trace // every job, whatever its width
	months   []rigidtrace.Month
	variants []rigid.Variant
	own      []Policy
}

// unit is a cell's month and estimate variant.
type unit struct {
	month   rigidtrace.Month
	variant rigid.Variant
}

// NewSource checks a trace workload with months.
func (m Model) NewSource(w *model.WorkloadSpec, env model.Env) (model.Source, error) {
	if IsBatsimWorkload(w) {
		s, err := newBatsimSource(w, env)
		if err != nil {
			return nil, err
		}
		s.own = m.Own
		return s, nil
	}
	if err := w.CheckOptions("months", "estimates", "window"); err != nil {
		return nil, err
	}
	path := env.Path(w.Trace)
	var months MonthRange
	if _, err := w.Option("months", &months); err != nil {
		return nil, err
	}
	var estimates []string
	if _, err := w.Option("estimates", &estimates); err != nil {
		return nil, err
	}
	if w.Instances > 1 {
		return nil, fmt.Errorf("instances %d: a trace is one workload, its months the cells; want 1 (or leave it out)", w.Instances)
	}
	if len(w.Set) > 0 {
		return nil, fmt.Errorf("set applies to generators, not traces")
	}
	w.Instances = 1
	if _, window := w.Options["window"]; window {
		return nil, fmt.Errorf("window and months exclude each other: months select the trace's calendar months")
	}
	if months.From == "" || months.To == "" {
		return nil, fmt.Errorf("months: want both from and to, as YYYY-MM (to is included)")
	}
	from, err := rigidtrace.ParseMonth(months.From)
	if err != nil {
		return nil, fmt.Errorf("months: from: %w", err)
	}
	to, err := rigidtrace.ParseMonth(months.To)
	if err != nil {
		return nil, fmt.Errorf("months: to: %w", err)
	}
	rs := &source{own: m.Own}
	for m := from; !m.Start().After(to.Start()); {
		rs.months = append(rs.months, m)
		next := m.End()
		m = rigidtrace.Month{Year: next.Year(), Month: next.Month()}
	}
	if len(rs.months) == 0 {
		return nil, fmt.Errorf("months: from %s comes after to %s", from, to)
	}
	if len(estimates) == 0 {
		return nil, fmt.Errorf("estimates: missing; want a list of T (actual run times) and/or R (requested times)")
	}
	for _, e := range estimates {
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
	// width limit comes with each platform (prepared.get).
	h := sha256.New()
	rs.trace, err = rigidtrace.Read(io.TeeReader(f, h), path, rigidtrace.Options{Procs: math.MaxInt})
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
	if slices.Contains(rs.variants, rigid.EstimateRequested) || slices.Contains(rs.variants, rigid.EstimatePredicted) {
		if err := rs.trace.CheckRequestedTimes(); err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
	}
	rs.canon = fmt.Sprintf("trace sha256=%s rigid", hex.EncodeToString(h.Sum(nil)))
	return rs, nil
}

func (s *source) Describe(label string, _ int) string {
	return fmt.Sprintf("%s (%d months x %d estimates)", label, len(s.months), len(s.variants))
}

// Report is the reader's part; the jobs each cluster drops as too wide are
// counted in the cells (dropped_wide_jobs).
func (s *source) Report() string { return s.trace.Report.Read.String() }

// CheckPlatform refuses a platform of more than one cluster.
func (s *source) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("rigid workloads run on identical processors: want a one-cluster platform such as single:64, not %s", name)
	}
	return nil
}

func (s *source) Allows(string) error { return nil }

// Groups returns the source's cells in replicate 0 as one group: per
// estimate variant (in the workload label), month (the instance; the
// period of the cell's name), platform and policy.
func (s *source) Groups(ax model.Axes) [][]model.Cell {
	if ax.Replicate > 0 {
		return nil // a trace replays the same jobs under every root seed
	}
	var cells []model.Cell
	for _, v := range s.variants {
		for mi, month := range s.months {
			for _, plat := range ax.Platforms {
				for _, pol := range ax.Policies {
					c := model.Cell{Workload: ax.Label + "-" + v.String(), Instance: mi, Period: month.String(), Platform: plat,
						Policy: pol, RootSeed: ax.RootSeed, Unit: unit{month, v}}
					c.SetID([]string{"sweep-rigid-cell", Version, ax.Experiment, fmt.Sprint(ax.Seed), s.canon,
						month.String(), v.String(), ax.Env.Platforms[plat].Canonical(), ax.Settings.Canonical(), ax.Env.PolicyMeaning(pol)})
					cells = append(cells, c)
				}
			}
		}
	}
	return [][]model.Cell{cells}
}

// Prepare shares the trace among the cells of a run, cut to each cluster
// size on first use.
func (s *source) Prepare(_ context.Context, _ model.Cell, env model.Env) (model.Prepared, error) {
	return &prepared{all: s.trace, platforms: env.Platforms, policyRunner: newPolicyRunner(env, s.own)}, nil
}

// prepared cuts a rigid source's trace to each cluster size once and
// shares it among the cells of a run.
type prepared struct {
	all       *rigidtrace.Trace
	platforms map[string]*platform.Platform
	policyRunner

	mu     sync.Mutex
	bySize map[int]*clusterTrace
}

// clusterTrace is the trace cut to one cluster size, once.
type clusterTrace struct {
	once  sync.Once
	trace *rigidtrace.Trace
	err   error
}

func (r *prepared) get(procs int) (*rigidtrace.Trace, error) {
	r.mu.Lock()
	if r.bySize == nil {
		r.bySize = map[int]*clusterTrace{}
	}
	t := r.bySize[procs]
	if t == nil {
		t = &clusterTrace{}
		r.bySize[procs] = t
	}
	r.mu.Unlock()
	t.once.Do(func() { t.trace, t.err = r.all.ForCluster(procs) })
	return t.trace, t.err
}

// Simulate runs one month of the trace under the cell's policy.
func (p *prepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	u := c.Unit.(unit)
	trace, err := p.get(p.platforms[c.Platform].TotalCores())
	if err != nil {
		return nil, err
	}
	mw, err := trace.Month(u.month)
	if err != nil {
		return nil, err
	}
	sched, ids, err := p.schedule(ctx, c.Policy, &mw.Workload, u.variant)
	if err != nil {
		return nil, err
	}
	return &Outcome{CellID: c.ID, Period: int64(u.month.Year*100 + int(u.month.Month)), Variant: u.variant, Workload: &mw.Workload,
		Schedule: sched, Processors: ids, Cluster: p.platforms[c.Platform].Clusters[0].Name,
		DroppedWide: trace.Report.ProcsAboveCluster, RequestFromRun: trace.Report.RequestFromRun, WarmUpJobs: mw.WarmUpJobs,
		NoRequest: mw.NoRequest}, nil
}

// An Outcome is a rigid workload (one month of a trace, or a whole Batsim
// workload) simulated under one of the rigid model's policies.
type Outcome struct {
	CellID   string
	Period   int64 // the month as yyyymm; 0 for a whole workload
	Variant  rigid.Variant
	Workload *rigid.Workload
	Schedule *backfill.Schedule
	// Processors are each job's processor ids when the policy named them
	// (a Batsim scheduler's), else nil; Cluster is the cell's cluster.
	Processors [][]int
	Cluster    string
	// DroppedWide counts the jobs wider than the cluster, left out;
	// RequestFromRun those whose requested time was taken from their run
	// time; WarmUpJobs the jobs before the measured window.
	DroppedWide, RequestFromRun, WarmUpJobs int
	// NoRequest tells, per job of Workload, that the log gave it no
	// requested time (it requests its run time); nil for a Batsim
	// workload, whose reader does not say.
	NoRequest []bool
}

// Measure returns the month's fair-share measures (Model.Measures) and,
// with rec.Users, one row per user.
func (o *Outcome) Measure(rec model.Record) (model.Measured, error) {
	w, sched := o.Workload, o.Schedule
	fm, err := fairness.Measure(w, sched.StartSeconds)
	if err != nil {
		return model.Measured{}, err
	}
	var values []store.Value
	for _, m := range measures() {
		values = append(values, m.value(o, fm))
	}
	i, f := store.Int64, store.Float64
	const hour = hourSeconds
	children := map[string]store.Child{}
	if rec.Users {
		var rows []store.Row
		for _, u := range fm.PerUser {
			rows = append(rows, store.Row{
				store.String(o.CellID), store.String(swf.UserName(u.User)), i(int64(u.Jobs)), f(float64(u.DemandProcSeconds) / hour),
				f(u.DevProcHours), f(u.MeanWaitSeconds), f(u.MeanAccuracy),
			})
		}
		children[table.Users] = store.Child{Rows: rows}
	}
	if rec.Jobs {
		children[table.RigidJobs] = store.Child{Rows: o.jobRows()}
	}
	return model.Measured{Values: values, Children: children}, nil
}
