package grid

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/export"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/gen/wfcommons"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// Version versions seed 004's grid model: part of every grid cell id.
const Version = "1"

// Model is the grid DAG model of seed 004: open-loop DAG jobs from the
// Table 2 generators, routed over a tree of clusters with network delays,
// list-scheduled under an ordering policy.
type Model struct {
	// Own are ordering policies of the researcher's own module, offered
	// beside the built-in ones.
	Own []Order
}

// policyDocs are the one-line docs of the engine's ordering policies.
var policyDocs = map[string]string{
	"random":    "a uniformly random ready task first, drawn afresh at every pass (per-cluster streams)",
	"fifo-task": "the task that became ready first",
	"fifo-job":  "the task of the job that arrived first",
	"fairshare": "the task of the most under-served share (share tree, entitled / used)",
	"lrtf":      "the task of the job with the longest remaining time first",
	"srtf":      "the task of the job with the shortest remaining time first",
	"pslr":      "Projected-SLR: the task of the job whose projected slowdown is worst",
}

func (Model) Name() string { return "grid" }
func (Model) Doc() string {
	return "seed 004: DAG jobs on a grid of clusters, list scheduling under an ordering policy"
}
func (Model) Version() string { return Version }
func (Model) Section() string { return "network" }
func (Model) UsesLoads() bool { return true }

func (m Model) Policies() []model.Policy {
	out := model.PoliciesOf(gridengine.Policies(), policyDocs)
	for _, o := range m.Own {
		out = append(out, model.Policy{Name: o.Name, Doc: o.Doc, Params: o.Params})
	}
	return out
}

// Network is the model's settings: the manifest's network section,
//
//	network: {ccr: "0.2", delay: ccr}   # delay: ccr | fastgridsim
type Network struct{ gridengine.Network }

// Canonical renders the network for cell ids.
func (n Network) Canonical() string { return n.CCR + " " + string(n.Delay) }

func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	n := gridengine.DefaultNetwork()
	if section != nil {
		var spec struct {
			CCR   string `yaml:"ccr"`
			Delay string `yaml:"delay"`
		}
		if err := model.DecodeSection(section, &spec, "ccr", "delay"); err != nil {
			return nil, err
		}
		if spec.CCR != "" {
			n.CCR = spec.CCR
		}
		if spec.Delay != "" {
			n.Delay = gridengine.DelayFormula(spec.Delay)
		}
	}
	return Network{n}, n.Validate()
}

func (Model) Generators() []string { return append(gridgen.Presets(), wfcommons.Preset) }

func (m Model) Takes(w *model.WorkloadSpec) bool {
	return w.Trace == "" && slices.Contains(m.Generators(), w.Generator)
}

func (Model) Measures() []table.Measure {
	var out []table.Measure
	for _, c := range MetricColumns() {
		out = append(out, c.Measure)
	}
	return out
}

// Reference is seed 004's reference, PSLR (model.Referenced).
func (Model) Reference() string { return "pslr" }

// Rebase says that cumulative completion is taken at each cell's makespan
// (model.Rebased): the analysis puts a pair group's cells on one base with
// RebaseCumulativeCompletion.
func (Model) Rebase() model.Rebase { return CumulativeCompletionRebase() }

// CumulativeCompletionRebase is the model.Rebase of cumulative completion,
// which the campaign model's cells carry too.
func CumulativeCompletionRebase() model.Rebase {
	return model.Rebase{Measure: MeasureCumulativeCompletion, Base: MeasureMakespan, Weight: MeasureVolumeTotal, Func: RebaseCumulativeCompletion}
}

func (Model) Tables(rec model.Record) []store.Schema {
	var out []store.Schema
	if rec.Jobs {
		out = append(out, table.JobsSchema())
	}
	// Ten rows per cell: Fig. 7 without job rows.
	return append(out, table.VolumeDecilesSchema())
}

func (m Model) NewSource(w *model.WorkloadSpec, env model.Env) (model.Source, error) {
	if w.Generator == wfcommons.Preset {
		s, err := newWorkflowSource(w, env)
		if err != nil {
			return nil, err
		}
		s.own = m.Own
		return s, nil
	}
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	preset, err := gridgen.Lookup(w.Generator)
	if err != nil {
		return nil, fmt.Errorf("generator: %w", err)
	}
	params := preset.Defaults()
	if err := w.ApplySet(params.Set); err != nil {
		return nil, err
	}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	return &source{params: params, own: m.Own}, nil
}

// source is a generator preset with its parameters.
type source struct {
	params gridgen.Params
	own    []Order
}

func (s *source) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d instances)", label, instances)
}

func (s *source) Report() string { return "" }

func (s *source) Allows(string) error { return nil }

// CheckPlatform refuses a platform without a cluster of every task kind
// the generator draws, or none wide enough for its widest task.
func (s *source) CheckPlatform(name string, p *platform.Platform) error {
	kinds, maxCores := s.params.TaskNeeds()
	widest := map[string]int{}
	for _, c := range p.Clusters {
		widest[c.Kind] = max(widest[c.Kind], c.Cores)
	}
	for _, kind := range kinds {
		if widest[kind] == 0 {
			return fmt.Errorf("platform %s has no cluster of kind %s, which %s draws (kind2-prob %s); give a platform with %s clusters such as burkimsher2013, or set kind2-prob: 0",
				name, kind, s.params.Preset(), mustGet(s.params, "kind2-prob"), strings.Join(kinds, " and "))
		}
	}
	for _, kind := range kinds {
		if widest[kind] < maxCores {
			return fmt.Errorf("platform %s: the widest %s cluster has %d cores but %s draws tasks of up to %d cores (cores %s); give a wider platform or set cores",
				name, kind, widest[kind], s.params.Preset(), maxCores, mustGet(s.params, "cores"))
		}
	}
	return nil
}

func mustGet(p gridgen.Params, key string) string {
	v, err := p.Get(key)
	if err != nil {
		return "?"
	}
	return v
}

func (s *source) Groups(ax model.Axes) [][]model.Cell {
	canon := s.params.Canonical()
	return model.Instances(ax, Version, canon, gridgen.InstanceSeed)
}

// Prepare generates the cell's instance and compiles it for every
// platform of the manifest.
func (s *source) Prepare(ctx context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	w, err := gridgen.Generate(s.params, c.RootSeed, c.Instance)
	if err != nil {
		return nil, fmt.Errorf("generating %s instance %d: %w", c.Workload, c.Instance, err)
	}
	net := env.Settings.(Network).Network
	p := &prepared{compiled: map[string]*gridengine.Instance{}, platforms: env.Platforms, entries: env.Policies, own: s.own}
	for _, name := range slices.Sorted(maps.Keys(env.Platforms)) {
		// A platform the workload cannot run on (one of another model's
		// workloads, excluded for this one) fails only the cells on it.
		if err := s.CheckPlatform(name, env.Platforms[name]); err != nil {
			continue
		}
		if p.compiled[name], err = gridengine.Compile(w, env.Platforms[name], net); err != nil {
			return nil, fmt.Errorf("%s instance %d on %s: %w", c.Workload, c.Instance, name, err)
		}
	}
	return p, nil
}

// prepared is one generated instance compiled per platform, with its
// arrivals per platform and load computed by the first cell that needs
// them and shared by the others.
type prepared struct {
	compiled  map[string]*gridengine.Instance
	platforms map[string]*platform.Platform

	// ownArrivals runs the instance at the arrivals it was read with (a
	// workload file), not at a load ratio's.
	ownArrivals bool
	// entries are the manifest's policy entries; own the model's Go
	// orders.
	entries map[string]model.PolicyEntry
	own     []Order

	mu       sync.Mutex
	arrivals map[arrivalKey][]int64
	// volumeOrders are the compiled instances' jobs in volume order, for
	// the volume deciles, by platform; the first cell measured sorts them.
	volumeOrders map[string]*sharedVolumeOrder
}

// volumeOrder returns the shared volume order of the instance on a
// platform.
func (p *prepared) volumeOrder(platform string) *sharedVolumeOrder {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.volumeOrders[platform]
	if v == nil {
		if p.volumeOrders == nil {
			p.volumeOrders = map[string]*sharedVolumeOrder{}
		}
		v = &sharedVolumeOrder{}
		p.volumeOrders[platform] = v
	}
	return v
}

type arrivalKey struct {
	platform string
	load     float64
}

// arrivalsOf returns the open-loop arrivals of the instance at the cell's
// load ratio on its platform (gridgen.Arrivals). Simulate only reads them.
func (p *prepared) arrivalsOf(c model.Cell, in *gridengine.Instance) ([]int64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := arrivalKey{c.Platform, c.Load}
	if a, ok := p.arrivals[key]; ok {
		return a, nil
	}
	a, err := gridgen.Arrivals(in.Volumes(), p.platforms[c.Platform].TotalCores(), c.Load)
	if err != nil {
		return nil, fmt.Errorf("arrivals: %w", err)
	}
	if p.arrivals == nil {
		p.arrivals = map[arrivalKey][]int64{}
	}
	p.arrivals[key] = a
	return a, nil
}

func (p *prepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	in := p.compiled[c.Platform]
	if in == nil {
		return nil, fmt.Errorf("%s instance %d cannot run on platform %s", c.Workload, c.Instance, c.Platform)
	}
	opts := gridengine.Options{Policy: c.Policy, Seed: c.PolicySeed}
	if !p.ownArrivals {
		arrivals, err := p.arrivalsOf(c, in)
		if err != nil {
			return nil, err
		}
		opts.Release = gridengine.OpenLoop(arrivals)
	}
	s, err := p.simulate(ctx, c.Policy, in, opts)
	if err != nil {
		return nil, err
	}
	return &Outcome{CellID: c.ID, Schedule: s, Cores: p.platforms[c.Platform].TotalCores(), volumeOrder: p.volumeOrder(c.Platform)}, nil
}

// An Outcome is one simulated schedule of the engine, grid or campaign.
type Outcome struct {
	CellID   string
	Schedule *gridengine.Schedule
	Cores    int // the platform's, for utilisation
	// BaseTicks is the cumulative-completion base; 0 means the makespan,
	// the runner's choice.
	BaseTicks int64
	// volumeOrder is shared by the cells of the instance; nil, each
	// Measure sorts the jobs itself.
	volumeOrder *sharedVolumeOrder
}

// SetBase sets the cumulative-completion base (`sweep simulate --base`).
func (o *Outcome) SetBase(ticks int64) { o.BaseTicks = ticks }

// Measure returns the schedule's metrics, its volume deciles and, with
// rec.Jobs, its job rows.
func (o *Outcome) Measure(rec model.Record) (model.Measured, error) {
	values, outcomes, measured, err := o.Metrics()
	if err != nil {
		return model.Measured{}, err
	}
	deciles := volumeDeciles(o.volumeOrder.of(outcomes), measured)
	children := map[string]store.Child{table.VolumeDeciles: {Rows: volumeDecileRows(o.CellID, deciles)}}
	if rec.Jobs {
		children[table.Jobs] = store.Child{Columns: JobColumns(o.CellID, outcomes, measured)}
	}
	return model.Measured{Values: values, Children: children}, nil
}

// Metrics returns the schedule's metrics as cells-table values in
// MetricColumns order, with its job outcomes and their measures.
func (o *Outcome) Metrics() ([]store.Value, []gridengine.JobOutcome, []JobMetrics, error) {
	outcomes := o.Schedule.Outcomes()
	base := o.BaseTicks
	if base == 0 {
		for _, j := range outcomes {
			base = max(base, j.FinishTick)
		}
	}
	measured, err := MeasureJobs(outcomes)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("metrics: %w", err)
	}
	metrics, err := ComputeMetricsOf(outcomes, measured, o.Cores, base)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("metrics: %w", err)
	}
	columns := MetricColumns()
	values := make([]store.Value, len(columns))
	for i, col := range columns {
		if col.Integer {
			values[i] = store.Int64(col.Int(&metrics))
		} else {
			values[i] = store.Float64(col.Float(&metrics))
		}
	}
	return values, outcomes, measured, nil
}

// JobColumns are the jobs-table rows of a schedule's jobs, a column at a
// time: seed 004's run writes 24 million of them, and as Rows they took
// 4.4 MB a cell of 40-byte values, 7% of the run's CPU, and the largest
// share of its live heap.
func JobColumns(cellID string, outcomes []gridengine.JobOutcome, measured []JobMetrics) *store.Columns {
	n := len(outcomes)
	ints := make([]int64, 7*n)
	floats := make([]float64, 3*n)
	cellIDs := make([]string, n)
	intCol := func(k int) []int64 { return ints[k*n : (k+1)*n : (k+1)*n] }
	floatCol := func(k int) []float64 { return floats[k*n : (k+1)*n : (k+1)*n] }
	job, arrival, start, finish, volume, critical, tasks := intCol(0), intCol(1), intCol(2), intCol(3), intCol(4), intCol(5), intCol(6)
	slr, stretch, speedup := floatCol(0), floatCol(1), floatCol(2)
	for j, o := range outcomes {
		jm := &measured[j]
		cellIDs[j] = cellID
		job[j], arrival[j], start[j], finish[j] = int64(j), o.ArrivalTick, o.StartTick, o.FinishTick
		volume[j], critical[j], tasks[j] = o.VolumeCoreTicks, o.CriticalPathTicks, int64(o.Tasks)
		slr[j], stretch[j], speedup[j] = jm.SLR, jm.Stretch, jm.Speedup
	}
	return &store.Columns{Len: n, Fields: []store.ColumnValues{
		{String: cellIDs}, {Int64: job}, {Int64: arrival}, {Int64: start}, {Int64: finish}, {Int64: volume},
		{Int64: critical}, {Float64: slr}, {Float64: stretch}, {Float64: speedup}, {Int64: tasks},
	}}
}

// volumeDecileRows are the volume_deciles rows of a cell.
func volumeDecileRows(cellID string, deciles []VolumeDecile) []store.Row {
	rows := make([]store.Row, len(deciles))
	for i, d := range deciles {
		rows[i] = store.Row{store.String(cellID), store.Int64(int64(d.Decile)), store.Int64(d.Jobs),
			store.Float64(d.SLRSum), store.Float64(d.SLRMax)}
	}
	return rows
}

// ExportSchedule returns the schedule with each task as a job, for `sweep
// export`: a tick is written as a second, a task's submit time is its
// job's arrival, its processors its cores and its requested time its
// execution time; tasks are numbered in the instance's order from 1.
func (o *Outcome) ExportSchedule() (*export.Schedule, error) {
	s := o.Schedule
	in := s.Instance
	out := &export.Schedule{Name: in.Platform.Name, Procs: in.Platform.TotalCores()}
	for g := range in.TaskIDs {
		j := in.TaskJob(g)
		out.Jobs = append(out.Jobs, export.Job{ID: in.JobIDs[j] + "/" + in.TaskIDs[g], Number: int64(g + 1),
			SubmitSeconds: s.JobArrival[j], StartSeconds: s.TaskStart[g], FinishSeconds: s.TaskFinish[g],
			Procs: in.Cores(g), RequestedSeconds: s.TaskFinish[g] - s.TaskStart[g], User: int64(j)})
	}
	return out, nil
}
