package rigid

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sweep-sched/sweep/gen/grid"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// A generated rigid workload is drawn from the Lublin-Feitelson model
// (gen/rigid, docs/lublin.md) for the machine of each platform, with user
// estimates from the Tsafrir-Etsion-Feitelson model:
//
//   - generator: lublin1999
//     instances: 10
//     set: {jobs: 10000, serial-prob-batch: 0.3, max-estimate: 64800}
//     estimates: [tsafrir2005, T]   # default: [tsafrir2005]
//
// set takes jobs, every parameter of the Lublin model and every parameter
// of the Tsafrir model (their names do not overlap; `sweep policies` lists
// them). Each instance's jobs derive from the replicate's root seed, the
// Lublin parameters and the job count, and the instance number
// (grid.InstanceSeed), so every platform size, policy and estimate
// variant of one instance sees the same jobs: cells are paired.
//
// The jobs of an instance are the same under every estimate variant:
// Tsafrir's model is always applied, cutting the run times above
// max-estimate to it as the authors' code (and the Parallel Workloads
// Archive) does; the variant says only what the scheduler is told. Every
// job is measured: the machine starts empty and there is no warm-up.

// DefaultGeneratedJobs is a generated instance's job count when set gives
// none: the 10,000, as in the learned-scheduler papers' Lublin
// traces.
const DefaultGeneratedJobs = 10_000

// maxGeneratedJobs bounds a generated instance (about 0.5 GB of jobs).
const maxGeneratedJobs = 10_000_000

// EstimatesTsafrir names the Tsafrir-Etsion-Feitelson model in a generated
// workload's estimates: the scheduler is told the model's estimate (the
// job's requested time).
const EstimatesTsafrir = genrigid.TsafrirName

// generatorSpec is a generated workload's parameters: the job count and
// the parameters of both models.
type generatorSpec struct {
	lublin    genrigid.Params
	estimates genrigid.EstimateParams
	jobs      int
	// nodes turns the jobs into requests on a platform of nodes
	// (genrigid.NodeRequests).
	nodes genrigid.NodeParams
}

func newGeneratorSpec() generatorSpec {
	return generatorSpec{genrigid.DefaultParams(), genrigid.DefaultEstimateParams(), DefaultGeneratedJobs, genrigid.DefaultNodeParams()}
}

// keys lists every parameter set takes: jobs, then the Lublin model's,
// then the Tsafrir model's.
func (g *generatorSpec) keys() []string {
	return append(append(append([]string{"jobs"}, g.lublin.Keys()...), g.estimates.Keys()...), genrigid.NodeKeys...)
}

// set sets one parameter by name; an unknown name or a value out of its
// domain is an error naming both and what would be valid.
func (g *generatorSpec) set(key, value string) error {
	switch {
	case key == "jobs":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 1 || n > maxGeneratedJobs {
			return fmt.Errorf("%s: parameter jobs=%q: want a job count in 1..%d", genrigid.LublinName, value, maxGeneratedJobs)
		}
		g.jobs = n
		return nil
	case g.estimates.Doc(key) != "":
		return g.estimates.Set(key, value)
	case g.lublin.Doc(key) != "":
		return g.lublin.Set(key, value)
	case genrigid.NodeDoc(key) != "":
		return g.nodes.Set(key, value)
	}
	return fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", genrigid.LublinName, key, strings.Join(g.keys(), ", "))
}

// canon is the identity of an instance's jobs: the Lublin parameters and
// the job count (the instance seed derives from it).
func (g *generatorSpec) canon() string {
	return fmt.Sprintf("%s jobs=%d", g.lublin.Canonical(), g.jobs)
}

// changed lists the parameters that differ from the published defaults,
// as key=value, for workload names and summaries.
func (g *generatorSpec) changed() string {
	var out []string
	if g.jobs != DefaultGeneratedJobs {
		out = append(out, fmt.Sprintf("jobs=%d", g.jobs))
	}
	lublin, estimates := genrigid.DefaultParams(), genrigid.DefaultEstimateParams()
	for _, k := range g.lublin.Keys() {
		v, _ := g.lublin.Get(k)
		if d, _ := lublin.Get(k); v != d {
			out = append(out, k+"="+v)
		}
	}
	for _, k := range g.estimates.Keys() {
		v, _ := g.estimates.Get(k)
		if d, _ := estimates.Get(k); v != d {
			out = append(out, k+"="+v)
		}
	}
	if len(out) == 0 {
		return "published parameters"
	}
	return strings.Join(out, " ")
}

// An instance is one generated workload on one machine: its jobs with
// their Tsafrir estimates, and each job's class.
type instance struct {
	workload *rigid.Workload
	classes  []genrigid.Class
}

// generate draws instance inst under root seed root for a machine of
// procs processors: the Lublin jobs from the instance seed, then the
// Tsafrir estimates from a seed of their own (the instance's and the
// estimate parameters'), so that changing an estimate parameter keeps the
// jobs.
func (g *generatorSpec) generate(root uint64, inst, procs int) (instance, error) {
	canon := g.canon()
	w, classes, err := genrigid.Lublin(g.lublin, procs, g.jobs, grid.InstanceSeed(root, canon, inst))
	if err != nil {
		return instance{}, err
	}
	if err := genrigid.Tsafrir(w.Jobs, g.estimates, grid.InstanceSeed(root, canon+" "+g.estimates.Canonical(), inst)); err != nil {
		return instance{}, err
	}
	// Every job is measured: the window runs from the first submit to
	// just after the last, as for a Batsim workload.
	w.MeasureFromSeconds, w.MeasureToSeconds = w.Jobs[0].SubmitSeconds, w.Jobs[len(w.Jobs)-1].SubmitSeconds+1
	return instance{w, classes}, nil
}

// check refuses parameters that do not fit a machine of procs processors
// (a uhi above log2 of it, ulow <= umed <= uhi broken), drawing no job.
func (g *generatorSpec) check(procs int) error {
	_, _, err := genrigid.Lublin(g.lublin, procs, 0, [2]uint64{})
	return err
}

// A generatedEstimate is one entry of a generated workload's estimates:
// its name (the suffix of the cells' workload label) and the variant the
// scheduler sees.
type generatedEstimate struct {
	name    string
	variant rigid.Variant
}

// parseGeneratedEstimates reads a generated workload's estimates list;
// none means [tsafrir2005].
func parseGeneratedEstimates(names []string) ([]generatedEstimate, error) {
	if len(names) == 0 {
		names = []string{EstimatesTsafrir}
	}
	var out []generatedEstimate
	for _, name := range names {
		e, err := generatedEstimateOf(name)
		if err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
		if slices.ContainsFunc(out, func(o generatedEstimate) bool { return o.name == e.name }) {
			return nil, fmt.Errorf("estimates: %s listed twice", name)
		}
		out = append(out, e)
	}
	return out, nil
}

// generatedEstimateOf resolves one estimates entry of a generated
// workload. tsafrir2005 tells the scheduler each job's requested time,
// which is the model's estimate (engine variant R); T tells it the run
// time. R alone is refused: it means a log's requested times, and a
// synthetic job has none but the model's.
func generatedEstimateOf(name string) (generatedEstimate, error) {
	switch name {
	case EstimatesTsafrir:
		return generatedEstimate{name, rigid.EstimateRequested}, nil
	case rigid.EstimateRequested.String():
		return generatedEstimate{}, fmt.Errorf("R is a log's requested times, and a generated job has none of its own: want %s (the requested time is the Tsafrir-Etsion-Feitelson estimate; the default) or T (exact: the run time)", EstimatesTsafrir)
	}
	// The hook for the variants workload/rigid adds (predicted, Tsafrir,
	// Etsion and Feitelson 2007): each is taken as it is, over the
	// tsafrir2005 requested times, which it clamps to and is killed at.
	// Note that the model has one user, so a per-user predictor sees
	// every job as the same user's.
	v, err := rigid.ParseVariant(name)
	if err != nil || v == rigid.EstimateRequested {
		return generatedEstimate{}, fmt.Errorf("%q: want %s (the Tsafrir-Etsion-Feitelson estimates; the default) or T (exact: the run time)", name, EstimatesTsafrir)
	}
	return generatedEstimate{v.String(), v}, nil
}

// generatedSource is a lublin1999 workload entry: its parameters and
// estimate variants.
type generatedSource struct {
	spec      generatorSpec
	estimates []generatedEstimate
	canon     string // the jobs' identity (generatorSpec.canon)
	changed   string // the parameters off the published ones (generatorSpec.changed)
	own       []Policy
}

// newGeneratedSource checks a generated workload entry.
func newGeneratedSource(w *model.WorkloadSpec, own []Policy) (*generatedSource, error) {
	if err := w.CheckOptions("estimates"); err != nil {
		return nil, err
	}
	spec := newGeneratorSpec()
	if err := w.ApplySet(spec.set); err != nil {
		return nil, err
	}
	var names []string
	if _, err := w.Option("estimates", &names); err != nil {
		return nil, err
	}
	estimates, err := parseGeneratedEstimates(names)
	if err != nil {
		return nil, err
	}
	return &generatedSource{spec: spec, estimates: estimates, canon: spec.canon(), changed: spec.changed(), own: own}, nil
}

func (s *generatedSource) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d instances of %d jobs x %d estimates)", label, instances, s.spec.jobs, len(s.estimates))
}

func (s *generatedSource) Report() string { return "" }

func (s *generatedSource) Allows(string) error { return nil }

// CheckPlatform wants one cluster, the machine the jobs are drawn for,
// and parameters that fit it.
func (s *generatedSource) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 && !p.HasNodes() {
		return fmt.Errorf("rigid workloads run on identical processors: want a one-cluster platform such as single:256 (or a platform of nodes), not %s", name)
	}
	if d := genrigid.DefaultNodeParams(); !p.HasNodes() && s.spec.nodes != d {
		return fmt.Errorf("set: %s are for platforms of nodes, and %s has none", strings.Join(genrigid.NodeKeys, ", "), name)
	}
	if s.spec.nodes.MemPerCoreMinMiB > s.spec.nodes.MemPerCoreMaxMiB {
		return fmt.Errorf("set: mem-per-core-min %d MiB above mem-per-core-max %d MiB", s.spec.nodes.MemPerCoreMinMiB, s.spec.nodes.MemPerCoreMaxMiB)
	}
	if err := s.spec.check(p.TotalCores()); err != nil {
		return fmt.Errorf("set: %w (on %s)", err, name)
	}
	return nil
}

// Groups returns one group per instance: per estimate variant (in the
// workload label), platform and policy (model.InstanceCells), every cell
// of the instance seeded alike.
func (s *generatedSource) Groups(ax model.Axes) [][]model.Cell {
	settings := ax.Settings.Canonical()
	if len(ax.Loads) > 0 {
		// At a load the load rule's options change the arrivals too
		// (the load itself is in every cell's id).
		settings += " " + strings.Join(loadRuleMeaning(ax.Settings.(Settings)), " ")
	}
	var groups [][]model.Cell
	for inst := range ax.Instances {
		seed := grid.InstanceSeed(ax.RootSeed, s.canon, inst)
		var group []model.Cell
		for _, e := range s.estimates {
			ex := ax
			ex.Label = ax.Label + "-" + e.name
			cells := model.InstanceCells(ex, Version, s.canon+" "+s.spec.estimates.Canonical()+" estimates="+e.name+s.nodesMeaning(), settings, inst, seed)
			for i := range cells {
				cells[i].Unit = e
			}
			group = append(group, cells...)
		}
		groups = append(groups, group)
	}
	return groups
}

// Prepare shares the instance among its cells, drawn for each machine
// size on first use.
func (s *generatedSource) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	return &generatedPrepared{src: s, root: c.RootSeed, instance: c.Instance, platforms: env.Platforms,
		span: env.Settings.(Settings).span, policyRunner: newPolicyRunner(env, s.own)}, nil
}

// CheckLoad refuses a load outside (0, rigidload.MaxLoad).
func (s *generatedSource) CheckLoad(load float64) error {
	_, err := rigidload.ParseLoad(load)
	return err
}

// generatedPrepared is one instance of a generated workload.
type generatedPrepared struct {
	src       *generatedSource
	root      uint64
	instance  int
	platforms map[string]*platform.Platform
	span      rigidload.Span
	policyRunner

	mu     sync.Mutex
	bySize map[int]*once[instance]
	scaled map[generatedLoad]*once[*loaded]
}

// generatedLoad is an instance on a machine of procs processors at a load
// (0: at its model's own arrivals).
type generatedLoad struct {
	procs int
	load  float64
}

// get returns the instance drawn for a machine of procs processors, once
// per machine size.
func (p *generatedPrepared) get(procs int) (instance, error) {
	return onceOf(&p.mu, &p.bySize, procs, func() (instance, error) { return p.src.spec.generate(p.root, p.instance, procs) })
}

// Simulate runs the instance drawn for the cell's machine, at the cell's
// load, under its policy, the scheduler told what the cell's estimate
// variant says.
func (p *generatedPrepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	e := c.Unit.(generatedEstimate)
	plat := p.platforms[c.Platform]
	l, err := p.atLoad(plat.TotalCores(), c.Load)
	if err != nil {
		return nil, fmt.Errorf("generating %s instance %d: %w", c.Workload, c.Instance, err)
	}
	w := l.cut.Workload // the jobs are shared, read only
	w.Name = p.src.workloadName(p.root, p.instance, w.Procs, e.name)
	cluster := plat.Clusters[0].Name
	if plat.HasNodes() {
		if err := p.onNodes(&w, plat); err != nil {
			return nil, err
		}
		cluster = plat.Name
	}
	sched, ids, err := l.runner(p.policyRunner).schedule(ctx, c.Policy, &w, e.variant)
	if err != nil {
		return nil, err
	}
	return &Outcome{CellID: c.ID, Variant: e.variant, Workload: &w, Schedule: sched, Processors: ids,
		Cluster: cluster, TargetLoad: l.target, AchievedLoad: l.achieved}, nil
}

// onNodes puts w on the platform's nodes: a copy of its jobs with
// requests drawn by genrigid.NodeRequests from a seed of their own (the
// instance's and the node parameters').
func (p *generatedPrepared) onNodes(w *rigid.Workload, plat *platform.Platform) error {
	spec := &p.src.spec
	w.Machine = machineOf(plat)
	w.Jobs = slices.Clone(w.Jobs)
	seed := grid.InstanceSeed(p.root, p.src.canon+" nodes "+spec.nodes.Canonical(), p.instance)
	var err error
	w.Requests, err = genrigid.NodeRequests(w.Jobs, w.Machine, spec.nodes, seed)
	return err
}

// nodesMeaning is the node parameters in a cell's identity when they
// differ from the defaults, so that every other cell keeps its id.
func (s *generatedSource) nodesMeaning() string {
	if s.spec.nodes == genrigid.DefaultNodeParams() {
		return ""
	}
	return " " + s.spec.nodes.Canonical()
}

// atLoad returns the instance drawn for a machine of procs processors,
// every job measured, with its arrivals scaled to load by the rigid
// model's one load rule (atLoad, rigidload); once per machine and load.
func (p *generatedPrepared) atLoad(procs int, load float64) (*loaded, error) {
	return onceOf(&p.mu, &p.scaled, generatedLoad{procs, load}, func() (*loaded, error) {
		inst, err := p.get(procs)
		if err != nil {
			return nil, err
		}
		return atLoad(rigidtrace.Cut{Workload: *inst.workload, MeasuredJobs: len(inst.workload.Jobs)}, procs, p.span, load)
	})
}

// workloadName describes an instance for messages and for an external
// policy's hello (its workload name): the model, the instance and root
// seed, the machine, the parameters that differ from the published ones
// and the estimates.
func (s *generatedSource) workloadName(root uint64, inst, procs int, estimates string) string {
	return fmt.Sprintf("%s instance %d, root seed %d: %d jobs on %d processors, %s; estimates %s",
		genrigid.LublinName, inst, root, s.spec.jobs, procs, s.changed, estimates)
}

// presetParams lists the generator's parameters: jobs, the Lublin model's
// and the Tsafrir model's, with their published defaults.
func presetParams() []model.Param {
	g := newGeneratorSpec()
	out := []model.Param{{Name: "jobs", Doc: "jobs of an instance", Default: strconv.Itoa(g.jobs)}}
	for _, k := range g.lublin.Keys() {
		v, _ := g.lublin.Get(k)
		out = append(out, model.Param{Name: k, Doc: g.lublin.Doc(k), Default: v})
	}
	for _, k := range g.estimates.Keys() {
		v, _ := g.estimates.Get(k)
		out = append(out, model.Param{Name: k, Doc: EstimatesTsafrir + ": " + g.estimates.Doc(k), Default: v})
	}
	d := genrigid.DefaultNodeParams()
	defaults := []string{strconv.FormatFloat(d.GPUJobs, 'g', -1, 64), strconv.FormatInt(d.MemPerCoreMinMiB, 10), strconv.FormatInt(d.MemPerCoreMaxMiB, 10)}
	for i, k := range genrigid.NodeKeys {
		out = append(out, model.Param{Name: k, Doc: genrigid.NodeDoc(k), Default: defaults[i]})
	}
	return out
}

// PresetParams lists lublin1999's parameters for `sweep policies`.
func (Model) PresetParams(preset string) []model.Param {
	if preset != genrigid.LublinName {
		return nil
	}
	return presetParams()
}

// Generate writes one instance of lublin1999, with its tsafrir2005
// estimates, as an SWF log (`sweep gen --preset lublin1999 --platform
// single:N`): the jobs the manifest's cells of root seed seed and that
// instance run on N processors.
func (Model) Generate(ctx context.Context, preset string, settings []string, seed uint64, inst int, arrivals model.Arrivals, out io.Writer) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", model.InputError{Err: fmt.Errorf(format, args...)}
	}
	switch {
	case preset != genrigid.LublinName:
		return bad("preset %q: the rigid model generates %s", preset, genrigid.LublinName)
	case arrivals.Load > 0:
		return bad("%s draws its own arrivals: leave out --load (a load for rigid workloads comes with the load axis)", preset)
	case arrivals.Cores < 1:
		return bad("%s takes the machine's size from the platform: give --platform single:N", preset)
	case inst < 0:
		return bad("--instance %d: want >= 0", inst)
	}
	spec := newGeneratorSpec()
	for _, kv := range settings {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return bad("--set %q: want key=value", kv)
		}
		if err := spec.set(strings.TrimSpace(key), value); err != nil {
			return bad("--set: %w", err)
		}
	}
	if err := spec.check(arrivals.Cores); err != nil {
		return bad("--set: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	g, err := spec.generate(seed, inst, arrivals.Cores)
	if err != nil {
		return "", err
	}
	if err := swf.Write(out, spec.swfHeader(g, seed, inst), swfJobs(g)); err != nil {
		return "", err
	}
	return spec.summarize(g), nil
}

// swfHeader is the SWF header of a generated instance: the machine, the
// job count, second 0 (midnight UTC unless start-hour says otherwise), and
// notes naming sweep, the models, their parameters and the seed.
func (g *generatorSpec) swfHeader(inst instance, root uint64, number int) swf.Header {
	w := inst.workload
	h := swf.NewHeader()
	h.Version = "2.2"
	h.MaxJobs, h.MaxRecords = int64(len(w.Jobs)), int64(len(w.Jobs))
	h.MaxProcs, h.MaxNodes = int64(w.Procs), int64(w.Procs)
	h.UnixStartTime, h.TimeZoneString = w.UnixStartSeconds, "UTC"
	lublinParams := strings.TrimPrefix(g.lublin.Canonical(), genrigid.LublinName+" ")
	estimateParams := strings.TrimPrefix(g.estimates.Canonical(), genrigid.TsafrirName+" ")
	h.Fields = map[string][]string{
		"Computer": {fmt.Sprintf("none: a synthetic workload for a machine of %d processors", w.Procs)},
		"Queue":    {"0 interactive jobs", "1 batch jobs"},
		"Note": {
			"generated by sweep gen (github.com/sweep-sched/sweep): lublin1999, the Lublin and Feitelson model of rigid jobs (JPDC 2003), with tsafrir2005 user estimates (Tsafrir, Etsion and Feitelson, JSSPP 2005)",
			fmt.Sprintf("root seed %d, instance %d: the jobs of a manifest's cells of that root seed and instance on %d processors", root, number, w.Procs),
			fmt.Sprintf("lublin1999 parameters: jobs=%d %s", g.jobs, lublinParams),
			"tsafrir2005 parameters: " + estimateParams,
			"field 9 (requested time) is the tsafrir2005 estimate; run times above max-estimate are cut to it",
			"field 15 (queue) is the job's class; field 12 (user) is 1 for every job (the model has no users); wait time -1 (a workload, not a schedule); second 0 is UnixStartTime, midnight unless start-hour is set",
		},
	}
	return h
}

// swfJobs are a generated instance's jobs as SWF records.
func swfJobs(inst instance) []swf.Job {
	jobs := make([]swf.Job, len(inst.workload.Jobs))
	for i, j := range inst.workload.Jobs {
		jobs[i] = swf.Job{Number: j.Number, SubmitSeconds: j.SubmitSeconds, WaitSeconds: -1, RunSeconds: j.RunSeconds,
			AllocatedProcs: int64(j.Procs), AverageCPUSeconds: -1, UsedMemoryKB: -1, RequestedProcs: int64(j.Procs),
			RequestedSeconds: j.RequestedSeconds, RequestedMemoryKB: -1, Status: swf.StatusCompleted, User: j.User,
			Group: -1, Executable: -1, Queue: int64(inst.classes[i]), Partition: -1, PrecedingJob: -1, ThinkTimeSeconds: -1}
	}
	return jobs
}

// summarize describes a generated instance in one line.
func (g *generatorSpec) summarize(inst instance) string {
	w := inst.workload
	var serial, batch int
	var work int64
	for i, j := range w.Jobs {
		if j.Procs == 1 {
			serial++
		}
		if inst.classes[i] == genrigid.Batch {
			batch++
		}
		work += j.WorkProcSeconds()
	}
	span := int64(0)
	if n := len(w.Jobs); n > 0 {
		span = w.Jobs[n-1].SubmitSeconds
	}
	return fmt.Sprintf("%d rigid jobs on %d processors (%s; %s estimates): %d serial, %d batch, submitted over %.1f days, %.4g processor-hours of work",
		len(w.Jobs), w.Procs, g.changed(), EstimatesTsafrir, serial, batch, float64(span)/86400, float64(work)/3600)
}
