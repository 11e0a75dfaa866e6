// Package model is the seam between sweep's runner and its simulator
// families, shaped like database/sql/driver or image.RegisterFormat under
// their users. A Model (the grid DAG model of seed 004, the campaign model
// of seeds 000/001, the rigid model of seed 003, the moldable-task
// model of seed 002) says which manifest workload entries it takes, which
// policies it offers and which settings section it reads; it resolves an
// entry into a Source, which expands into cells, refuses what cannot run
// before anything runs, prepares what a workload instance's cells share,
// simulates each cell into an Outcome and measures it into a cell row and
// child rows of the tables it declares.
//
// The runner (package sweep) does the same for every model: plan the cells,
// hand each to a worker, ask the cell's model to prepare, simulate and
// measure it, write the rows. Adding a model is a new package and one
// registration line in a Registry.
package model

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/internal/suggest"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// A Model is one family of simulators with its workloads, policies and
// measures.
type Model interface {
	// Name names the model in results ("grid", "campaign", "rigid",
	// "moldable"): the Parquet metadata key sweep.models lists the models
	// of a run.
	Name() string
	// Doc says in one line what the model simulates.
	Doc() string
	// Version is part of every cell id of the model: bump it when a change
	// to the simulator, generators or measures changes what a cell
	// computes, so that resume never mixes two versions.
	Version() string
	// Policies lists the policies the model offers, in a stable order.
	Policies() []Policy
	// Section is the top-level manifest key of the model's settings
	// ("network", "campaign", ...), or "" for none. A model may accept
	// other keys for it too (SectionAliaser).
	Section() string
	// ParseSettings checks the model's section (nil when the manifest has
	// none) and returns the settings with defaults filled in.
	ParseSettings(section *yaml.Node) (Settings, error)
	// Takes reports whether a workload entry is the model's: by its
	// generator preset or its trace and options.
	Takes(w *WorkloadSpec) bool
	// Generators lists the generator presets the model takes, for
	// messages.
	Generators() []string
	// NewSource resolves one of the model's workload entries; env opens
	// the files it names. The model may fill in the entry's instances.
	NewSource(w *WorkloadSpec, env Env) (Source, error)
	// UsesLoads reports whether the model's cells range over the
	// manifest's load ratios (open-loop arrivals).
	UsesLoads() bool
	// Measures are the model's columns of the cells table, after the
	// identity columns (table.CellHead).
	Measures() []table.Measure
	// Tables are the child tables the model writes given what the manifest
	// records, each row starting with the cell id.
	Tables(rec Record) []store.Schema
}

// Settings are a model's parsed manifest section.
type Settings interface {
	// Canonical renders what in the settings changes a cell's result, for
	// cell ids.
	Canonical() string
}

// A Policy is one scheduling policy a model offers.
type Policy struct {
	Name   string
	Doc    string  // one line
	Params []Param // parameters a manifest may set, none for most built-ins
}

// A Param is one parameter of a policy.
type Param struct {
	Name    string
	Doc     string
	Default string
}

// A Source is one manifest workload entry resolved by its model.
type Source interface {
	// Describe names the source on the plan's workload axis, e.g.
	// "fan (30 instances)".
	Describe(label string, instances int) string
	// Report is what reading the source's trace dropped, filtered or
	// repaired, or "" for generated workloads.
	Report() string
	// CheckPlatform refuses a platform the source's workloads cannot run
	// on, saying what would do.
	CheckPlatform(name string, p *platform.Platform) error
	// Allows refuses a policy of the model that cannot run this source.
	Allows(policy string) error
	// Groups expands the source's cells in one replicate: one group per
	// workload instance (whose cells share its preparation), in a fixed
	// order. A source whose cells do not depend on the root seed (a trace)
	// has cells in replicate 0 only.
	Groups(ax Axes) [][]Cell
	// Prepare builds what the cells of c's group share: the instance
	// generated and compiled for each platform, bounds, a trace cut to a
	// cluster. It runs once per group, before any of its cells.
	Prepare(ctx context.Context, c Cell, env Env) (Prepared, error)
}

// Prepared is one workload instance ready to simulate; its methods are
// safe for concurrent use by the cells of its group.
type Prepared interface {
	// Simulate runs cell c under its policy.
	Simulate(ctx context.Context, c Cell) (Outcome, error)
}

// An Outcome is one simulated cell.
type Outcome interface {
	// Measure returns the cell's measures and its child rows.
	Measure(rec Record) (Measured, error)
}

// An Outcome may have optional abilities, each a small interface the
// commands that use it test for: Charted (a Gantt chart), Exporter (a
// schedule in the field's formats) and Rebaser (a base tick for its
// measures).

// An Exporter is an outcome whose schedule can be written in the field's
// formats (`sweep export`, `sweep simulate --export`).
type Exporter interface {
	ExportSchedule() (*export.Schedule, error)
}

// A Rebaser is an outcome whose cumulative-completion measures run to a
// base tick (`sweep simulate --base`) rather than to the makespan.
type Rebaser interface {
	SetBase(ticks int64)
}

// Measured is what a cell adds to the results.
type Measured struct {
	// Values are the cell's measures in the order of its model's Measures.
	Values []store.Value
	// Children are the cell's rows of each child table, by table name.
	Children map[string]store.Child
}

// Record says which optional child tables a run writes.
type Record struct {
	// Jobs writes one row per job per cell.
	Jobs bool `yaml:"jobs"`
	// Campaigns writes one row per campaign per cell (campaign
	// workloads).
	Campaigns bool `yaml:"campaigns"`
	// Users writes one row per user per cell (trace-month workloads).
	Users bool `yaml:"users,omitempty"`
}

// recordKeys are the keys of a manifest's record section.
var recordKeys = []string{"jobs", "campaigns", "users"}

// UnmarshalYAML reads the record section, refusing a key it does not
// know with the valid ones (and the nearest), not a Go type's name.
func (r *Record) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: record: want a mapping such as {jobs: true}; valid keys: %s", v.Line, strings.Join(recordKeys, ", "))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if !slices.Contains(recordKeys, k.Value) {
			return fmt.Errorf("line %d: record: unknown key %q%s; valid keys: %s", k.Line, k.Value, suggest.DidYouMean(k.Value, recordKeys), strings.Join(recordKeys, ", "))
		}
		var on bool
		if err := val.Decode(&on); err != nil {
			return fmt.Errorf("line %d: record: %s: %q; want true or false", val.Line, k.Value, val.Value)
		}
	}
	type plain Record
	return v.Decode((*plain)(r))
}

// Env is what a source may read while it is resolved and prepared.
type Env struct {
	// Path turns a path named in the manifest into the one to open:
	// relative paths are taken from the manifest's folder.
	Path func(string) string
	// Platforms are the manifest's platforms by name.
	Platforms map[string]*platform.Platform
	// Settings are the model's parsed section.
	Settings Settings
	// Policies are the manifest's policy entries by name.
	Policies map[string]PolicyEntry
}

// Axes are the manifest's axes a source's cells range over in one
// replicate.
type Axes struct {
	Experiment string
	Seed       uint64 // the manifest's root seed
	Replicate  int
	RootSeed   uint64 // the replicate's root seed
	Label      string // the workload entry's label
	Generator  string
	Instances  int
	Platforms  []string // in manifest order; Env.Platforms has them
	Loads      []float64
	Policies   []string
	Settings   Settings
	Env        Env
}

// A Registry is a set of models and their policies, found by name.
type Registry struct {
	models []Model
}

// NewRegistry returns a registry of the models in the order given, which
// is the order of their columns in a cells table.
func NewRegistry(models ...Model) (*Registry, error) {
	r := &Registry{}
	for _, m := range models {
		if err := r.Register(m); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a model; its name, section and policy names must be new.
func (r *Registry) Register(m Model) error {
	for _, old := range r.models {
		if old.Name() == m.Name() {
			return fmt.Errorf("model %q registered twice", m.Name())
		}
		for _, s := range SectionKeys(m) {
			if slices.Contains(SectionKeys(old), s) {
				return fmt.Errorf("model %q: section %q is model %q's", m.Name(), s, old.Name())
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range m.Policies() {
		if seen[p.Name] {
			return fmt.Errorf("model %q: policy %q listed twice (a policy of its own named like a built-in?)", m.Name(), p.Name)
		}
		seen[p.Name] = true
	}
	r.models = append(r.models, m)
	return nil
}

// Models returns the registered models in registration order.
func (r *Registry) Models() []Model { return slices.Clone(r.models) }

// Lookup returns the model called name, or nil.
func (r *Registry) Lookup(name string) Model {
	for _, m := range r.models {
		if m.Name() == name {
			return m
		}
	}
	return nil
}

// PolicyModels returns the models offering the policy called name, in
// registration order. A name may be several models' (fcfs is the campaign
// model's and the rigid model's): the model of the workload a cell runs
// says which policy it is.
func (r *Registry) PolicyModels(name string) []Model {
	var out []Model
	for _, m := range r.models {
		if _, ok := PolicyOf(m, name); ok {
			out = append(out, m)
		}
	}
	return out
}

// Policy returns the policy called name with its model, the first to
// register it when several offer it.
func (r *Registry) Policy(name string) (Policy, Model, bool) {
	for _, m := range r.models {
		if p, ok := PolicyOf(m, name); ok {
			return p, m, true
		}
	}
	return Policy{}, nil, false
}

// PolicyOf returns model m's policy called name.
func PolicyOf(m Model, name string) (Policy, bool) {
	for _, p := range m.Policies() {
		if p.Name == name {
			return p, true
		}
	}
	return Policy{}, false
}

// PolicyNames lists every policy name of every model, once each, in
// registration order.
func (r *Registry) PolicyNames() []string {
	var names []string
	for _, m := range r.models {
		for _, p := range m.Policies() {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// Sections lists the top-level keys of the models' manifest sections,
// aliases included (SectionKeys).
func (r *Registry) Sections() []string {
	var out []string
	for _, m := range r.models {
		out = append(out, SectionKeys(m)...)
	}
	return out
}

// ModelOf returns the model that takes a workload entry, or an error
// naming every generator a manifest may give.
func (r *Registry) ModelOf(w *WorkloadSpec) (Model, error) {
	if err := r.CheckWorkloadKeys(w); err != nil {
		return nil, err
	}
	for _, m := range r.models {
		if m.Takes(w) {
			return m, nil
		}
	}
	if w.Generator == "" && w.Trace == "" {
		return nil, fmt.Errorf("give a generator or a trace")
	}
	var all []string
	for _, m := range r.models {
		all = append(all, m.Generators()...)
	}
	if w.Generator == "" {
		// A trace whose keys no model takes as they are given, such as
		// a format no model reads.
		return nil, fmt.Errorf("trace %s: no model takes a trace entry with keys %s", w.Trace, strings.Join(w.OptionKeys(), ", "))
	}
	return nil, fmt.Errorf("generator %q: unknown%s; valid generators: %s (or give trace: FILE)", w.Generator, suggest.DidYouMean(w.Generator, all), strings.Join(all, ", "))
}

// A WorkloadKeyed model's workload entries take keys of their own beyond
// CommonKeys: the registry checks every entry's keys against all models'
// before choosing the model, so that a mistyped key ("month" for
// "months") is named as such rather than taken for another model's entry.
type WorkloadKeyed interface {
	WorkloadKeys() []string
}

// CheckWorkloadKeys refuses a workload key that no model takes, naming the
// nearest valid one.
func (r *Registry) CheckWorkloadKeys(w *WorkloadSpec) error {
	valid := slices.Clone(CommonKeys)
	for _, m := range r.models {
		if k, ok := m.(WorkloadKeyed); ok {
			for _, key := range k.WorkloadKeys() {
				if !slices.Contains(valid, key) {
					valid = append(valid, key)
				}
			}
		}
	}
	for _, key := range w.OptionKeys() {
		if !slices.Contains(valid, key) {
			return fmt.Errorf("line %d: workloads: unknown key %q%s; valid keys: %s", w.Options[key].Line, key, suggest.DidYouMean(key, valid), strings.Join(valid, ", "))
		}
	}
	return nil
}

// Versions names every model's version, e.g. "dag=1 campaign=3", for the
// Parquet metadata.
func (r *Registry) Versions() string {
	parts := make([]string, len(r.models))
	for i, m := range r.models {
		parts[i] = m.Name() + "=" + m.Version()
	}
	return strings.Join(parts, " ")
}

// A Generator is a model that writes instances of its generator presets as
// workload files of its own format (`sweep gen`).
type Generator interface {
	// Generate writes instance `instance` of preset, with the settings
	// (key=value) applied, under root seed seed, to w, and returns a
	// one-line summary. A positive arrivals.Load sets open-loop arrivals
	// by the load-ratio rule on arrivals.Cores cores. Errors in the
	// caller's input are wrapped in an InputError.
	Generate(ctx context.Context, preset string, settings []string, seed uint64, instance int, arrivals Arrivals, w io.Writer) (string, error)
}

// A PresetDocumenter is a model whose generator presets take parameters
// it can list, with one line each (`sweep policies`).
type PresetDocumenter interface {
	// PresetParams lists the parameters of a generator preset that a
	// manifest sets under set: (and `sweep gen` with --set), in a stable
	// order; nil for a preset the model does not know.
	PresetParams(preset string) []Param
}

// Arrivals asks a generator for open-loop arrivals: work arriving at Load
// times what Cores cores can run. A Cores without a Load is the platform
// named on the command line, for a generator whose workload has the
// machine's size (a rigid model's); others ignore it.
type Arrivals struct {
	Load  float64
	Cores int
}

// An InputError is an error in what the caller gave (a parameter, a
// setting, an option that does not apply): the command exits 2.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// A FileReader is a model whose workloads can be read from one file
// (`sweep simulate`): its own JSON format, or a trace.
type FileReader interface {
	// ReadFile reads the workload file at path into a source of one
	// instance; options are the file's reading options given on the
	// command line (key=value), such as a trace's month.
	ReadFile(path string, options map[string]string, env Env) (Source, error)
}
