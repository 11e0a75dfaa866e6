package rigid

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sync"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/batsim"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// batsimSource is a Batsim JSON workload (workload/batsim: delay profiles)
// replayed whole as rigid jobs, every job measured:
//
//   - trace: workloads/w.json
//     format: batsim
//     estimates: [R]        # R (default): the walltime; T: the run time
type batsimSource struct {
	workload *rigid.Workload
	canon    string
	variants []rigid.Variant
	own      []Policy // the model's Go policies
}

func newBatsimSource(w *model.WorkloadSpec, env model.Env) (*batsimSource, error) {
	if err := w.CheckOptions(batsimKeys...); err != nil {
		return nil, err
	}
	in, err := readWhole(w, env, "a Batsim workload")
	if err != nil {
		return nil, err
	}
	bw, err := batsim.Decode(bytes.NewReader(in.data), in.path)
	if err != nil {
		return nil, err
	}
	s := &batsimSource{workload: bw, variants: in.variants}
	sum := sha256.Sum256(in.data)
	s.canon = "batsim sha256=" + hex.EncodeToString(sum[:])
	return s, nil
}

func (s *batsimSource) Describe(label string, _ int) string {
	return fmt.Sprintf("%s (Batsim workload, %d jobs x %d estimates)", label, len(s.workload.Jobs), len(s.variants))
}

func (s *batsimSource) Report() string { return "" }

func (s *batsimSource) Allows(string) error { return nil }

func (s *batsimSource) CheckPlatform(name string, p *platform.Platform) error {
	if p.HasNodes() {
		return errProcessorsOnly(name)
	}
	if len(p.Clusters) != 1 {
		return fmt.Errorf("rigid workloads run on identical processors: want a one-cluster platform such as single:%d (the workload's nb_res), not %s", s.workload.Procs, name)
	}
	return nil
}

// Groups returns the workload's cells in replicate 0, one group: per
// estimate variant (in the label), platform, load and policy. A cell at
// the recorded arrivals has the id it always had; one at a load adds the
// load and the span's rule, as a trace's do.
func (s *batsimSource) Groups(ax model.Axes) [][]model.Cell {
	return wholeWorkloadCells(ax, s.variants, s.canon)
}

// wholeWorkloadCells returns the cells of a workload simulated whole
// (a Batsim workload, a CSV job list), in replicate 0, one group: per
// estimate variant (in the label), platform, load and policy.
func wholeWorkloadCells(ax model.Axes, variants []rigid.Variant, canon string) [][]model.Cell {
	if ax.Replicate > 0 {
		return nil
	}
	loads := ax.Loads
	if len(loads) == 0 {
		loads = []float64{0}
	}
	var cells []model.Cell
	for _, v := range variants {
		for _, plat := range ax.Platforms {
			for _, load := range loads {
				for _, pol := range ax.Policies {
					c := model.Cell{Workload: ax.Label + "-" + v.String(), Platform: plat, Policy: pol, RootSeed: ax.RootSeed, Load: load,
						Unit: batsimUnit{v, load}}
					meaning := []string{"sweep-rigid-cell", Version, ax.Experiment, fmt.Sprint(ax.Seed), canon,
						"whole", v.String(), ax.Env.Platforms[plat].Canonical(), ax.Settings.Canonical(), ax.Env.PolicyMeaning(pol)}
					if load > 0 {
						meaning = append(meaning, loadMeaning(load, ax.Settings.(Settings))...)
					}
					c.SetID(meaning)
					cells = append(cells, c)
				}
			}
		}
	}
	return [][]model.Cell{cells}
}

// wholeInput is the file of a workload simulated whole (a Batsim
// workload, a CSV job list) and the estimate variants its entry asks.
type wholeInput struct {
	path     string
	data     []byte
	variants []rigid.Variant
}

// readWhole reads the file of a whole-workload entry (what names it in
// errors) and its estimates: R unless the entry says otherwise. Such an
// entry is one workload, without instances or set.
func readWhole(w *model.WorkloadSpec, env model.Env, what string) (wholeInput, error) {
	if w.Instances > 1 || len(w.Set) > 0 {
		return wholeInput{}, fmt.Errorf("%s is one workload: leave out instances and set", what)
	}
	w.Instances = 1
	in := wholeInput{path: env.Path(w.Trace)}
	var err error
	if in.data, err = os.ReadFile(in.path); err != nil {
		return wholeInput{}, fmt.Errorf("trace: %w", err)
	}
	var estimates []string
	if _, err := w.Option("estimates", &estimates); err != nil {
		return wholeInput{}, err
	}
	if len(estimates) == 0 {
		estimates = []string{rigid.EstimateRequested.String()}
	}
	in.variants, err = parseVariants(estimates)
	return in, err
}

// batsimUnit is a Batsim cell's estimate variant and load (0: the
// recorded arrivals).
type batsimUnit struct {
	variant rigid.Variant
	load    float64
}

// CheckLoad refuses a load outside (0, rigidload.MaxLoad).
func (s *batsimSource) CheckLoad(load float64) error {
	_, err := rigidload.ParseLoad(load)
	return err
}

func (s *batsimSource) Prepare(_ context.Context, _ model.Cell, env model.Env) (model.Prepared, error) {
	return newWholePrepared(env, s.own, s.onPlatform, func(p *platform.Platform) string { return p.Clusters[0].Name }), nil
}

// onPlatform returns the workload on the platform's cluster, the jobs
// wider than it left out and counted.
func (s *batsimSource) onPlatform(p *platform.Platform, plat string) (*rigid.Workload, int, error) {
	procs := p.TotalCores()
	w := *s.workload
	w.Procs = procs
	w.Jobs = nil
	dropped := 0
	for _, j := range s.workload.Jobs {
		if j.Procs > procs {
			dropped++
			continue
		}
		w.Jobs = append(w.Jobs, j)
	}
	if len(w.Jobs) == 0 {
		return nil, 0, fmt.Errorf("every job of %s is wider than %s's %d processors", w.Name, plat, procs)
	}
	return &w, dropped, nil
}

// wholePrepared is a workload simulated whole (a Batsim workload, a CSV
// job list) on each cell's platform at the cell's load, drawn once per
// platform and load.
type wholePrepared struct {
	platforms map[string]*platform.Platform
	span      rigidload.Span
	policyRunner
	// onPlatform returns the workload's jobs on a platform, those it
	// cannot hold left out and counted.
	onPlatform func(p *platform.Platform, plat string) (*rigid.Workload, int, error)
	// cluster names the platform's machine in the outcome.
	cluster func(*platform.Platform) string

	mu     sync.Mutex
	scaled map[batsimKey]*once[batsimLoaded]
}

func newWholePrepared(env model.Env, own []Policy, onPlatform func(*platform.Platform, string) (*rigid.Workload, int, error), cluster func(*platform.Platform) string) *wholePrepared {
	return &wholePrepared{platforms: env.Platforms, span: env.Settings.(Settings).span, policyRunner: newPolicyRunner(env, own),
		onPlatform: onPlatform, cluster: cluster}
}

// batsimKey is the workload on a platform at a load (0: the recorded
// arrivals).
type batsimKey struct {
	platform string
	load     float64
}

// batsimLoaded is the workload on a cluster at a load, with the count of
// the jobs wider than the cluster, left out.
type batsimLoaded struct {
	*loaded
	dropped int
}

// Simulate runs the whole workload on the cell's machine; the jobs it
// cannot hold are left out and counted.
func (p *wholePrepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	u := c.Unit.(batsimUnit)
	l, err := onceOf(&p.mu, &p.scaled, batsimKey{c.Platform, u.load}, func() (batsimLoaded, error) { return p.atLoad(c.Platform, u.load) })
	if err != nil {
		return nil, err
	}
	w := l.cut.Workload // the jobs are shared, read only
	sched, ids, err := l.runner(p.policyRunner).schedule(ctx, c.Policy, &w, u.variant)
	if err != nil {
		return nil, err
	}
	return &Outcome{CellID: c.ID, Variant: u.variant, Workload: &w, Schedule: sched, Processors: ids,
		Cluster: p.cluster(p.platforms[c.Platform]), DroppedWide: l.dropped, TargetLoad: l.target, AchievedLoad: l.achieved}, nil
}

// atLoad returns the workload on the platform, every job measured (the
// window runs from the first submit to just after the last), with its
// arrivals scaled to load by the rigid model's one load rule (atLoad,
// rigidload) over the machine's cores.
func (p *wholePrepared) atLoad(plat string, load float64) (batsimLoaded, error) {
	w, dropped, err := p.onPlatform(p.platforms[plat], plat)
	if err != nil {
		return batsimLoaded{}, err
	}
	w.MeasureFromSeconds, w.MeasureToSeconds = w.Jobs[0].SubmitSeconds, w.Jobs[len(w.Jobs)-1].SubmitSeconds+1
	l, err := atLoad(rigidtrace.Cut{Workload: *w, MeasuredJobs: len(w.Jobs)}, w.Procs, p.span, load)
	return batsimLoaded{l, dropped}, err
}
