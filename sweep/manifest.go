package sweep

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"

	"github.com/sweep-sched/sweep/platform"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/engine"
	"github.com/sweep-sched/sweep/engine/campaign"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/gen"
)

// A Manifest describes an experiment: the axes whose product is the set of
// cells (workload instances x loads x platforms x policies) and how to
// record and analyse them. Its YAML form is documented in the README.
type Manifest struct {
	Experiment string `yaml:"experiment"`
	Seed       uint64 `yaml:"seed"`
	// Replicates runs the whole experiment under this many root seeds
	// (ReplicateSeed), an axis of cells; 0 or 1 runs it once.
	Replicates int            `yaml:"replicates,omitempty"`
	Platform   string         `yaml:"platform"`
	Platforms  []string       `yaml:"platforms"`
	Network    *NetworkSpec   `yaml:"network"`
	Campaign   *CampaignSpec  `yaml:"campaign"`
	FairShare  *FairShareSpec `yaml:"fairshare,omitempty"`
	Moldable   *MoldableSpec  `yaml:"moldable,omitempty"`
	Workloads  []WorkloadSpec `yaml:"workloads"`
	Loads      []float64      `yaml:"loads"`
	Policies   []string       `yaml:"policies"`
	Exclude    []Exclusion    `yaml:"exclude"`
	Record     Record         `yaml:"record"`
	// Analysis and Expect belong to `sweep analyze` (package analysis,
	// which the runner does not import): the runner keeps them as written
	// and CheckSections validates them at load time.
	Analysis *yaml.Node `yaml:"analysis,omitempty"`
	Expect   *yaml.Node `yaml:"expect,omitempty"`

	path     string // the file it came from
	origin   string // the manifest a results directory's copy was made of; "" otherwise
	platform map[string]*platform.Platform
	sources  []*source // per workload spec
	lines    map[string]int
}

// NetworkSpec overrides the communication model (default: CCR 0.2 with
// the paper's ceil(exec x CCR) delays).
type NetworkSpec struct {
	CCR   string `yaml:"ccr"`
	Delay string `yaml:"delay"`
}

// CampaignSpec sets the choices of campaign scheduling that reasonable
// people make differently (see engine/campaign's doc).
type CampaignSpec struct {
	// JobOrder orders jobs inside a campaign under ostrich: spt (default),
	// lpt or fifo.
	JobOrder string `yaml:"job-order"`
	// StretchBase is the stretch denominator: bound (default; seed 001's
	// lower bound max(W/m, pmax), pmax the longest job), bound-release
	// (ours: pmax taken as the latest release + exec) or alone (ours: the
	// campaign's flow time alone on the empty machine).
	StretchBase string `yaml:"stretch-base"`
	// Hold says whether ostrich holds a campaign until its virtual start:
	// virtual-start (default; both papers) or none (work conserving).
	Hold string `yaml:"hold"`
}

// campaignSettings are a manifest's campaign choices: how to schedule
// (engine/campaign) and how to measure stretch (analysis).
type campaignSettings struct {
	schedule    campaign.Options
	stretchBase string
}

// campaignSettings returns the campaign choices with defaults filled in, so
// that leaving a key out and writing its default give the same cells.
func (m *Manifest) campaignSettings() campaignSettings {
	o := campaignSettings{
		schedule:    campaign.Options{JobOrder: campaign.JobOrderSPT, Hold: campaign.HoldVirtualStart},
		stretchBase: mcampaign.StretchBaseBound,
	}
	if c := m.Campaign; c != nil {
		o.schedule.JobOrder = cmp.Or(c.JobOrder, o.schedule.JobOrder)
		o.stretchBase = cmp.Or(c.StretchBase, o.stretchBase)
		o.schedule.Hold = cmp.Or(c.Hold, o.schedule.Hold)
	}
	return o
}

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

// moldableOptions returns the moldable choices with defaults filled in.
func (m *Manifest) moldableOptions() (emoldable.DEMTOptions, error) {
	o := emoldable.DefaultDEMTOptions()
	s := m.Moldable
	if s == nil {
		return o, nil
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
			return o, fmt.Errorf("shuffles %q: want a count in 1..1000000, or none", s.Shuffles)
		}
		o.Shuffles = n
	}
	return o, o.Validate()
}

// WorkloadSpec is one workload generator with its instances.
type WorkloadSpec struct {
	// Label names the workload in results; default: the preset name
	// without its family prefix ("log-independent").
	Label     string            `yaml:"label"`
	Generator string            `yaml:"generator"`
	Instances int               `yaml:"instances"`
	Set       map[string]string `yaml:"set"`
	// Trace is an SWF log (path relative to the manifest) replayed as a
	// campaign workload, instead of a generator.
	Trace  string       `yaml:"trace"`
	Window *TraceWindow `yaml:"window"`
	Replay *TraceReplay `yaml:"replay,omitempty"`
	// Months makes a trace a rigid-job workload (seed 003): each calendar
	// month (UTC) in the range is simulated as its own cell, under each
	// estimate variant of Estimates (T: actual run times, R: requested).
	Months    *MonthRange `yaml:"months,omitempty"`
	Estimates []string    `yaml:"estimates,omitempty"`

	line int
}

// TraceWindow selects the jobs of a trace submitted from From up to, not
// including, To: dates YYYY-MM-DD at midnight in the log's time zone.
type TraceWindow struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

// Exclusion removes every cell that matches all of its non-empty fields.
type Exclusion struct {
	Workload string  `yaml:"workload"`
	Platform string  `yaml:"platform"`
	Policy   string  `yaml:"policy"`
	Load     float64 `yaml:"load"`
}

// Record says which tables besides cells a run writes.
type Record struct {
	// Jobs writes one row per job per cell to the jobs table.
	Jobs bool `yaml:"jobs"`
	// Campaigns writes one row per campaign per cell to the campaigns
	// table (campaign workloads).
	Campaigns bool `yaml:"campaigns"`
	// Users writes one row per user per cell to the users table
	// (fair-share workloads).
	Users bool `yaml:"users,omitempty"`
}

var experimentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// LoadManifest reads and validates a manifest file; checks validate the
// sections the runner does not read. Errors name the file, the line and
// what would be valid.
func LoadManifest(path string, checks ...SectionsCheck) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	m, err := ParseManifest(data, path, checks...)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// A SectionsCheck validates the manifest sections the runner keeps without
// reading them (analysis, expect) against the manifest's policies; package
// analysis provides one, and commands pass it to LoadManifest.
type SectionsCheck func(analysis, expect *yaml.Node, policies []string) error

// ParseManifest parses and validates manifest text; path names it in errors.
func ParseManifest(data []byte, path string, checks ...SectionsCheck) (*Manifest, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %v (valid top-level keys: experiment, seed, replicates, platform, platforms, network, campaign, moldable, fairshare, workloads, loads, policies, exclude, record, analysis, expect)", path, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err == nil {
		m.lines = keyLines(&root)
	}
	m.path = path
	m.origin, _ = copiedManifest(data)
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, check := range checks {
		if err := check(m.Analysis, m.Expect, m.Policies); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return &m, nil
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

// UnmarshalYAML records the line of each workload entry.
func (w *WorkloadSpec) UnmarshalYAML(v *yaml.Node) error {
	type plain WorkloadSpec
	var p plain
	// Decode with strict keys: a nested Decode does not inherit KnownFields.
	if v.Kind == yaml.MappingNode {
		for i := 0; i < len(v.Content); i += 2 {
			switch k := v.Content[i]; k.Value {
			case "label", "generator", "instances", "set", "trace", "window", "replay", "months", "estimates":
			default:
				return fmt.Errorf("line %d: workloads: unknown key %q; valid keys: label, generator, instances, set, trace, window, replay, months, estimates", k.Line, k.Value)
			}
		}
	}
	if err := v.Decode(&p); err != nil {
		return err
	}
	*w = WorkloadSpec(p)
	w.line = v.Line
	return nil
}

// The manifest is checked in four steps, each relying on the ones before:
// normalise fills in what may be left out, validate checks the fields on
// their own, resolve turns names into platforms and workload sources
// (reading files relative to the manifest), and crossCheck checks what
// depends on the sources.
func (m *Manifest) validate() error {
	for _, step := range []func() error{m.normalise, m.checkFields, m.resolve, m.crossCheck} {
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
// duplicates, known policies and options.
func (m *Manifest) checkFields() error {
	if !experimentName.MatchString(m.Experiment) {
		return fmt.Errorf("%s: %q; want a name of letters, digits, '.', '_' or '-' (it names results/<experiment>/)", m.at("experiment"), m.Experiment)
	}
	if m.Replicates < 0 {
		return fmt.Errorf("%s: %d; want a whole number >= 1, or leave it out to run the experiment once", m.at("replicates"), m.Replicates)
	}
	if len(m.Platforms) == 0 {
		return fmt.Errorf("platform: missing; want a preset (%s) or a platform file", strings.Join(platform.Presets(), ", "))
	}
	if _, err := m.network(); err != nil {
		return fmt.Errorf("%s: %w", m.at("network"), err)
	}
	if c := m.Campaign; c != nil {
		if c.JobOrder != "" && !slices.Contains([]string{campaign.JobOrderSPT, campaign.JobOrderLPT, campaign.JobOrderFIFO}, c.JobOrder) {
			return fmt.Errorf("%s: job-order %q; want spt, lpt or fifo", m.at("campaign"), c.JobOrder)
		}
		if c.StretchBase != "" && !slices.Contains(mcampaign.StretchBases(), c.StretchBase) {
			return fmt.Errorf("%s: stretch-base %q; want one of %s", m.at("campaign"), c.StretchBase, strings.Join(mcampaign.StretchBases(), ", "))
		}
		if c.Hold != "" && !slices.Contains(campaign.Holds(), c.Hold) {
			return fmt.Errorf("%s: hold %q; want one of %s", m.at("campaign"), c.Hold, strings.Join(campaign.Holds(), ", "))
		}
	}
	if _, err := m.fairShareSettings(); err != nil {
		return fmt.Errorf("%s: %w", m.at("fairshare"), err)
	}
	if _, err := m.moldableOptions(); err != nil {
		return fmt.Errorf("%s: %w", m.at("moldable"), err)
	}
	if len(m.Workloads) == 0 {
		return fmt.Errorf("workloads: missing; want at least one {generator: PRESET, instances: N} (presets: %s)", strings.Join(gen.Presets(), ", "))
	}
	seenLoad := map[float64]bool{}
	for _, l := range m.Loads {
		if !(l > 0) || l > 1e6 {
			return fmt.Errorf("%s: %v; every load ratio must be > 0 (1.0 = work arrives as fast as the platform can run it)", m.at("loads"), l)
		}
		if seenLoad[l] {
			return fmt.Errorf("%s: %v listed twice", m.at("loads"), l)
		}
		seenLoad[l] = true
	}
	if len(m.Policies) == 0 {
		return fmt.Errorf("policies: missing; valid policies: %s", strings.Join(Policies(), ", "))
	}
	seenPolicy := map[string]bool{}
	for _, p := range m.Policies {
		if !slices.Contains(Policies(), p) {
			return fmt.Errorf("%s: unknown policy %q; valid policies: %s", m.at("policies"), p, strings.Join(Policies(), ", "))
		}
		if seenPolicy[p] {
			return fmt.Errorf("%s: %q listed twice", m.at("policies"), p)
		}
		seenPolicy[p] = true
	}
	labels := map[string]int{}
	for i, w := range m.Workloads {
		if prev, dup := labels[w.Label]; dup {
			return fmt.Errorf("line %d: workloads[%d]: label %q is also workloads[%d]'s; give each workload a distinct label", w.line, i, w.Label, prev)
		}
		labels[w.Label] = i
	}
	for i, x := range m.Exclude {
		if x == (Exclusion{}) {
			return fmt.Errorf("%s[%d]: empty; name at least one of workload, platform, policy, load", m.at("exclude"), i)
		}
		if x.Workload != "" {
			if _, ok := labels[x.Workload]; !ok {
				return fmt.Errorf("%s[%d]: workload %q is not a workload label of this manifest", m.at("exclude"), i, x.Workload)
			}
		}
		if x.Policy != "" && !seenPolicy[x.Policy] {
			return fmt.Errorf("%s[%d]: policy %q is not in policies", m.at("exclude"), i, x.Policy)
		}
		if x.Load != 0 && !seenLoad[x.Load] {
			return fmt.Errorf("%s[%d]: load %v is not in loads", m.at("exclude"), i, x.Load)
		}
		if x.Platform != "" && !slices.Contains(m.Platforms, x.Platform) {
			return fmt.Errorf("%s[%d]: platform %q is not in platforms", m.at("exclude"), i, x.Platform)
		}
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
		if err != nil {
			return fmt.Errorf("%s: %w", m.at("platform"), err)
		}
		m.platform[spec] = p
	}
	for i := range m.Workloads {
		w := &m.Workloads[i]
		where := fmt.Sprintf("line %d: workloads[%d]", w.line, i)
		src, err := newSource(w, m.pathOf)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if w.Instances < 1 {
			return fmt.Errorf("%s: instances %d; want a whole number >= 1", where, w.Instances)
		}
		m.sources = append(m.sources, src)
	}
	return nil
}

// crossCheck checks what depends on the sources: campaign and rigid
// workloads on one-cluster platforms and without loads, moldable
// workloads on single:m (m their processors) and without loads, rigid
// workloads alone in their manifest (their cells measure other things),
// DAG workloads with loads, and every policy able to run every workload it
// is not excluded from.
func (m *Manifest) crossCheck() error {
	dagWorkloads := false
	kinds := map[string]bool{}
	for i, src := range m.sources {
		kinds[src.kind()] = true
		if len(kinds) > 1 && kinds["rigid"] {
			return fmt.Errorf("line %d: workloads[%d]: rigid trace-month workloads (months) cannot share a manifest with other workloads: their cells measure other things", m.Workloads[i].line, i)
		}
		dagWorkloads = dagWorkloads || !src.loadFree()
		if src.moldable != nil {
			for _, name := range m.Platforms {
				p := m.platform[name]
				if len(p.Clusters) != 1 || p.TotalCores() != src.moldable.Processors() {
					return fmt.Errorf("line %d: workloads[%d]: moldable workloads run on one cluster of m identical processors, m = the generator's processors (%d): want platform single:%d, not %s (or set processors)",
						m.Workloads[i].line, i, src.moldable.Processors(), src.moldable.Processors(), name)
				}
			}
		}
		if src.kind() != "campaign" && src.kind() != "rigid" {
			continue
		}
		for _, name := range m.Platforms {
			if len(m.platform[name].Clusters) != 1 {
				return fmt.Errorf("line %d: workloads[%d]: %s workloads run on identical processors: want a one-cluster platform such as single:64, not %s", m.Workloads[i].line, i, src.kind(), name)
			}
		}
	}
	if !dagWorkloads && len(m.Loads) > 0 {
		return fmt.Errorf("%s: load ratios apply to DAG workloads; campaign workloads submit in closed loop, trace-month workloads replay their own submit times and moldable workloads are off-line, so leave loads out", m.at("loads"))
	}
	if dagWorkloads && len(m.Loads) == 0 {
		return fmt.Errorf("loads: missing; want a list of load ratios > 0 such as [0.8, 0.9, 1.0, 1.1, 1.2]")
	}
	for i, src := range m.sources {
		for _, p := range m.Policies {
			if err := src.allows(p); err != nil && !m.excludedPair(m.Workloads[i].Label, p) {
				return fmt.Errorf("%s: workload %q: %v (or exclude the pair)", m.at("policies"), m.Workloads[i].Label, err)
			}
		}
	}
	return nil
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
	return m.pathOf(spec)
}

func (m *Manifest) network() (engine.Network, error) {
	n := engine.DefaultNetwork()
	if m.Network != nil {
		if m.Network.CCR != "" {
			n.CCR = m.Network.CCR
		}
		if m.Network.Delay != "" {
			n.Delay = engine.DelayFormula(m.Network.Delay)
		}
	}
	return n, n.Validate()
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

func formatLoad(l float64) string { return strconv.FormatFloat(l, 'g', -1, 64) }
