package moldable

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/gen/grid"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
	mworkload "github.com/sweep-sched/sweep/workload/moldable"
)

// Version versions the moldable-task model of seed 002: part of every
// moldable cell id.
const Version = "1"

// Model is the moldable-task model of seed 002: off-line moldable tasks
// (every task at time 0) on one cluster of m identical processors, under
// DEMT and its baselines, with lower bounds on C_max (lambda*) and sum w C
// (the interval LP).
type Model struct{}

var policyDocs = map[string]string{
	emoldable.AlgDEMT:       "DEMT: doubling batches of the MRT allotment, list-scheduled, with random batch orders",
	emoldable.AlgGang:       "every task on all m processors, in Smith's order",
	emoldable.AlgSequential: "every task on one processor, largest weight per time first (list)",
	emoldable.AlgListMRT:    "the MRT allotment list-scheduled in the allotment's order",
	emoldable.AlgListWLPTF:  "the MRT allotment, largest weighted processing time first",
	emoldable.AlgListSAF:    "the MRT allotment, smallest area first",
}

func (Model) Name() string { return "moldable" }
func (Model) Doc() string {
	return "seed 002: off-line moldable tasks on m processors, DEMT and baselines against lower bounds"
}
func (Model) Version() string { return Version }
func (Model) Section() string { return "moldable" }
func (Model) UsesLoads() bool { return false }

func (Model) Policies() []model.Policy {
	return model.PoliciesOf(emoldable.Algorithms(), policyDocs)
}

func (Model) Generators() []string { return gmoldable.Presets() }

func (Model) Takes(w *model.WorkloadSpec) bool {
	return w.Trace == "" && strings.HasPrefix(w.Generator, gmoldable.PresetPrefix)
}

func (Model) Measures() []table.Measure {
	var out []table.Measure
	for _, m := range measures() {
		out = append(out, m.Measure)
	}
	return out
}

// A measure is one column of a moldable cell with the getter that fills
// it: the one declaration of the model's measures.
type measure struct {
	table.Measure
	value func(o *Outcome, m *taken) store.Value
}

// taken is what a cell's measures are computed from.
type taken struct {
	tasks      int
	cmax, sum  float64
	cmaxBound  float64
	sumWCBound float64
}

// measures are a moldable cell's measures in table order (seed 002): the
// instance's size, the schedule's two criteria, their lower bounds
// (lambda* of the MRT dual test, the safe interval LP) and the ratios of
// one to the other, and the algorithm's own run time.
func measures() []measure {
	float := func(name, unit, doc string, better table.Direction, value func(o *Outcome, m *taken) float64) measure {
		return measure{table.Measure{Name: name, Unit: unit, Doc: doc, Better: better},
			func(o *Outcome, m *taken) store.Value { return store.Float64(value(o, m)) }}
	}
	return []measure{
		{table.Measure{Name: table.MoldableTasks, Integer: true, Unit: "tasks", Doc: "tasks of the instance"},
			func(_ *Outcome, m *taken) store.Value { return store.Int64(int64(m.tasks)) }},
		float(table.MoldableCmax, "time units", "makespan C_max", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.cmax }),
		float(table.MoldableSumWC, "time units", "weighted sum of completion times", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.sum }),
		float(table.MoldableCmaxBound, "time units", "lower bound of C_max: lambda* of the MRT dual test", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.cmaxBound }),
		float(table.MoldableSumWCBound, "time units", "lower bound of the weighted sum: the safe interval LP", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.sumWCBound }),
		float(table.MoldableCmaxRatio, "ratio", "C_max over its lower bound", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.cmax / m.cmaxBound }),
		float(table.MoldableSumWCRatio, "ratio", "weighted sum over its lower bound", table.Descriptive,
			func(_ *Outcome, m *taken) float64 { return m.sum / m.sumWCBound }),
		{table.Measure{Name: table.MoldableRunSeconds, Unit: "seconds", Doc: "the algorithm's wall time, lambda* included where it uses it", Timing: true},
			func(o *Outcome, _ *taken) store.Value { return store.Float64(o.RunSeconds) }},
	}
}

func (Model) Tables(model.Record) []store.Schema { return nil }

// MoldableSpec sets the choices of moldable-task scheduling (seed 002;
// see engine/moldable and shared/design/moldable.md) where the paper is
// silent. Empty fields take the defaults.
type MoldableSpec struct {
	// Anchor fixes DEMT's batch lengths and the interval LP's boundaries:
	// cmax (default; the doubling ends at lambda*) or pmin (it starts at
	// the smallest p_i(m)).
	Anchor string `yaml:"anchor"`
	// Tail is the length of DEMT's batches after the K-th: repeat
	// (default) or double.
	Tail string `yaml:"tail"`
	// Variant is how DEMT schedules its batches: list (default), shelf or
	// compact.
	Variant string `yaml:"variant"`
	// List is the list algorithm's semantics for DEMT and the baselines:
	// overtake (default; Garey-Graham) or strict.
	List string `yaml:"list"`
	// Shuffles is DEMT's number of random batch orders tried after the
	// natural one (default 10; 0 is written as none).
	Shuffles string `yaml:"shuffles"`
}

// Settings are the manifest's moldable choices with defaults filled in.
type Settings struct{ emoldable.DEMTOptions }

// Canonical renders the settings for cell ids.
func (s Settings) Canonical() string {
	o := s.DEMTOptions
	return fmt.Sprintf("moldable anchor=%s tail=%s variant=%s list=%s shuffles=%d", o.Anchor, o.Tail, o.Variant, o.List, o.Shuffles)
}

// ParseSettings returns the moldable choices with defaults filled in.
func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	o := emoldable.DefaultDEMTOptions()
	if section == nil {
		return Settings{o}, nil
	}
	var s MoldableSpec
	if err := model.DecodeSection(section, &s, "anchor", "tail", "variant", "list", "shuffles"); err != nil {
		return nil, err
	}
	o.Anchor = cmp.Or(emoldable.Anchor(s.Anchor), o.Anchor)
	o.Tail = cmp.Or(emoldable.Tail(s.Tail), o.Tail)
	o.Variant = cmp.Or(emoldable.Variant(s.Variant), o.Variant)
	o.List = cmp.Or(emoldable.ListMode(s.List), o.List)
	switch s.Shuffles {
	case "":
	case "none":
		o.Shuffles = 0
	default:
		n, err := strconv.Atoi(s.Shuffles)
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, fmt.Errorf("shuffles %q: want a count in 1..1000000, or none", s.Shuffles)
		}
		o.Shuffles = n
	}
	return Settings{o}, o.Validate()
}

// NewSource resolves a moldable-task generator preset.
func (Model) NewSource(w *model.WorkloadSpec, _ model.Env) (model.Source, error) {
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	preset, err := gmoldable.Lookup(w.Generator)
	if err != nil {
		return nil, fmt.Errorf("generator: %w", err)
	}
	p := preset.Defaults()
	if err := w.ApplySet(p.Set); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &source{params: p, canon: p.Canonical()}, nil
}

// source is a moldable-task generator with its parameters.
type source struct {
	params gmoldable.Params
	canon  string
}

func (s *source) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d instances)", label, instances)
}

func (s *source) Report() string { return "" }

func (s *source) Allows(string) error { return nil }

// CheckPlatform wants single:m, m the generator's processors.
func (s *source) CheckPlatform(name string, p *platform.Platform) error {
	m := s.params.Processors()
	if len(p.Clusters) != 1 || p.TotalCores() != m {
		return fmt.Errorf("moldable workloads run on one cluster of m identical processors, m = the generator's processors (%d): want platform single:%d, not %s (or set processors)", m, m, name)
	}
	return nil
}

func (s *source) Groups(ax model.Axes) [][]model.Cell {
	return model.Instances(ax, Version, s.canon, grid.InstanceSeed)
}

// prepared is one moldable workload instance with what every algorithm's
// cell shares: lambda* with the MRT allotment (and the time they took,
// part of the algorithms that use them) and the interval-LP bound on
// sum w C.
type prepared struct {
	instance      *emoldable.Instance
	lambdaSeconds float64
	lpBound       float64
	options       emoldable.DEMTOptions
}

// Prepare generates the cell's instance and computes its bounds.
func (s *source) Prepare(_ context.Context, cell model.Cell, env model.Env) (model.Prepared, error) {
	w, err := gmoldable.Generate(s.params, cell.RootSeed, cell.Instance)
	if err != nil {
		return nil, fmt.Errorf("generating %s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	return prepare(w, cell, env.Settings.(Settings).DEMTOptions)
}

// prepare computes what every algorithm's cell of instance w shares.
func prepare(w *mworkload.Workload, cell model.Cell, opts emoldable.DEMTOptions) (*prepared, error) {
	start := time.Now()
	in, err := emoldable.NewInstance(w)
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	lambdaSeconds := time.Since(start).Seconds()
	lp, err := lpbound.ForInstance(in, opts.Anchor)
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	sol, err := lp.Solve()
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	return &prepared{instance: in, lambdaSeconds: lambdaSeconds, lpBound: sol.Value, options: opts}, nil
}

// usesLambdaStar reports whether the algorithm computes lambda* and the
// MRT allotment first, so that their time is part of its run time.
func usesLambdaStar(algorithm string) bool {
	switch algorithm {
	case emoldable.AlgGang, emoldable.AlgSequential:
		return false
	}
	return true
}

// Simulate schedules the cell's instance with its algorithm and checks the
// schedule. DEMT's shuffles draw from the cell's policy seed.
func (p *prepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := p.options
	opts.Seed = c.PolicySeed
	start := time.Now()
	s, err := p.instance.Run(c.Policy, opts)
	if err != nil {
		return nil, err
	}
	seconds := time.Since(start).Seconds()
	if usesLambdaStar(c.Policy) {
		seconds += p.lambdaSeconds
	}
	// Checking costs O(n log n), nothing beside the algorithms, and turns
	// a scheduling bug into a failed cell instead of a wrong number.
	if err := verify.Moldable(p.instance.Workload, s); err != nil {
		return nil, fmt.Errorf("%s: invalid schedule: %w", c.Policy, err)
	}
	return &Outcome{Prepared: p, Schedule: s, RunSeconds: seconds}, nil
}

// An Outcome is one moldable schedule with the bounds of its instance.
type Outcome struct {
	Prepared   *prepared
	Schedule   emoldable.Schedule
	RunSeconds float64 // the algorithm's wall time, lambda* included where it uses it
}

// Measure returns C_max and sum w_i C_i with their lower bounds and ratios
// (Model.Measures).
func (o *Outcome) Measure(model.Record) (model.Measured, error) {
	p := o.Prepared
	w := p.instance.Workload
	t := &taken{tasks: len(w.Tasks), cmax: o.Schedule.Makespan(), sum: o.Schedule.WeightedCompletion(w),
		cmaxBound: p.instance.LambdaStar, sumWCBound: p.lpBound}
	var values []store.Value
	for _, m := range measures() {
		values = append(values, m.value(o, t))
	}
	return model.Measured{Values: values}, nil
}
