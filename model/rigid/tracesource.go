package rigid

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// PlatformTrace is the platform name that takes each trace's machine from
// its SWF header (MaxProcs, else MaxNodes), so that a manifest of several
// logs needs no exclude: list pairing each with its size.
const PlatformTrace = "trace"

// source is an SWF trace replayed as rigid jobs: month by month (months:),
// whole, or a window of dates or of job indices (window:), at its
// recorded arrivals or at each of the manifest's loads. The trace is read
// once, when the manifest is loaded (so a month or window outside it, or
// variant R without requested times, is a manifest error); each cluster
// size of the run then drops the jobs wider than it, once.
type source struct {
	canon    string            // the trace's hash, for cell ids
	trace    *rigidtrace.Trace // every job, whatever its width
	pieces   []piece
	variants []rigid.Variant
	own      []Policy
	// memory is the memory option (on platforms of nodes, what a job
	// without requested memory asks; tracenodes.go).
	memory rigidtrace.MissingMemory
	mu     sync.Mutex
	unfit  map[string]string // per platform of nodes: the jobs dropped
}

// piece is the part of a trace a cell replays: a calendar month, the
// whole log, a window of dates [from, to) or of job indices [fromJob,
// toJob).
type piece struct {
	month          *rigidtrace.Month
	from, to       time.Time
	fromJob, toJob int
}

// name is the piece in cell names (the Period) and ids: the month as
// YYYY-MM, as it always was.
func (p piece) name() string {
	switch {
	case p.month != nil:
		return p.month.String()
	case p.toJob > 0:
		return fmt.Sprintf("jobs:%d..%d", p.fromJob, p.toJob)
	case !p.to.IsZero():
		return formatDate(p.from) + ".." + formatDate(p.to)
	}
	return "whole"
}

// formatDate writes a window's end as a date when it is a midnight (UTC),
// else in RFC 3339.
func formatDate(t time.Time) string {
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// period is the piece as the cells table's month column: yyyymm, or 0.
func (p piece) period() int64 {
	if p.month == nil {
		return 0
	}
	return int64(p.month.Year*100 + int(p.month.Month))
}

// cut cuts the piece out of t.
func (p piece) cut(t *rigidtrace.Trace) (rigidtrace.Cut, error) {
	switch {
	case p.month != nil:
		mw, err := t.Month(*p.month)
		return rigidtrace.Cut{Workload: mw.Workload, WarmUpJobs: mw.WarmUpJobs, MeasuredJobs: mw.MeasuredJobs,
			CoolDownJobs: mw.CoolDownJobs, NoRequest: mw.NoRequest}, err
	case p.toJob > 0:
		return t.JobRange(p.fromJob, p.toJob)
	case !p.to.IsZero():
		return t.Dates(p.from, p.to)
	}
	return t.Whole()
}

// unit is a cell's piece, estimate variant and load (0: the recorded
// arrivals).
type unit struct {
	piece   int
	variant rigid.Variant
	load    float64
}

// WindowSpec is a trace workload's window: dates (YYYY-MM-DD or RFC 3339,
// UTC unless the time says otherwise; to excluded) or job indices (of the
// trace's jobs on the cluster, sorted by submit time; to_job excluded).
type WindowSpec struct {
	From    string `yaml:"from"`
	To      string `yaml:"to"`
	FromJob *int   `yaml:"from_job"`
	ToJob   *int   `yaml:"to_job"`
}

// newTraceSource checks an SWF trace workload.
func newTraceSource(w *model.WorkloadSpec, env model.Env, own []Policy) (*source, error) {
	if err := w.CheckOptions(monthKeys...); err != nil {
		return nil, err
	}
	if err := w.OneTrace(", its months the cells"); err != nil {
		return nil, err
	}
	rs := &source{own: own}
	path := env.Path(w.Trace)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w (paths are relative to the manifest's folder; the Parallel Workloads Archive has the logs: see the README)", err)
	}
	defer f.Close()
	// One pass over the file: the reader parses what the hash reads. The
	// width limit comes with each platform (prepared.piece).
	sum, err := model.ReadHashed(f, func(r io.Reader) (err error) {
		rs.trace, err = rigidtrace.Read(r, path, rigidtrace.Options{Procs: math.MaxInt})
		return err
	})
	if errors.Is(err, swf.ErrJSON) {
		return nil, fmt.Errorf("trace: %w; a Batsim workload is read with format: batsim", err)
	}
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	// The estimates are checked once the file has read as an SWF log, so
	// that a file of another format is named as such first.
	if rs.variants, err = parseEstimates(w); err != nil {
		return nil, err
	}
	if rs.pieces, err = parsePieces(w); err != nil {
		return nil, err
	}
	for _, p := range rs.pieces {
		if _, err := p.cut(rs.trace); err != nil {
			if p.month != nil {
				return nil, fmt.Errorf("months: %w", err)
			}
			return nil, fmt.Errorf("window: %w", err)
		}
	}
	if slices.Contains(rs.variants, rigid.EstimateRequested) || slices.Contains(rs.variants, rigid.EstimatePredicted) {
		if err := rs.trace.CheckRequestedTimes(); err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
	}
	rs.canon = fmt.Sprintf("trace sha256=%s rigid", sum)
	if rs.memory, err = parseMemory(w); err != nil {
		return nil, err
	}
	if rs.memory != (rigidtrace.MissingMemory{}) {
		rs.canon += " " + memoryMeaning(rs.memory)
	}
	return rs, nil
}

// parseEstimates reads the estimates: key, a list of variants.
func parseEstimates(w *model.WorkloadSpec) ([]rigid.Variant, error) {
	var estimates []string
	if _, err := w.Option("estimates", &estimates); err != nil {
		return nil, err
	}
	if len(estimates) == 0 {
		return nil, fmt.Errorf("estimates: missing; want a list of T (actual run times) and/or R (requested times)")
	}
	return parseVariants(estimates)
}

// parseVariants reads a trace's estimates list: variants, none twice.
func parseVariants(estimates []string) ([]rigid.Variant, error) {
	var out []rigid.Variant
	for _, e := range estimates {
		v, err := rigid.ParseVariant(e)
		if err != nil {
			return nil, fmt.Errorf("estimates: %w", err)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("estimates: %s listed twice", e)
		}
		out = append(out, v)
	}
	return out, nil
}

// parsePieces reads months: or window:, or neither (the whole log).
func parsePieces(w *model.WorkloadSpec) ([]piece, error) {
	var months MonthRange
	hasMonths, err := w.Option("months", &months)
	if err != nil {
		return nil, err
	}
	var window WindowSpec
	hasWindow, err := w.Option("window", &window)
	if err != nil {
		return nil, err
	}
	switch {
	case hasMonths && hasWindow:
		return nil, fmt.Errorf("window and months exclude each other: months select the trace's calendar months")
	case hasMonths:
		return monthPieces(months)
	case hasWindow:
		p, err := windowPiece(window)
		return []piece{p}, err
	}
	return []piece{{}}, nil
}

func monthPieces(months MonthRange) ([]piece, error) {
	if months.From == "" || months.To == "" {
		return nil, fmt.Errorf("months: want both from and to, as YYYY-MM (to is included)")
	}
	from, err := rigidtrace.ParseMonth(months.From)
	if err != nil {
		return nil, fmt.Errorf("months: from: %w", err)
	}
	to, err := rigidtrace.ParseMonth(months.To)
	if err != nil {
		return nil, fmt.Errorf("months: to: %w", err)
	}
	var out []piece
	for m := from; !m.Start().After(to.Start()); {
		month := m
		out = append(out, piece{month: &month})
		next := m.End()
		m = rigidtrace.Month{Year: next.Year(), Month: next.Month()}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("months: from %s comes after to %s", from, to)
	}
	return out, nil
}

const windowWant = "want {from: DATE, to: DATE} (YYYY-MM-DD or RFC 3339, to excluded) or {from_job: I, to_job: J} (indices of the trace's jobs by submit time, 0 <= I < J)"

func windowPiece(w WindowSpec) (piece, error) {
	dates, jobs := w.From != "" || w.To != "", w.FromJob != nil || w.ToJob != nil
	switch {
	case dates && jobs, !dates && !jobs:
		return piece{}, fmt.Errorf("window: %s", windowWant)
	case jobs:
		if w.FromJob == nil || w.ToJob == nil || *w.FromJob < 0 || *w.ToJob <= *w.FromJob {
			return piece{}, fmt.Errorf("window: from_job %v, to_job %v: %s", deref(w.FromJob), deref(w.ToJob), windowWant)
		}
		return piece{fromJob: *w.FromJob, toJob: *w.ToJob}, nil
	}
	from, err := parseDate(w.From)
	if err != nil {
		return piece{}, fmt.Errorf("window: from: %w", err)
	}
	to, err := parseDate(w.To)
	if err != nil {
		return piece{}, fmt.Errorf("window: to: %w", err)
	}
	if !to.After(from) {
		return piece{}, fmt.Errorf("window: from %s is not before to %s", w.From, w.To)
	}
	return piece{from: from, to: to}, nil
}

func deref(p *int) any {
	if p == nil {
		return "missing"
	}
	return *p
}

func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, fmt.Errorf("%q: want a date YYYY-MM-DD (UTC) or an RFC 3339 time", s)
	}
	return t.UTC(), nil
}

func (s *source) Describe(label string, _ int) string {
	if s.pieces[0].month != nil {
		return fmt.Sprintf("%s (%d months x %d estimates)", label, len(s.pieces), len(s.variants))
	}
	return fmt.Sprintf("%s (%s of %d jobs x %d estimates)", label, s.pieces[0].name(), len(s.trace.Jobs), len(s.variants))
}

// Report is the trace reader's report without the notes on fields the
// model does not read (recorded wait times); the jobs each cluster drops
// as too wide are counted in the cells (dropped_wide_jobs).
func (s *source) Report() string {
	return s.trace.Report.Read.Without(swf.ReasonWaitUnknown).String() + s.unfitReport()
}

// CheckPlatform refuses a platform of more than one cluster, the trace
// platform when the header has no size, and a window of jobs beyond the
// jobs the cluster keeps.
func (s *source) CheckPlatform(name string, p *platform.Platform) error {
	if p != nil && p.HasNodes() {
		return s.checkMachine(name, p)
	}
	if name != PlatformTrace && len(p.Clusters) != 1 {
		return fmt.Errorf("rigid workloads run on identical processors: want a one-cluster platform such as single:64, not %s", name)
	}
	procs, err := s.procs(name, p)
	if err != nil {
		return err
	}
	for _, pc := range s.pieces {
		if pc.toJob == 0 {
			continue
		}
		kept := 0
		for _, j := range s.trace.Jobs {
			if j.Procs <= procs {
				kept++
			}
		}
		if pc.toJob > kept {
			return fmt.Errorf("window: to_job %d: the trace has %d jobs on %s's %d processors; want to_job <= %d", pc.toJob, kept, name, procs, kept)
		}
	}
	return nil
}

// procs returns the processors of the cell's platform: the header's
// machine for PlatformTrace.
func (s *source) procs(name string, p *platform.Platform) (int, error) {
	if name != PlatformTrace {
		return p.TotalCores(), nil
	}
	n, err := s.trace.Header.MachineProcs()
	if err != nil {
		return 0, fmt.Errorf("platform trace: %s: %w; give a platform such as single:N", s.trace.Source, err)
	}
	return int(n), nil
}

// platformCanon is the platform's part of a cell id.
func (s *source) platformCanon(ax model.Axes, name string) string {
	if name == PlatformTrace {
		n, _ := s.trace.Header.MachineProcs()
		return fmt.Sprintf("trace procs=%d", n)
	}
	return ax.Env.Platforms[name].Canonical()
}

func (s *source) Allows(string) error { return nil }

// Groups returns the source's cells in replicate 0 as one group: per
// estimate variant (in the workload label), piece (the instance; the
// period of the cell's name), platform, load and policy. A cell at its
// recorded arrivals has the id a month cell always had; one at a load
// adds the load and the span's rule.
func (s *source) Groups(ax model.Axes) [][]model.Cell {
	if ax.Replicate > 0 {
		return nil // a trace replays the same jobs under every root seed
	}
	loads := ax.Loads
	if len(loads) == 0 {
		loads = []float64{0}
	}
	var cells []model.Cell
	for _, v := range s.variants {
		for pi, pc := range s.pieces {
			for _, plat := range ax.Platforms {
				for _, load := range loads {
					for _, pol := range ax.Policies {
						// The load joins the period in the cell's name
						// (workload/period/platform/policy).
						period := pc.name()
						if load > 0 {
							period += "/L" + model.FormatLoad(load)
						}
						c := model.Cell{Workload: ax.Label + "-" + v.String(), Instance: pi, Period: period, Platform: plat,
							Policy: pol, RootSeed: ax.RootSeed, Load: load, Unit: unit{pi, v, load}}
						meaning := []string{"sweep-rigid-cell", Version, ax.Experiment, fmt.Sprint(ax.Seed), s.canon,
							pc.name(), v.String(), s.platformCanon(ax, plat), ax.Settings.Canonical(), ax.Env.PolicyMeaning(pol)}
						if load > 0 {
							meaning = append(meaning, loadMeaning(load, ax.Settings.(Settings))...)
						}
						c.SetID(meaning)
						cells = append(cells, c)
					}
				}
			}
		}
	}
	return [][]model.Cell{cells}
}

// loadMeaning is what a cell at a load adds to its id: the load and the
// load rule's options.
func loadMeaning(load float64, s Settings) []string {
	return append([]string{"load=" + model.FormatLoad(load)}, loadRuleMeaning(s)...)
}

// loadRuleMeaning is the load rule's options, which change a loaded
// cell's arrivals (span) and its RelShare day (day: scaled).
func loadRuleMeaning(s Settings) []string {
	out := []string{"span=" + s.span.String()}
	if s.dayScaled {
		out = append(out, "day=scaled")
	}
	return out
}

// Prepare shares the trace among the cells of a run, cut to each cluster
// size and scaled to each load on first use.
func (s *source) Prepare(_ context.Context, _ model.Cell, env model.Env) (model.Prepared, error) {
	return &prepared{src: s, platforms: env.Platforms, span: env.Settings.(Settings).span, policyRunner: newPolicyRunner(env, s.own)}, nil
}

// prepared cuts a rigid source's trace to each cluster size, and each
// piece to each load, once, and shares them among the cells of a run.
type prepared struct {
	src       *source
	platforms map[string]*platform.Platform
	span      rigidload.Span
	policyRunner

	mu     sync.Mutex
	bySize map[sizeKey]*once[*rigidtrace.Trace]
	scaled map[scaledKey]*once[*loaded]
}

// once computes a value the first time it is asked for.
type once[T any] struct {
	once sync.Once
	v    T
	err  error
}

type scaledKey struct {
	procs, piece int
	load         float64
	machine      string // the platform of nodes, "" on processors
}

// sizeKey is a trace on a cluster of procs processors, or on the machine
// of nodes of platform machine.
type sizeKey struct {
	procs   int
	machine string
}

// loaded is a piece on a cluster at a load (or at its recorded arrivals).
type loaded struct {
	cut              rigidtrace.Cut
	target, achieved float64
	factor           *big.Rat // the time factor; nil at the recorded arrivals
}

// runner returns the policy runner of a cell of l: RelShare's day scaled
// by l's time factor under day: scaled.
func (l *loaded) runner(r policyRunner) policyRunner {
	if r.settings.dayScaled && l.factor != nil {
		r.settings.windowSeconds = max(1, rigidload.ScaleSeconds(backfill.DaySeconds, 0, l.factor))
	}
	return r
}

func onceOf[K comparable, T any](mu *sync.Mutex, m *map[K]*once[T], k K, f func() (T, error)) (T, error) {
	mu.Lock()
	if *m == nil {
		*m = map[K]*once[T]{}
	}
	o := (*m)[k]
	if o == nil {
		o = &once[T]{}
		(*m)[k] = o
	}
	mu.Unlock()
	o.once.Do(func() { o.v, o.err = f() })
	return o.v, o.err
}

// piece returns the unit's piece on a cluster of procs processors at the
// unit's load.
func (p *prepared) piece(plat string, procs int, u unit) (*rigidtrace.Trace, *loaded, error) {
	machine := ""
	forPlatform := func() (*rigidtrace.Trace, error) { return p.src.trace.ForCluster(procs) }
	if pl := p.platforms[plat]; pl != nil && pl.HasNodes() {
		machine = plat
		forPlatform = func() (*rigidtrace.Trace, error) { return p.src.trace.ForMachine(machineOf(pl), p.src.memory) }
	}
	trace, err := onceOf(&p.mu, &p.bySize, sizeKey{procs, machine}, forPlatform)
	if err != nil {
		return nil, nil, err
	}
	l, err := onceOf(&p.mu, &p.scaled, scaledKey{procs, u.piece, u.load, machine}, func() (*loaded, error) {
		c, err := p.src.pieces[u.piece].cut(trace)
		if err != nil {
			return nil, err
		}
		return atLoad(c, procs, p.span, u.load)
	})
	return trace, l, err
}

// atLoad scales a cut's arrivals to load by the load rule (rigidload),
// its measured jobs chosen by index; load 0 keeps them and measures the
// load they offer.
func atLoad(c rigidtrace.Cut, procs int, span rigidload.Span, load float64) (*loaded, error) {
	measured := rigidload.Measured{From: c.WarmUpJobs, To: c.WarmUpJobs + c.MeasuredJobs}
	if load == 0 {
		offered, err := rigidload.Offered(c.Workload.Jobs, measured, procs, span)
		if err != nil {
			return &loaded{cut: c, achieved: math.NaN()}, nil // one job or one instant: no load to speak of
		}
		return &loaded{cut: c, achieved: rigidload.Float(offered)}, nil
	}
	target, err := rigidload.ParseLoad(load)
	if err != nil {
		return nil, err
	}
	sc, err := rigidload.Scale(c.Workload.Jobs, measured, procs, span, target)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Workload.Name, err)
	}
	w := &c.Workload
	s0 := w.Jobs[0].SubmitSeconds
	// The seconds window is the piece's, scaled, widened to cover the
	// measured jobs (the simulator starts every job before its end); the
	// measured jobs are chosen by index.
	from := min(rigidload.ScaleSeconds(w.MeasureFromSeconds, s0, sc.Factor), sc.Jobs[measured.From].SubmitSeconds)
	to := max(rigidload.ScaleSeconds(w.MeasureToSeconds, s0, sc.Factor), sc.Jobs[measured.To-1].SubmitSeconds+1)
	w.Name = fmt.Sprintf("%s at load %s", w.Name, model.FormatLoad(load))
	w.Jobs, w.MeasureFromSeconds, w.MeasureToSeconds = sc.Jobs, max(from, 0), to
	w.MeasureFromJob, w.MeasureToJob = measured.From, measured.To
	return &loaded{cut: c, target: load, achieved: rigidload.Float(sc.Achieved), factor: sc.Factor}, nil
}

// Simulate runs the cell's piece of the trace under its policy.
func (p *prepared) Simulate(ctx context.Context, c model.Cell) (model.Outcome, error) {
	u := c.Unit.(unit)
	procs, err := p.src.procs(c.Platform, p.platforms[c.Platform])
	if err != nil {
		return nil, err
	}
	trace, l, err := p.piece(c.Platform, procs, u)
	if err != nil {
		return nil, err
	}
	w := l.cut.Workload // the cell's own copy of the header fields
	sched, ids, err := l.runner(p.policyRunner).schedule(ctx, c.Policy, &w, u.variant)
	if err != nil {
		return nil, err
	}
	cluster := PlatformTrace
	if pl := p.platforms[c.Platform]; pl != nil && pl.HasNodes() {
		cluster = pl.Name
	} else if c.Platform != PlatformTrace {
		cluster = p.platforms[c.Platform].Clusters[0].Name
	}
	return &Outcome{CellID: c.ID, Period: p.src.pieces[u.piece].period(), Variant: u.variant, Workload: &w,
		Schedule: sched, Processors: ids, Cluster: cluster,
		DroppedWide: trace.Report.ProcsAboveCluster, RequestFromRun: trace.Report.RequestFromRun, WarmUpJobs: l.cut.WarmUpJobs,
		NoRequest: l.cut.NoRequest, TargetLoad: l.target, AchievedLoad: l.achieved}, nil
}

// SizesFromTrace: the trace platform takes the machine from the header.
func (s *source) SizesFromTrace() bool { return true }

// CheckLoad refuses a load outside (0, rigidload.MaxLoad).
func (s *source) CheckLoad(load float64) error {
	_, err := rigidload.ParseLoad(load)
	return err
}
