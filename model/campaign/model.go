package campaign

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	gridengine "github.com/sweep-sched/sweep/engine/grid"
	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
	wcampaign "github.com/sweep-sched/sweep/workload/campaign"
	"github.com/sweep-sched/sweep/workload/swf"
)

// Version versions the campaign model of seeds 000/001: part of every
// campaign cell id.
//
// 2: the campaign summary's quantiles use numpy's arithmetic, which moved
// campaign_stretch_trimmed_p99 by one unit in the last place in 5 of the
// 140 synthetic cells. 3 (issue 11): stretch-base bound divides by seed
// 001's max(W/m, pmax) with pmax the longest job, no longer max(release +
// exec) (now bound-release); the default base is bound, not alone; and the
// cells table has two more campaign columns, the mean stretch at the cuts
// 20 and 100.
const Version = "3"

// Model is the campaign model of seeds 000 and 001: users submit campaigns
// of jobs in closed loop (a generator, or an SWF trace cut into campaigns
// by the MAX rule) to one cluster of identical processors, scheduled by
// fcfs, ostrich (the virtual fair-share schedule) or log (the trace's own
// schedule).
type Model struct{}

var policyDocs = map[string]string{
	"fcfs":    "jobs in submission order",
	"ostrich": "OStrich: campaigns in the order of their completion in a virtual fair-share schedule",
	"log":     "the trace's own recorded schedule (trace workloads only)",
}

func (Model) Name() string { return "campaign" }
func (Model) Doc() string {
	return "seeds 000/001: users' campaigns in closed loop on one cluster (generator or SWF trace)"
}
func (Model) Version() string { return Version }
func (Model) Section() string { return "campaign" }
func (Model) UsesLoads() bool { return false }

func (Model) Policies() []model.Policy {
	return model.PoliciesOf(ecampaign.Policies(), policyDocs)
}

// Settings are the manifest's campaign section: the choices of campaign
// scheduling that reasonable people make differently (see engine/campaign's
// doc), with defaults filled in so that leaving a key out and writing its
// default give the same cells.
//
//	campaign:
//	  job-order: spt       # inside a campaign under ostrich: spt | lpt | fifo
//	  stretch-base: bound  # bound | bound-release | alone
//	  hold: virtual-start  # or none
type Settings struct {
	Schedule    ecampaign.Options
	StretchBase string
}

// Canonical renders the settings for cell ids.
func (s Settings) Canonical() string {
	return "job-order=" + s.Schedule.JobOrder + " stretch-base=" + s.StretchBase + " hold=" + s.Schedule.Hold
}

func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	s := Settings{Schedule: ecampaign.Options{JobOrder: ecampaign.JobOrderSPT, Hold: ecampaign.HoldVirtualStart}, StretchBase: StretchBaseBound}
	if section == nil {
		return s, nil
	}
	var spec struct {
		JobOrder    string `yaml:"job-order"`
		StretchBase string `yaml:"stretch-base"`
		Hold        string `yaml:"hold"`
	}
	if err := model.DecodeSection(section, &spec, "job-order", "stretch-base", "hold"); err != nil {
		return nil, err
	}
	if spec.JobOrder != "" && !slices.Contains([]string{ecampaign.JobOrderSPT, ecampaign.JobOrderLPT, ecampaign.JobOrderFIFO}, spec.JobOrder) {
		return nil, fmt.Errorf("job-order %q; want spt, lpt or fifo", spec.JobOrder)
	}
	if spec.StretchBase != "" && !slices.Contains(StretchBases(), spec.StretchBase) {
		return nil, fmt.Errorf("stretch-base %q; want one of %s", spec.StretchBase, strings.Join(StretchBases(), ", "))
	}
	if spec.Hold != "" && !slices.Contains(ecampaign.Holds(), spec.Hold) {
		return nil, fmt.Errorf("hold %q; want one of %s", spec.Hold, strings.Join(ecampaign.Holds(), ", "))
	}
	s.Schedule.JobOrder = cmp.Or(spec.JobOrder, s.Schedule.JobOrder)
	s.StretchBase = cmp.Or(spec.StretchBase, s.StretchBase)
	s.Schedule.Hold = cmp.Or(spec.Hold, s.Schedule.Hold)
	return s, nil
}

func (Model) Generators() []string { return []string{gcampaign.ProfilesPreset} }

// Takes the campaign generator, and traces without months (trace months
// are the rigid model's).
func (Model) Takes(w *model.WorkloadSpec) bool {
	_, months := w.Options["months"]
	_, format := w.Options["format"]
	return (w.Trace != "" && !months && !format && w.Generator == "") || (w.Trace == "" && w.Generator == gcampaign.ProfilesPreset)
}

// Reference is seeds 000 and 001's reference, OStrich (model.Referenced).
func (Model) Reference() string { return "ostrich" }

// Rebase: a campaign cell's cumulative completion is the grid's
// (model.Rebased).
func (Model) Rebase() model.Rebase { return grid.CumulativeCompletionRebase() }

func (Model) Measures() []table.Measure {
	measures := grid.Model{}.Measures()
	for _, c := range CampaignColumns() {
		measures = append(measures, c.Measure)
	}
	return measures
}

func (Model) Tables(rec model.Record) []store.Schema {
	var out []store.Schema
	if rec.Jobs {
		out = append(out, table.JobsSchema())
	}
	if rec.Campaigns {
		out = append(out, table.CampaignsSchema())
	}
	return out
}

func (Model) NewSource(w *model.WorkloadSpec, env model.Env) (model.Source, error) {
	if w.Trace != "" {
		return traceSource(w, env.Path(w.Trace))
	}
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	p := gcampaign.DefaultProfilesParams()
	if err := w.ApplySet(p.Set); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &source{profiles: &p, canon: p.Canonical()}, nil
}

// A source builds campaign workloads: instances of the campaign generator,
// or the one workload of a trace.
type source struct {
	canon    string // everything that defines the workload, for cell ids
	profiles *gcampaign.ProfilesParams
	trace    *traceWorkload
}

// A traceWorkload is an SWF trace read once, when the manifest is loaded:
// its hash names it in cell ids, its report of dropped and repaired lines
// is shown by plan and run and kept in the Parquet metadata, and its
// campaigns are the source's one instance.
type traceWorkload struct {
	campaigns *wcampaign.Workload
	report    swf.Report
	loop      string // ecampaign.Options.Loop
}

// TraceWindow selects the jobs of a trace submitted from From up to, not
// including, To: dates YYYY-MM-DD at midnight in the log's time zone.
type TraceWindow struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

// traceKeys are the keys of a trace entry beyond model.CommonKeys.
var traceKeys = []string{"window", "replay"}

// WorkloadKeys are a trace entry's keys (model.WorkloadKeyed).
func (Model) WorkloadKeys() []string { return traceKeys }

func traceSource(w *model.WorkloadSpec, path string) (*source, error) {
	if err := w.CheckOptions(traceKeys...); err != nil {
		return nil, err
	}
	if err := w.OneTrace(""); err != nil {
		return nil, err
	}
	var windowSpec *TraceWindow
	if _, err := w.Option("window", &windowSpec); err != nil {
		return nil, err
	}
	var replaySpec *TraceReplay
	if _, err := w.Option("replay", &replaySpec); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w (paths are relative to the manifest's folder; the Parallel Workloads Archive has the logs: see the README)", err)
	}
	defer f.Close()
	var window swf.Window
	win := "all"
	if windowSpec != nil {
		if windowSpec.From == "" || windowSpec.To == "" {
			return nil, fmt.Errorf("window: want both from and to, as dates YYYY-MM-DD (to is excluded)")
		}
		window = swf.DateWindow(windowSpec.From, windowSpec.To)
		win = windowSpec.From + ".." + windowSpec.To
	}
	replay, err := replaySpec.normalised()
	if err != nil {
		return nil, err
	}
	// One pass over the file: the reader parses what the hash reads.
	var camp *wcampaign.Workload
	var report swf.Report
	sum, err := model.ReadHashed(f, func(r io.Reader) (err error) {
		camp, report, err = gcampaign.ReadTrace(r, path, replay.readerOptions(window), gcampaign.Release(replay.Release))
		return err
	})
	if errors.Is(err, swf.ErrJSON) {
		return nil, fmt.Errorf("trace: %w; a Batsim workload is read with format: batsim", err)
	}
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	s := &source{trace: &traceWorkload{campaigns: camp, report: report, loop: replay.Loop}}
	s.canon = fmt.Sprintf("trace sha256=%s window=%s %s", sum, win, replay.canonical())
	return s, nil
}

func (s *source) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d instances)", label, instances)
}

func (s *source) Report() string {
	if s.trace == nil {
		return ""
	}
	return s.trace.report.String()
}

// CheckPlatform refuses a platform of more than one cluster: campaigns run
// on identical processors.
func (s *source) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("campaign workloads run on identical processors: want a one-cluster platform such as single:64, not %s", name)
	}
	return nil
}

func (s *source) Allows(policy string) error {
	if policy == "log" && s.trace == nil {
		return fmt.Errorf("policy log replays a recorded schedule and needs a trace workload")
	}
	return nil
}

func (s *source) Groups(ax model.Axes) [][]model.Cell {
	if s.trace != nil && ax.Replicate > 0 {
		// A trace replays the same jobs under every root seed.
		return nil
	}
	return model.Instances(ax, Version, s.canon, gridgen.InstanceSeed)
}

// Prepare builds the cell's campaign workload and compiles it for every
// platform.
func (s *source) Prepare(ctx context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	w := s.traceCampaigns()
	if s.profiles != nil {
		var err error
		if w, err = gcampaign.GenerateProfiles(*s.profiles, c.RootSeed, c.Instance); err != nil {
			return nil, fmt.Errorf("building %s instance %d: %w", c.Workload, c.Instance, err)
		}
	}
	settings := env.Settings.(Settings)
	p := &prepared{campaigns: w, compiled: map[string]*gridengine.Instance{}, cores: map[string]int{}, settings: settings}
	p.settings.Schedule = s.options(settings.Schedule)
	for _, name := range slices.Sorted(maps.Keys(env.Platforms)) {
		var err error
		if p.compiled[name], err = ecampaign.Compile(w, env.Platforms[name].TotalCores()); err != nil {
			return nil, fmt.Errorf("%s instance %d on %s: %w", c.Workload, c.Instance, name, err)
		}
		p.cores[name] = env.Platforms[name].TotalCores()
	}
	return p, nil
}

// traceCampaigns returns the trace's workload, shared by every cell of the
// trace (nothing writes to it), or nil for a generator.
func (s *source) traceCampaigns() *wcampaign.Workload {
	if s.trace == nil {
		return nil
	}
	return s.trace.campaigns
}

// options returns the scheduling options of the source's cells: the
// manifest's, with a trace's replay loop.
func (s *source) options(o ecampaign.Options) ecampaign.Options {
	if s.trace != nil {
		o.Loop = s.trace.loop
	}
	return o
}

type prepared struct {
	campaigns *wcampaign.Workload
	compiled  map[string]*gridengine.Instance
	cores     map[string]int
	settings  Settings
}

func (p *prepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	s, err := ecampaign.Simulate(ctx, p.compiled[c.Platform], p.campaigns, c.Policy, p.settings.Schedule)
	if err != nil {
		return nil, err
	}
	rows, err := CampaignRows(p.campaigns, s, p.settings.StretchBase)
	if err != nil {
		return nil, err
	}
	return &Outcome{Outcome: grid.Outcome{CellID: c.ID, Schedule: s, Cores: p.cores[c.Platform]}, Campaigns: rows}, nil
}

// An Outcome is a campaign schedule with its campaigns measured.
type Outcome struct {
	grid.Outcome
	Campaigns []CampaignRow
}

// Measure returns the schedule's metrics and campaign summary, its job
// rows with rec.Jobs and its campaign rows with rec.Campaigns.
func (o *Outcome) Measure(rec model.Record) (model.Measured, error) {
	values, outcomes, measured, err := o.Metrics()
	if err != nil {
		return model.Measured{}, err
	}
	sum := SummarizeCampaigns(o.Campaigns)
	for _, col := range CampaignColumns() {
		if col.Integer {
			values = append(values, store.Int64(col.Int(&sum)))
		} else {
			values = append(values, store.Float64(col.Float(&sum)))
		}
	}
	children := map[string]store.Child{}
	if rec.Jobs {
		children[table.Jobs] = store.Child{Columns: grid.JobColumns(o.CellID, outcomes, measured)}
	}
	if rec.Campaigns {
		children[table.Campaigns] = store.Child{Rows: campaignTableRows(o.CellID, o.Campaigns)}
	}
	return model.Measured{Values: values, Children: children}, nil
}

func campaignTableRows(cellID string, campaigns []CampaignRow) []store.Row {
	rows := make([]store.Row, len(campaigns))
	for i, r := range campaigns {
		rows[i] = store.Row{
			store.String(cellID), store.String(r.User), store.String(r.Profile), store.Int64(r.Campaign),
			store.Int64(r.Jobs), store.Int64(r.SubmitTicks), store.Int64(r.CompletionTicks),
			store.Int64(r.WorkTicks), store.Float64(r.Stretch),
		}
	}
	return rows
}
