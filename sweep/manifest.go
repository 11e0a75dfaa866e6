package sweep

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/internal/suggest"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/platform"

	"golang.org/x/sync/errgroup"
	"gopkg.in/yaml.v3"
)

// A Manifest describes an experiment: the axes whose product is the set of
// cells (workload instances x loads x platforms x policies) and how to
// record and analyse them. Its YAML form is documented in the README.
type Manifest struct {
	Experiment string `yaml:"experiment"`
	Seed       uint64 `yaml:"seed"`
	// Replicates runs the whole experiment under this many root seeds
	// (ReplicateSeed), an axis of cells; 0 or 1 runs it once.
	Replicates int                  `yaml:"replicates,omitempty"`
	Platform   string               `yaml:"platform,omitempty"`
	Platforms  []string             `yaml:"platforms"`
	Workloads  []model.WorkloadSpec `yaml:"workloads"`
	Loads      []float64            `yaml:"loads"`
	Policies   []PolicySpec         `yaml:"policies"`
	Exclude    []Exclusion          `yaml:"exclude"`
	Record     model.Record         `yaml:"record"`
	// Analysis and Expect belong to `sweep analyze` (package analysis,
	// which the runner does not import): the runner keeps them as written
	// and a SectionsCheck validates them at load time.
	Analysis *yaml.Node `yaml:"-"`
	Expect   *yaml.Node `yaml:"-"`
	// Sections are the models' own sections (network, campaign, rigid or
	// its alias fairshare, moldable, ...) under the keys the manifest
	// wrote, each read by its model.
	Sections map[string]*yaml.Node `yaml:"-"`
	// Extra has the same sections, and analysis and expect, decoded, so
	// that the canonical form (Hash) covers them.
	Extra map[string]any `yaml:",inline"`

	path     string // the file it came from
	origin   string // the manifest a results directory's copy was made of; "" otherwise
	models   *model.Registry
	platform map[string]*platform.Platform
	sources  []resolvedSource // per workload spec
	settings map[string]model.Settings
	lines    map[string]int
	// entries are the policies resolved by name; external the models of
	// the external ones.
	entries  map[string]model.PolicyEntry
	external map[string]model.Model
	// inputs are the files the sources read by name (traces, workload
	// files), hashed into the part files' metadata.
	inputs *inputFiles
}

// A resolvedSource is a workload entry with the model that takes it.
type resolvedSource struct {
	model  model.Model
	source model.Source
}

// A PolicySpec is one entry of a manifest's policies: a name, or a mapping
// {name: N, params: {...}} for a policy that takes parameters, or an
// external decision process: {name: N, command: [ARGV...], params: {...}}
// speaking sweep's pipe protocol (docs/protocol.md), or {name: N, batsim:
// [ARGV...]} a Batsim scheduler (docs/batsim.md). An external entry
// belongs to the model of the workloads, or to the one named by model.
type PolicySpec struct {
	Name string `yaml:"name"`
	// Policy makes the entry a named variant: the model's policy it runs
	// under Name, with Params, beside the plain policy or other variants
	// in the same manifest.
	Policy  string            `yaml:"policy,omitempty"`
	Params  map[string]string `yaml:"params,omitempty"`
	Command []string          `yaml:"command,omitempty"`
	Batsim  []string          `yaml:"batsim,omitempty"`
	Model   string            `yaml:"model,omitempty"`
	// Timeout bounds each decision of an external policy, as a Go
	// duration (default 30s): a fault limit, not part of the cell id.
	Timeout string `yaml:"timeout,omitempty"`
}

// policyKeys are the keys of a policies mapping.
var policyKeys = []string{"name", "policy", "params", "command", "batsim", "model", "timeout"}

// UnmarshalYAML takes a policy name or a mapping.
func (p *PolicySpec) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		*p = PolicySpec{Name: v.Value}
		return nil
	}
	type plain PolicySpec
	var q plain
	if v.Kind == yaml.MappingNode {
		for i := 0; i < len(v.Content); i += 2 {
			if k := v.Content[i]; !slices.Contains(policyKeys, k.Value) {
				return fmt.Errorf("line %d: policies: unknown key %q%s; valid keys: %s", k.Line, k.Value, suggest.DidYouMean(k.Value, policyKeys), strings.Join(policyKeys, ", "))
			}
		}
	}
	if err := v.Decode(&q); err != nil {
		return err
	}
	*p = PolicySpec(q)
	return nil
}

// MarshalYAML writes a policy without parameters as its name, so that the
// manifest's canonical form (Hash) does not depend on how it was written.
func (p PolicySpec) MarshalYAML() (any, error) {
	if len(p.Params) == 0 && p.Command == nil && p.Batsim == nil && p.Model == "" && p.Timeout == "" {
		return p.Name, nil
	}
	type plain PolicySpec
	return plain(p), nil
}

// external reports whether the entry defines a decision process.
func (p PolicySpec) external() bool { return p.Command != nil || p.Batsim != nil }

// PolicyNames returns the manifest's policy names, in order.
func (m *Manifest) PolicyNames() []string {
	names := make([]string, len(m.Policies))
	for i, p := range m.Policies {
		names[i] = p.Name
	}
	return names
}

// Exclusion removes every cell that matches all of its non-empty fields.
type Exclusion struct {
	Workload string  `yaml:"workload"`
	Platform string  `yaml:"platform"`
	Policy   string  `yaml:"policy"`
	Load     float64 `yaml:"load"`
}

var experimentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// LoadManifest reads and validates a manifest file. Errors name the file,
// the line and what would be valid.
func LoadManifest(path string, opts ...Option) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return ParseManifest(data, path, opts...)
}

// A SectionsCheck validates the manifest sections the runner keeps without
// reading them (analysis, expect) against the manifest's policies; package
// analysis provides one.
type SectionsCheck func(analysis, expect *yaml.Node, policies []string) error

// An Option changes how a manifest is loaded.
type Option func(*loadOptions)

type loadOptions struct {
	models *model.Registry
	checks []SectionsCheck
}

// WithModels loads the manifest against a registry of models other than
// the built-in ones (builtin.Registry), such as one a researcher's own
// program extends with models or policies of its own.
func WithModels(r *model.Registry) Option { return func(o *loadOptions) { o.models = r } }

// WithSectionsCheck validates the sections the runner does not read.
func WithSectionsCheck(check SectionsCheck) Option {
	return func(o *loadOptions) { o.checks = append(o.checks, check) }
}

// ParseManifest parses and validates manifest text; path names it in errors.
func ParseManifest(data []byte, path string, opts ...Option) (*Manifest, error) {
	o := loadOptions{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.models == nil {
		o.models = builtin.Registry()
	}
	m, err := decodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m.models = o.models
	m.path = path
	m.inputs = &inputFiles{}
	m.origin, _ = copiedManifest(data)
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, check := range o.checks {
		if err := check(m.Analysis, m.Expect, m.PolicyNames()); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return m, nil
}

// topLevelKeys are the manifest keys of the runner and of analysis; the
// models' sections come after them.
var topLevelKeys = []string{"experiment", "seed", "replicates", "platform", "platforms", "workloads", "loads", "policies", "exclude", "record", "analysis", "expect"}

// decodeManifest decodes the manifest strictly (an unknown key inside the
// runner's own keys is an error naming its line), keeping every other
// top-level key for the models, which checkSections and the models check.
func decodeManifest(data []byte) (*Manifest, error) {
	m := &Manifest{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(m); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	m.lines = keyLines(&root)
	m.Sections = map[string]*yaml.Node{}
	if len(root.Content) > 0 && root.Content[0].Kind == yaml.MappingNode {
		doc := root.Content[0]
		for i := 0; i+1 < len(doc.Content); i += 2 {
			switch k, v := doc.Content[i], doc.Content[i+1]; {
			case k.Value == "analysis":
				m.Analysis = v
			case k.Value == "expect":
				m.Expect = v
			case !slices.Contains(topLevelKeys, k.Value):
				m.Sections[k.Value] = v
			}
		}
	}
	return m, nil
}

// keyLines maps top-level keys to their line, for error messages.
func keyLines(root *yaml.Node) map[string]int {
	lines := map[string]int{}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return lines
	}
	doc := root.Content[0]
	for i := 0; i+1 < len(doc.Content); i += 2 {
		lines[doc.Content[i].Value] = doc.Content[i].Line
	}
	return lines
}

func (m *Manifest) at(key string) string {
	if l, ok := m.lines[key]; ok {
		return fmt.Sprintf("line %d: %s", l, key)
	}
	return key
}

// The manifest is checked in four steps, each relying on the ones before:
// normalise fills in what may be left out, validate checks the fields on
// their own, resolve turns names into platforms and workload sources
// (reading files relative to the manifest), and crossCheck checks what
// depends on the sources.
func (m *Manifest) validate() error {
	for _, step := range []func() error{m.normalise, m.checkFields, m.resolve, m.resolvePolicies, m.crossCheck} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// normalise fills in what a manifest may leave out: platforms from
// platform, and each workload's label.
func (m *Manifest) normalise() error {
	if m.Platform != "" && len(m.Platforms) > 0 {
		return fmt.Errorf("%s: give either platform or platforms, not both", m.at("platforms"))
	}
	if m.Platform != "" {
		m.Platforms = []string{m.Platform}
		m.Platform = ""
	}
	for i := range m.Workloads {
		w := &m.Workloads[i]
		if w.Label != "" {
			continue
		}
		switch {
		case w.Trace != "":
			w.Label = strings.SplitN(filepath.Base(w.Trace), ".", 2)[0]
		default:
			w.Label = w.Generator[strings.LastIndexByte(w.Generator, '/')+1:]
		}
	}
	return nil
}

// checkFields checks each field on its own: names, counts, lists without
// duplicates, known policies and options. The first rule broken, in this
// order, is the error.
func (m *Manifest) checkFields() error {
	for _, rule := range []func() error{
		// checkSections before checkPlatformsGiven: a mistyped
		// "platfrom" is named as such, not as a missing platform.
		m.checkExperiment, m.checkReplicates, m.checkSections, m.checkPlatformsGiven,
		m.checkWorkloadsGiven, m.checkLoads, m.checkPolicies, m.checkLabels, m.checkExclusions,
	} {
		if err := rule(); err != nil {
			return err
		}
	}
	return nil
}

func (m *Manifest) checkExperiment() error {
	if !experimentName.MatchString(m.Experiment) {
		return fmt.Errorf("%s: %q; want a name of letters, digits, '.', '_' or '-' (it names results/<experiment>/)", m.at("experiment"), m.Experiment)
	}
	return nil
}

func (m *Manifest) checkReplicates() error {
	if m.Replicates < 0 {
		return fmt.Errorf("%s: %d; want a whole number >= 1, or leave it out to run the experiment once", m.at("replicates"), m.Replicates)
	}
	return nil
}

func (m *Manifest) checkPlatformsGiven() error {
	if len(m.Platforms) == 0 {
		return fmt.Errorf("platform: missing; want a preset (%s) or a platform file", strings.Join(platform.Presets(), ", "))
	}
	return nil
}

func (m *Manifest) checkWorkloadsGiven() error {
	if len(m.Workloads) == 0 {
		return fmt.Errorf("workloads: missing; want at least one {generator: PRESET, instances: N} (presets: %s)", strings.Join(m.generators(), ", "))
	}
	return nil
}

// checkLoads checks that every load ratio is positive (and not absurdly
// large) and listed once.
func (m *Manifest) checkLoads() error {
	seen := map[float64]bool{}
	for _, l := range m.Loads {
		if !(l > 0) || l > 1e6 {
			return fmt.Errorf("%s: %v; every load ratio must be > 0 (1.0 = work arrives as fast as the platform can run it)", m.at("loads"), l)
		}
		if seen[l] {
			return fmt.Errorf("%s: %v listed twice", m.at("loads"), l)
		}
		seen[l] = true
	}
	return nil
}

// checkPolicies checks that there are policies, each named once, and
// each entry on its own (checkPolicy).
func (m *Manifest) checkPolicies() error {
	if len(m.Policies) == 0 {
		return fmt.Errorf("policies: missing; valid policies: %s", strings.Join(m.models.PolicyNames(), ", "))
	}
	seen := map[string]bool{}
	for _, spec := range m.Policies {
		if spec.Name == "" {
			return fmt.Errorf("%s: an entry without a name; give name: NAME", m.at("policies"))
		}
		if seen[spec.Name] {
			return fmt.Errorf("%s: %q listed twice", m.at("policies"), spec.Name)
		}
		seen[spec.Name] = true
		if err := m.checkPolicy(spec); err != nil {
			return err
		}
	}
	return nil
}

// checkPolicy checks one policies entry on its own.
func (m *Manifest) checkPolicy(spec PolicySpec) error {
	if spec.external() {
		return m.checkExternalEntry(spec)
	}
	return m.checkModelPolicy(spec)
}

// checkExternalEntry checks an entry that defines a decision process
// (command or batsim).
func (m *Manifest) checkExternalEntry(spec PolicySpec) error {
	if spec.Policy != "" {
		return fmt.Errorf("%s: policy %q: policy: names a model's policy to run under this name; a command or batsim entry is a policy of its own", m.at("policies"), spec.Name)
	}
	if err := m.checkExternal(spec); err != nil {
		return fmt.Errorf("%s: policy %q: %w", m.at("policies"), spec.Name, err)
	}
	return nil
}

// checkModelPolicy checks an entry that runs a model's policy, under its
// own name or as a named variant: the policy exists, a variant's name is
// not another policy's, and the parameters are the policy's.
func (m *Manifest) checkModelPolicy(spec PolicySpec) error {
	if spec.Model != "" || spec.Timeout != "" {
		return fmt.Errorf("%s: policy %q: model and timeout apply to external policies (command or batsim); a built-in policy's model is its own", m.at("policies"), spec.Name)
	}
	p := spec.Name
	if spec.Policy != "" {
		if _, owner, ok := m.models.Policy(p); ok {
			return fmt.Errorf("%s: policy %q: the name is model %s's policy; give the variant of %s another name", m.at("policies"), p, owner.Name(), spec.Policy)
		}
		p = spec.Policy
	}
	owners := m.models.PolicyModels(p)
	if len(owners) == 0 {
		return fmt.Errorf("%s: unknown policy %q%s; valid policies: %s (sweep policies lists them with their models; or give command: [...] for your own, see docs/protocol.md)", m.at("policies"), p, suggest.DidYouMean(p, m.models.PolicyNames()), strings.Join(m.models.PolicyNames(), ", "))
	}
	if spec.Policy != "" && !slices.ContainsFunc(owners, func(md model.Model) bool {
		policy, _ := model.PolicyOf(md, p)
		return len(policy.Params) > 0
	}) {
		// Its cells would be the plain policy's under another name.
		return fmt.Errorf("%s: policy %q: %s takes no parameters, so a variant of it would run the same cells; variants are for policies with parameters (sweep policies lists them)", m.at("policies"), spec.Name, p)
	}
	var errs []error
	for _, md := range owners {
		policy, _ := model.PolicyOf(md, p)
		err := checkParams(policy, spec.Params)
		if err == nil {
			return nil
		}
		if len(policy.Params) > 0 {
			// The error of a policy that takes parameters says which.
			errs = slices.Insert(errs, 0, err)
		} else {
			errs = append(errs, err)
		}
	}
	return fmt.Errorf("%s: %w", m.at("policies"), errs[0])
}

// checkLabels checks that no two workloads have the same label (the
// labels name the cells).
func (m *Manifest) checkLabels() error {
	labels := map[string]int{}
	for i, w := range m.Workloads {
		if prev, dup := labels[w.Label]; dup {
			return fmt.Errorf("line %d: workloads[%d]: label %q is also workloads[%d]'s; give each workload a distinct label", w.Line, i, w.Label, prev)
		}
		labels[w.Label] = i
	}
	return nil
}

// checkExclusions checks that every exclusion names something and only
// workload labels, policies, loads and platforms of the manifest.
func (m *Manifest) checkExclusions() error {
	for i, x := range m.Exclude {
		if err := m.checkExclusion(x); err != nil {
			return fmt.Errorf("%s[%d]: %w", m.at("exclude"), i, err)
		}
	}
	return nil
}

func (m *Manifest) checkExclusion(x Exclusion) error {
	switch {
	case x == (Exclusion{}):
		return errors.New("empty; name at least one of workload, platform, policy, load")
	case x.Workload != "" && !slices.ContainsFunc(m.Workloads, func(w model.WorkloadSpec) bool { return w.Label == x.Workload }):
		return fmt.Errorf("workload %q is not a workload label of this manifest", x.Workload)
	case x.Policy != "" && !slices.Contains(m.PolicyNames(), x.Policy):
		return fmt.Errorf("policy %q is not in policies", x.Policy)
	case x.Load != 0 && !slices.Contains(m.Loads, x.Load):
		return fmt.Errorf("load %v is not in loads", x.Load)
	case x.Platform != "" && !slices.Contains(m.Platforms, x.Platform):
		return fmt.Errorf("platform %q is not in platforms", x.Platform)
	}
	return nil
}

// resolve reads what the manifest names: its platforms (presets or
// files) and its workload sources (generators with their parameters, or
// traces). Every relative path is taken from the manifest's folder.
func (m *Manifest) resolve() error {
	m.platform = map[string]*platform.Platform{}
	for _, spec := range m.Platforms {
		if _, dup := m.platform[spec]; dup {
			return fmt.Errorf("%s: %q listed twice", m.at("platforms"), spec)
		}
		p, err := platform.Parse(m.platformPath(spec))
		if spec == tracePlatform {
			p, err = placeholderPlatform(), nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", m.at("platform"), err)
		}
		m.platform[spec] = p
	}
	m.settings = map[string]model.Settings{}
	for _, md := range m.models.Models() {
		key, section, err := m.section(md)
		if err != nil {
			return err
		}
		settings, err := md.ParseSettings(section)
		if err != nil {
			return fmt.Errorf("%s: %w", m.at(key), err)
		}
		m.settings[md.Name()] = settings
	}
	// The sources are made at once: a trace's source reads and checks the
	// whole trace (0.1-0.2 s for a Parallel Workloads Archive log), which
	// before the first cell no worker shares. The error reported is the
	// first workload's in the manifest's order, whichever failed first.
	m.sources = make([]resolvedSource, len(m.Workloads))
	errs := make([]error, len(m.Workloads))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range m.Workloads {
		g.Go(func() error {
			w := &m.Workloads[i]
			md, err := m.modelOf(w)
			if err != nil {
				errs[i] = atWorkload(w, i, err)
				return nil
			}
			src, err := md.NewSource(w, m.env(md))
			if err != nil {
				errs[i] = atWorkload(w, i, err)
				return nil
			}
			if w.Instances < 1 {
				errs[i] = atWorkload(w, i, fmt.Errorf("instances %d; want a whole number >= 1", w.Instances))
				return nil
			}
			m.sources[i] = resolvedSource{md, src}
			return nil
		})
	}
	g.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// atWorkload places err in workload entry i: "line L: workloads[i]: err",
// where an err that names a line of the entry already ("line 9:
// workloads: unknown key ...", a key's own line) keeps that line.
func atWorkload(w *model.WorkloadSpec, i int, err error) error {
	if rest, ok := strings.CutPrefix(err.Error(), "line "); ok {
		if line, msg, ok := strings.Cut(rest, ": workloads: "); ok && strings.Trim(line, "0123456789") == "" {
			return placedError{fmt.Sprintf("line %s: workloads[%d]: %s", line, i, msg), err}
		}
	}
	return fmt.Errorf("line %d: workloads[%d]: %w", w.Line, i, err)
}

// A placedError is an error with its message rewritten to say where it
// is; errors.Is and As still reach the original.
type placedError struct {
	msg string
	err error
}

func (e placedError) Error() string { return e.msg }
func (e placedError) Unwrap() error { return e.err }

// env is what the model md's sources may read.
func (m *Manifest) env(md model.Model) model.Env {
	return model.Env{Path: m.sourcePath, Platforms: m.platform, Settings: m.settings[md.Name()], Policies: m.entries}
}

// crossCheck checks what depends on the sources, before anything runs:
// each workload on every platform (its model's CheckPlatform), load ratios
// given exactly when some model uses them, and every policy belonging to
// the model of every workload it is not excluded from, and able to run it.
func (m *Manifest) crossCheck() error {
	usesLoads, needsLoads := false, false
	for i, rs := range m.sources {
		w := &m.Workloads[i]
		usesLoads = usesLoads || m.takesLoads(rs.model)
		needsLoads = needsLoads || rs.model.UsesLoads()
		for _, name := range m.Platforms {
			err := checkTracePlatform(name, rs.source)
			if err == nil {
				err = rs.source.CheckPlatform(name, m.platform[name])
			}
			if err != nil && !m.excludedPlatform(w.Label, name) {
				return fmt.Errorf("line %d: workloads[%d] (%s, a %s workload): %w", w.Line, i, w.Label, rs.model.Name(), err)
			}
		}
	}
	if !usesLoads && len(m.Loads) > 0 {
		return fmt.Errorf("%s: load ratios apply to open-loop workloads (%s); leave loads out: these workloads have their own arrivals (closed loop, a trace's submit times, or off-line)", m.at("loads"), strings.Join(m.loadModels(), ", "))
	}
	if err := m.checkSourceLoads(); err != nil {
		return err
	}
	if needsLoads && len(m.Loads) == 0 {
		return fmt.Errorf("loads: missing; want a list of load ratios > 0 such as [0.8, 0.9, 1.0, 1.1, 1.2]")
	}
	for i, rs := range m.sources {
		w := &m.Workloads[i]
		for _, p := range m.PolicyNames() {
			if m.excludedPair(w.Label, p) {
				continue
			}
			if !m.offers(rs.model, p) {
				return fmt.Errorf("%s: workload %q is a %s workload, and policy %q is a %s policy; %s workloads take %s (or exclude the pair)",
					m.at("policies"), w.Label, rs.model.Name(), p, m.policyModels(p)[0].Name(), rs.model.Name(), strings.Join(policyNames(rs.model), ", "))
			}
			if err := rs.source.Allows(m.policyRuns(p)); err != nil {
				return fmt.Errorf("%s: workload %q: %v (or exclude the pair)", m.at("policies"), w.Label, err)
			}
		}
	}
	return nil
}

// loadModels names the models whose workloads take load ratios.
func (m *Manifest) loadModels() []string {
	var out []string
	for _, md := range m.models.Models() {
		if o, ok := md.(loadsOptional); md.UsesLoads() || ok && o.LoadsOptional() {
			out = append(out, md.Name())
		}
	}
	return out
}

// policyNames lists a model's policies.
func policyNames(md model.Model) []string {
	var names []string
	for _, p := range md.Policies() {
		names = append(names, p.Name)
	}
	return names
}

// checkParams refuses parameters a policy does not take.
func checkParams(p model.Policy, params map[string]string) error {
	for _, key := range slices.Sorted(maps.Keys(params)) {
		if !slices.ContainsFunc(p.Params, func(q model.Param) bool { return q.Name == key }) {
			var valid []string
			for _, q := range p.Params {
				valid = append(valid, q.Name)
			}
			if len(valid) == 0 {
				return fmt.Errorf("policy %q takes no parameters; got %q", p.Name, key)
			}
			return fmt.Errorf("policy %q takes no parameter %q; valid parameters: %s", p.Name, key, strings.Join(valid, ", "))
		}
	}
	return nil
}

// checkSections refuses a top-level key that is neither the runner's nor
// a model's section.
func (m *Manifest) checkSections() error {
	sections := m.models.Sections()
	valid := append(slices.Clone(topLevelKeys), sections...)
	for _, key := range slices.Sorted(maps.Keys(m.Sections)) {
		if !slices.Contains(sections, key) {
			return fmt.Errorf("%s: unknown key%s; valid top-level keys: %s", m.at(key), suggest.DidYouMean(key, valid), strings.Join(valid, ", "))
		}
	}
	return nil
}

// section returns md's settings section and the key the manifest gives
// it under (its name or an alias, for messages); nil and the name when the
// manifest has none. A manifest giving it under two keys is refused,
// naming both.
func (m *Manifest) section(md model.Model) (string, *yaml.Node, error) {
	var given []string
	for _, key := range model.SectionKeys(md) {
		if _, ok := m.Sections[key]; ok {
			given = append(given, key)
		}
	}
	switch len(given) {
	case 0:
		return md.Section(), nil, nil
	case 1:
		return given[0], m.Sections[given[0]], nil
	}
	slices.SortFunc(given, func(a, b string) int { return cmp.Compare(m.lines[a], m.lines[b]) })
	for i, key := range given {
		given[i] = m.at(key)
	}
	return "", nil, fmt.Errorf("%s: the %s model's settings twice (%s: is another name of %s:); give one of them",
		strings.Join(given, " and "), md.Name(), strings.Join(model.SectionKeys(md)[1:], ":, "), md.Section())
}

// generators lists every generator preset of every model.
func (m *Manifest) generators() []string {
	var out []string
	for _, md := range m.models.Models() {
		out = append(out, md.Generators()...)
	}
	return out
}

// excludedPlatform reports whether every cell of a workload on a platform
// is excluded.
func (m *Manifest) excludedPlatform(workload, platform string) bool {
	for _, x := range m.Exclude {
		if (x.Workload == "" || x.Workload == workload) && x.Platform == platform && x.Policy == "" && x.Load == 0 {
			return true
		}
	}
	return false
}

// excludedPair reports whether every cell of a workload under a policy is
// excluded.
func (m *Manifest) excludedPair(workload, policy string) bool {
	for _, x := range m.Exclude {
		if (x.Workload == "" || x.Workload == workload) && (x.Policy == "" || x.Policy == policy) && x.Platform == "" && x.Load == 0 {
			return true
		}
	}
	return false
}

// pathOf returns a path named in the manifest as the program sees it: an
// absolute path as it is, a relative one taken from the manifest's folder
// (whatever the working directory), the one rule for platform files and
// traces.
func (m *Manifest) pathOf(path string) string {
	if filepath.IsAbs(path) || m.path == "" {
		return path
	}
	if m.origin != "" {
		// A results directory's copy: its paths are the original's.
		return filepath.Join(filepath.Dir(m.origin), path)
	}
	return filepath.Join(filepath.Dir(m.path), path)
}

// platformPath returns a platform specification with a file path resolved
// by pathOf; presets stay as they are.
func (m *Manifest) platformPath(spec string) string {
	if platform.IsPreset(spec) {
		return spec
	}
	return m.sourcePath(spec)
}

// Hash returns the hex SHA-256 of the manifest's canonical form: its
// parsed content re-encoded, so comments and formatting do not count.
func (m *Manifest) Hash() string {
	canon, err := yaml.Marshal(m)
	if err != nil {
		panic(err) // a parsed manifest always re-encodes
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}

func formatLoad(l float64) string { return model.FormatLoad(l) }
