package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/workload/campaign"

	"github.com/sweep-sched/sweep/workload"

	"github.com/sweep-sched/sweep/engine"
	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/gen"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/gen/swf"
)

// A source builds the workload instances of one manifest entry: a DAG
// generator preset (open loop, arrivals from the load ratio), a campaign
// workload (closed loop: a generator or a trace), or a moldable-task
// generator (off-line: every task at time 0); the last two have no load
// ratio.
type source struct {
	campaigns bool
	canon     string // everything that defines the workload, for cell ids

	moldable *gmoldable.Params
	dag      gen.Params
	profiles *gen.ProfilesParams
	trace    *traceWorkload
	rigid    *rigidSource // trace months of rigid jobs (seed 003)
}

// kind names the model of the source's workloads.
func (s *source) kind() string {
	switch {
	case s.rigid != nil:
		return "rigid"
	case s.moldable != nil:
		return "moldable"
	case s.campaigns:
		return "campaign"
	}
	return "dag"
}

// A traceWorkload is an SWF trace read once, when the manifest is loaded:
// its hash names it in cell ids, its report of dropped and repaired lines
// is shown by plan and run and kept in the Parquet metadata, and its
// campaigns are the source's one instance.
type traceWorkload struct {
	path      string
	campaigns *campaign.Workload
	report    swf.Report
	loop      string // ecampaign.Options.Loop
}

// Policies lists every policy a manifest may name: the engine's for DAG
// workloads, campaign scheduling's for campaign workloads, the moldable
// algorithms for moldable workloads and the fair-share policies for
// trace-month workloads.
func Policies() []string {
	return slices.Concat(engine.Policies(), ecampaign.Policies(), emoldable.Algorithms(), FairSharePolicies())
}

// loadFree reports whether the source's workloads run without a load
// ratio.
func (s *source) loadFree() bool { return s.kind() != "dag" }

// allows reports whether policy can run on the source's workloads, and
// if not, why.
func (s *source) allows(policy string) error {
	isMoldable := slices.Contains(emoldable.Algorithms(), policy)
	switch {
	case s.rigid != nil && slices.Contains(FairSharePolicies(), policy):
		return nil
	case s.rigid != nil:
		return fmt.Errorf("policy %q is not a fair-share policy; trace-month workloads take %s", policy, strings.Join(FairSharePolicies(), ", "))
	case slices.Contains(FairSharePolicies(), policy):
		return fmt.Errorf("policy %q needs a trace-month workload (trace with months)", policy)
	case s.moldable != nil && isMoldable:
		return nil
	case s.moldable != nil:
		return fmt.Errorf("policy %q does not schedule moldable tasks; moldable workloads take %s", policy, strings.Join(emoldable.Algorithms(), ", "))
	case isMoldable:
		return fmt.Errorf("policy %q schedules moldable tasks, not this workload", policy)
	case !s.campaigns && slices.Contains(engine.Policies(), policy):
		return nil
	case s.campaigns && policy == "log" && s.trace == nil:
		return fmt.Errorf("policy log replays a recorded schedule and needs a trace workload")
	case s.campaigns && slices.Contains(ecampaign.Policies(), policy):
		return nil
	case s.campaigns:
		return fmt.Errorf("policy %q is not a campaign policy; campaign workloads take %s", policy, strings.Join(ecampaign.Policies(), ", "))
	}
	return fmt.Errorf("policy %q is a campaign policy; DAG workloads take %s", policy, strings.Join(engine.Policies(), ", "))
}

// newSource checks a workload entry and resolves its source; pathOf turns
// a path named in the manifest (a trace) into the one to open.
func newSource(w *WorkloadSpec, pathOf func(string) string) (*source, error) {
	switch {
	case w.Trace != "" && w.Generator != "":
		return nil, fmt.Errorf("give either generator or trace, not both")
	case w.Months != nil && w.Trace == "":
		return nil, fmt.Errorf("months apply to trace workloads only")
	case len(w.Estimates) > 0 && w.Months == nil:
		return nil, fmt.Errorf("estimates apply to trace-month workloads only (give months)")
	case w.Trace != "" && w.Months != nil:
		return rigidTraceSource(w, pathOf(w.Trace))
	case w.Trace != "":
		return traceSource(w, pathOf(w.Trace))
	case w.Window != nil:
		return nil, fmt.Errorf("window applies to trace workloads only")
	case w.Replay != nil:
		return nil, fmt.Errorf("replay applies to trace workloads only")
	case strings.HasPrefix(w.Generator, gmoldable.PresetPrefix):
		return moldableSource(w)
	case w.Generator == gen.ProfilesPreset:
		p := gen.DefaultProfilesParams()
		for _, key := range slices.Sorted(maps.Keys(w.Set)) {
			if err := p.Set(key, w.Set[key]); err != nil {
				return nil, fmt.Errorf("set: %w", err)
			}
		}
		if err := p.Validate(); err != nil {
			return nil, err
		}
		return &source{campaigns: true, profiles: &p, canon: p.Canonical()}, nil
	}
	preset, err := gen.Lookup(w.Generator)
	if err != nil {
		return nil, fmt.Errorf("generator: %w (campaign generator: %s; or give trace: FILE)", err, gen.ProfilesPreset)
	}
	params := preset.Defaults()
	for _, key := range slices.Sorted(maps.Keys(w.Set)) {
		if err := params.Set(key, w.Set[key]); err != nil {
			return nil, fmt.Errorf("set: %w", err)
		}
	}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	return &source{dag: params, canon: params.Canonical()}, nil
}

// moldableSource resolves a moldable-task generator preset.
func moldableSource(w *WorkloadSpec) (*source, error) {
	preset, err := gmoldable.Lookup(w.Generator)
	if err != nil {
		return nil, fmt.Errorf("generator: %w", err)
	}
	p := preset.Defaults()
	for _, key := range slices.Sorted(maps.Keys(w.Set)) {
		if err := p.Set(key, w.Set[key]); err != nil {
			return nil, fmt.Errorf("set: %w", err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &source{moldable: &p, canon: p.Canonical()}, nil
}

func traceSource(w *WorkloadSpec, path string) (*source, error) {
	if w.Instances > 1 {
		return nil, fmt.Errorf("instances %d: a trace is one workload; want 1 (or leave it out)", w.Instances)
	}
	if len(w.Set) > 0 {
		return nil, fmt.Errorf("set applies to generators, not traces")
	}
	w.Instances = 1
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w (paths are relative to the manifest's folder; the Parallel Workloads Archive has the logs: see the README)", err)
	}
	defer f.Close()
	var window swf.Window
	win := "all"
	if w.Window != nil {
		if w.Window.From == "" || w.Window.To == "" {
			return nil, fmt.Errorf("window: want both from and to, as dates YYYY-MM-DD (to is excluded)")
		}
		window = swf.DateWindow(w.Window.From, w.Window.To)
		win = w.Window.From + ".." + w.Window.To
	}
	replay, err := w.Replay.normalised()
	if err != nil {
		return nil, err
	}
	// One pass over the file: the reader parses what the hash reads.
	h := sha256.New()
	camp, report, err := swf.ReadCampaigns(io.TeeReader(f, h), path, replay.readerOptions(window), swf.Release(replay.Release))
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	s := &source{campaigns: true, trace: &traceWorkload{path: path, campaigns: camp, report: report, loop: replay.Loop}}
	s.canon = fmt.Sprintf("trace sha256=%s window=%s %s", hex.EncodeToString(h.Sum(nil)), win, replay.canonical())
	return s, nil
}

// A TraceReport is what the SWF reader dropped, filtered, repaired and
// noted in one trace workload of a manifest.
type TraceReport struct {
	Workload string // the workload's label
	Report   swf.Report
}

// TraceReports returns the reports of the manifest's trace workloads, in
// manifest order.
func (m *Manifest) TraceReports() []TraceReport {
	var out []TraceReport
	for i, s := range m.sources {
		switch {
		case s.trace != nil:
			out = append(out, TraceReport{Workload: m.Workloads[i].Label, Report: s.trace.report})
		case s.rigid != nil:
			// The reader's part; the jobs each cluster drops as too wide
			// are counted in the cells (dropped_wide_jobs).
			out = append(out, TraceReport{Workload: m.Workloads[i].Label, Report: s.rigid.trace.Report.Read})
		}
	}
	return out
}

// dagWorkload generates instance inst of a DAG source.
func (s *source) dagWorkload(rootSeed uint64, inst int) (*workload.Workload, error) {
	return gen.Generate(s.dag, rootSeed, inst)
}

// campaignOptions returns the scheduling options of the source's cells:
// the manifest's, with a trace's replay loop.
func (s *source) campaignOptions(o ecampaign.Options) ecampaign.Options {
	if s.trace != nil {
		o.Loop = s.trace.loop
	}
	return o
}

// campaignWorkload builds instance inst of a campaign source.
func (s *source) campaignWorkload(rootSeed uint64, inst int) (*campaign.Workload, error) {
	if s.profiles != nil {
		return gen.GenerateProfiles(*s.profiles, rootSeed, inst)
	}
	// Every cell of the trace shares the workload read with the manifest;
	// nothing writes to it.
	return s.trace.campaigns, nil
}
