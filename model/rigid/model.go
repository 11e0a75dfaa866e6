package rigid

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/engine/backfill"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/internal/suggest"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
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

// Generators lists lublin1999, the Lublin-Feitelson workloads
// (generated.go).
func (Model) Generators() []string { return []string{genrigid.LublinName} }

// Takes every trace: an SWF log (months, a window or the whole log) or a
// Batsim workload (format: batsim; another format is refused by NewSource
// naming the valid ones). A whole SWF log is the campaign model's too; the
// manifest's policies (or its model: key) choose. It also takes lublin1999
// workloads (generated.go).
func (Model) Takes(w *model.WorkloadSpec) bool {
	if w.Trace == "" {
		return w.Generator == genrigid.LublinName
	}
	return w.Generator == ""
}

// The keys of the model's workload entries beyond model.CommonKeys: a
// trace's (monthKeys) and a Batsim workload's (batsimKeys).
var (
	monthKeys  = []string{"months", "estimates", "window", "memory"}
	batsimKeys = []string{"format", "estimates"}
)

// traceFormats are the values of a trace entry's format key.
var traceFormats = []string{"batsim", "csv"}

// WorkloadKeys are the keys of trace and Batsim entries (model.WorkloadKeyed).
func (Model) WorkloadKeys() []string { return append(slices.Clone(monthKeys), "format", "columns") }

// checkFormat refuses a format key other than batsim, naming the valid ones.
func checkFormat(w *model.WorkloadSpec) error {
	var format string
	if _, err := w.Option("format", &format); err != nil {
		return err
	}
	if !slices.Contains(traceFormats, format) {
		return fmt.Errorf("line %d: workloads: format %q: unknown%s; valid formats: %s (an SWF log, the default, takes no format key)",
			w.Options["format"].Line, format, suggest.DidYouMean(format, traceFormats), strings.Join(traceFormats, ", "))
	}
	return nil
}

// LoadsOptional: the manifest's loads apply to rigid workloads when it
// gives them; without, each replays its recorded arrivals.
func (Model) LoadsOptional() bool { return true }

// IsBatsimWorkload reports whether a workload entry is a Batsim JSON
// workload: a trace with format: batsim.
func IsBatsimWorkload(w *model.WorkloadSpec) bool {
	f, ok := w.Options["format"]
	return ok && f.Value == "batsim"
}

func (Model) Measures() []table.Measure {
	var out []table.Measure
	for _, m := range measures {
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
		out = append(out, table.RigidJobsSchema(), table.RigidPartitionsSchema())
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
	// Span is the load rule's span (rigidload.Span): submits (default,
	// first to last measured submit) or mean-gap. It enters the ids of
	// cells at a load only.
	Span string `yaml:"span"`
	// Day is RelShare's usage day in a cell at a load: fixed (default,
	// 24 h of simulated time, as a site's fair-share window stays a day
	// whatever the load) or scaled (24 h times the cell's time factor,
	// the day of the recorded log; tumbling days then fall at multiples
	// of it from the Unix epoch). It enters the ids of cells at a load
	// only, when scaled.
	Day string `yaml:"day"`
}

// Settings are a manifest's rigid section resolved.
type Settings struct {
	window     backfill.UsageWindow
	allocation backfill.Allocation
	tradeoff   backfill.Tradeoff
	canon      string
	span       rigidload.Span
	dayScaled  bool
	// windowSeconds is RelShare's window in one cell (0: a day), set
	// for a cell at a load under day: scaled.
	windowSeconds int64
}

// Canonical renders the settings for cell ids.
func (s Settings) Canonical() string { return s.canon }

// ParseSettings resolves the rigid section; a key left out and its
// default written out give the same cells, and so do the section's two
// names (Canonical leaves the name out).
func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	var spec SectionSpec
	if section != nil {
		if err := model.DecodeSection(section, &spec, "window", "backfill", "tw", "alpha", "objective", "budget", "span", "day"); err != nil {
			return nil, err
		}
	}
	s := Settings{tradeoff: *backfill.DefaultTradeoff()}
	var err error
	if s.span, err = rigidload.ParseSpan(spec.Span); err != nil {
		return s, err
	}
	switch spec.Day {
	case "", "fixed":
	case "scaled":
		s.dayScaled = true
	default:
		return s, fmt.Errorf("day %q; want fixed (RelShare's day stays 24 h at every load, the default) or scaled (24 h times the cell's time factor)", spec.Day)
	}
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
		return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, WindowSeconds: s.windowSeconds, Planner: &t}
	}
	if o, ok := orderPolicy(name); ok {
		return backfill.Policy{Order: o}
	}
	if a, ok := fcfsAllocation(name); ok {
		return backfill.Policy{Order: backfill.OrderFCFS, Allocation: a}
	}
	return backfill.Policy{Order: backfill.OrderRelShare, Window: s.window, WindowSeconds: s.windowSeconds, Allocation: s.allocation}
}

// NewSource checks a trace workload (an SWF log or a Batsim workload) or a
// generated one.
func (m Model) NewSource(w *model.WorkloadSpec, env model.Env) (model.Source, error) {
	if w.Trace == "" {
		return newGeneratedSource(w, m.Own)
	}
	if _, ok := w.Options["format"]; ok {
		if err := checkFormat(w); err != nil {
			return nil, err
		}
	}
	if f, ok := w.Options["format"]; ok && f.Value == "csv" {
		s, err := newCSVSource(w, env)
		if err != nil {
			return nil, err
		}
		s.own = m.Own
		return s, nil
	}
	if IsBatsimWorkload(w) {
		s, err := newBatsimSource(w, env)
		if err != nil {
			return nil, err
		}
		s.own = m.Own
		return s, nil
	}
	return newTraceSource(w, env, m.Own)
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
	// TargetLoad is the cell's load (0 at the recorded arrivals);
	// AchievedLoad the measured jobs' offered load as simulated
	// (rigidload.Offered), NaN when they span no time.
	TargetLoad, AchievedLoad float64

	jobStats *jobStats // computed on first use
}

// Measure returns the month's fair-share measures (Model.Measures) and,
// with rec.Users, one row per user.
func (o *Outcome) Measure(rec model.Record) (model.Measured, error) {
	w, sched := o.Workload, o.Schedule
	fm, err := fairness.Measure(w, sched.StartSeconds, sched.EndSeconds)
	if err != nil {
		return model.Measured{}, err
	}
	values := make([]store.Value, 0, len(measures))
	for _, m := range measures {
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
		if o.Workload.Machine != nil && o.Schedule.Nodes != nil {
			children[table.RigidPartitions] = store.Child{Rows: o.partitionRows()}
		}
	}
	return model.Measured{Values: values, Children: children}, nil
}
