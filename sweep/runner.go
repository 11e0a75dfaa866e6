package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/engine"
	"github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/gen"
	"github.com/sweep-sched/sweep/sweep/store"
)

// Cell statuses in the cells table.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// RunOptions configures Run.
type RunOptions struct {
	// Out is the results directory; empty means results/<experiment>.
	Out string
	// Jobs is the number of cells simulated at once; 0 means every core.
	Jobs int
	// Shard selects part of the cells; the zero Shard means all.
	Shard Shard
	// FailFast stops launching cells at the first failure.
	FailFast bool
	// RetryFailed runs again the cells recorded as failed.
	RetryFailed bool
	// Version is the tool version written into the Parquet metadata.
	Version string
	// Progress receives progress reports; nil means none.
	Progress Progress
	// Flush overrides when results are published (zero: every 500 cells
	// or 5 seconds).
	Flush store.FlushPolicy

	// beforeCell, when set, runs at the start of every cell (tests use it
	// to make a cell fail).
	beforeCell func(Cell)
}

// Progress is told how the run advances. It is called from one goroutine
// at a time.
type Progress interface {
	Start(total int)
	Update(done, failed int)
	Finish(done, failed int)
}

// A Summary reports what a run did.
type Summary struct {
	Out         string
	Cells       int // in the manifest
	InShard     int
	AlreadyDone int // skipped: already in the results
	Ran         int
	Failed      int // recorded failed in this run
	Interrupted bool
	Wall        time.Duration
	Warnings    []string
}

// Err summarises an unsuccessful run as an error; nil when every cell ran.
func (s *Summary) Err() error {
	switch {
	case s.Interrupted:
		return fmt.Errorf("interrupted after %d of %d cells; finished cells are saved, rerun the same command to resume", s.Ran, s.InShard-s.AlreadyDone)
	case s.Failed > 0:
		return fmt.Errorf("%d of %d cells failed (recorded with status %q and their error in %s); rerun with --retry-failed after fixing the cause", s.Failed, s.Ran, StatusFailed, filepath.Join(s.Out, "cells"))
	}
	return nil
}

// OutDir returns the results directory for opts.Out.
func (m *Manifest) OutDir(out string) string {
	if out != "" {
		return out
	}
	return filepath.Join("results", m.Experiment)
}

// Run simulates every cell of the manifest that is in the shard and not yet
// done in the results directory, on opts.Jobs cores, and streams the
// results to Parquet. A cancelled ctx stops launching cells; what finished
// is saved. Cells that fail are recorded and the others go on (unless
// FailFast); the returned summary says so.
func Run(ctx context.Context, m *Manifest, opts RunOptions) (*Summary, error) {
	start := time.Now()
	out := m.OutDir(opts.Out)
	sum := &Summary{Out: out}
	plan, err := m.Plan(out, opts.Shard, opts.RetryFailed)
	if err != nil {
		return sum, err
	}
	sum.Cells, sum.InShard, sum.AlreadyDone = plan.Total, plan.InShard, plan.Done
	if err := os.MkdirAll(out, 0o755); err != nil {
		return sum, fmt.Errorf("creating results directory: %w", err)
	}
	warnings, err := repair(out, plan)
	sum.Warnings = warnings
	if err != nil {
		return sum, err
	}
	if err := m.saveCopy(out); err != nil {
		return sum, err
	}
	if len(plan.ToRun) == 0 {
		sum.Wall = time.Since(start)
		return sum, nil
	}

	tag, err := store.NewTag(opts.Shard.Label(), start)
	if err != nil {
		return sum, err
	}
	meta := map[string]string{
		"sweep.manifest_sha256": m.Hash(),
		"sweep.tool_version":    opts.Version,
		"sweep.model_version":   ModelVersion,
		"sweep.experiment":      m.Experiment,
		"sweep.shard":           opts.Shard.Label(),
	}
	// The unique key keeps two processes of one shard (a requeued array
	// task and its first run) from publishing a cell twice.
	unique := &store.UniqueKey{Column: "cell_id", Status: "status", Settled: StatusOK}
	writer, err := store.NewCellWriter(out, m.CellsSchema(), m.childSchemas(), store.WriterOptions{Tag: tag, Metadata: meta, Unique: unique}, opts.Flush)
	if err != nil {
		return sum, err
	}

	workers := opts.Jobs
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	cache := newInstanceCache(m, plan.ToRun)
	var done, failed atomic.Int64
	if opts.Progress != nil {
		opts.Progress.Start(len(plan.ToRun))
	}
	stopProgress := make(chan struct{})
	var progressDone sync.WaitGroup
	progressDone.Add(1)
	go func() {
		defer progressDone.Done()
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopProgress:
				return
			case <-tick.C:
				// A flush error is sticky in the writer and surfaces at Close.
				_ = writer.MaybeFlush()
				if opts.Progress != nil {
					opts.Progress.Update(int(done.Load()), int(failed.Load()))
				}
			}
		}
	}()

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, c := range plan.ToRun {
		if gctx.Err() != nil {
			break
		}
		c := c
		g.Go(func() error {
			if gctx.Err() != nil {
				cache.release(c)
				return nil // launched after a stop: leave it for resume
			}
			row, children, err := runCell(gctx, m, cache, c, opts.beforeCell)
			cache.release(c)
			if err != nil && gctx.Err() != nil {
				return nil // interrupted, not failed: it runs again on resume
			}
			if err != nil {
				row, children = failedRow(m, c, err), childRows{}
				failed.Add(1)
			}
			if werr := writer.Append(row, children.ordered(m)...); werr != nil {
				return fmt.Errorf("writing results: %w", werr)
			}
			done.Add(1)
			if err != nil && opts.FailFast {
				return fmt.Errorf("cell %s failed: %w (--fail-fast)", c.Name(), err)
			}
			return nil
		})
	}
	runErr := g.Wait()
	close(stopProgress)
	progressDone.Wait()
	closeErr := writer.Close()
	sum.Ran, sum.Failed = int(done.Load()), int(failed.Load())
	sum.Interrupted = ctx.Err() != nil
	sum.Wall = time.Since(start)
	if opts.Progress != nil {
		opts.Progress.Finish(sum.Ran, sum.Failed)
	}
	if closeErr != nil {
		return sum, fmt.Errorf("saving results: %w", closeErr)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return sum, runErr
	}
	return sum, nil
}

// runCell simulates one cell and returns its row and job rows.
func runCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell, before func(Cell)) (row store.Row, children childRows, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if before != nil {
		before(c)
	}
	s, campaignRows, err := simulateCell(ctx, m, cache, c)
	if err != nil {
		return nil, children, err
	}
	outcomes := s.Outcomes()
	var makespan int64
	for _, o := range outcomes {
		makespan = max(makespan, o.FinishTick)
	}
	metrics, err := analysis.ComputeMetrics(outcomes, m.platform[c.Platform].TotalCores(), makespan)
	if err != nil {
		return nil, children, fmt.Errorf("metrics: %w", err)
	}
	row = cellHead(m, c, StatusOK, "", time.Since(start))
	for _, col := range analysis.MetricColumns() {
		row = append(row, typedValue(col.Integer, func() int64 { return col.Int(&metrics) }, func() float64 { return col.Float(&metrics) }))
	}
	if m.hasCampaigns() {
		var sum *campaign.Summary
		if campaignRows != nil {
			s := campaign.Summarize(campaignRows)
			sum = &s
		}
		for _, col := range campaign.SummaryColumns() {
			if sum == nil {
				row = append(row, store.Null())
				continue
			}
			row = append(row, typedValue(col.Integer, func() int64 { return col.Int(sum) }, func() float64 { return col.Float(sum) }))
		}
	}
	if m.Record.Campaigns {
		children.campaigns = campaignTableRows(c, campaignRows)
	}
	if m.Record.Jobs {
		if children.jobs, err = jobTableRows(c, outcomes); err != nil {
			return nil, children, err
		}
	}
	return row, children, nil
}

// simulateCell runs the cell's policy on its workload instance; campaign
// workloads also return their campaigns' measures.
func simulateCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell) (*engine.Schedule, []campaign.Row, error) {
	in, err := cache.instance(c)
	if err != nil {
		return nil, nil, err
	}
	if camp := cache.campaigns(c); camp != nil {
		opts := m.campaignOptions()
		s, err := campaign.Simulate(ctx, in, camp, c.Policy, opts)
		if err != nil {
			return nil, nil, err
		}
		rows, err := campaign.RowsWith(camp, s, opts)
		return s, rows, err
	}
	arrivals, err := gen.Arrivals(in.Volumes(), m.platform[c.Platform].TotalCores(), c.Load)
	if err != nil {
		return nil, nil, fmt.Errorf("arrivals: %w", err)
	}
	s, err := engine.Simulate(ctx, in, engine.Options{Policy: c.Policy, Seed: c.PolicySeed, Release: engine.OpenLoop(arrivals)})
	return s, nil, err
}

// typedValue is a column's value as the type the column is stored as.
func typedValue(integer bool, i func() int64, f func() float64) store.Value {
	if integer {
		return store.Int64(i())
	}
	return store.Float64(f())
}

func jobTableRows(c Cell, outcomes []engine.JobOutcome) ([]store.Row, error) {
	rows := make([]store.Row, len(outcomes))
	for j, o := range outcomes {
		jm, err := analysis.ComputeJobMetrics(o)
		if err != nil {
			return nil, fmt.Errorf("job %d metrics: %w", j, err)
		}
		rows[j] = store.Row{
			store.String(c.ID), store.Int64(int64(j)), store.Int64(o.ArrivalTick), store.Int64(o.StartTick),
			store.Int64(o.FinishTick), store.Int64(o.VolumeCoreTicks), store.Int64(o.CriticalPathTicks),
			store.Float64(jm.SLR), store.Float64(jm.Stretch), store.Float64(jm.Speedup), store.Int64(int64(o.Tasks)),
		}
	}
	return rows, nil
}

func campaignTableRows(c Cell, campaigns []campaign.Row) []store.Row {
	rows := make([]store.Row, len(campaigns))
	for i, r := range campaigns {
		rows[i] = store.Row{
			store.String(c.ID), store.String(r.User), store.String(r.Profile), store.Int64(r.Campaign),
			store.Int64(r.Jobs), store.Int64(r.SubmitTicks), store.Int64(r.CompletionTicks),
			store.Int64(r.WorkTicks), store.Float64(r.Stretch),
		}
	}
	return rows
}

// childRows are a cell's rows in the tables other than cells.
type childRows struct{ jobs, campaigns []store.Row }

// ordered returns the rows in the order of Manifest.childSchemas.
func (r childRows) ordered(m *Manifest) [][]store.Row {
	var out [][]store.Row
	if m.Record.Jobs {
		out = append(out, r.jobs)
	}
	if m.Record.Campaigns {
		out = append(out, r.campaigns)
	}
	return out
}

func cellHead(m *Manifest, c Cell, status, errText string, wall time.Duration) store.Row {
	errValue := store.Null()
	if errText != "" {
		errValue = store.String(errText)
	}
	load := store.Null()
	if c.Load != 0 {
		load = store.Float64(c.Load)
	}
	return store.Row{
		store.String(c.ID), store.String(m.Experiment), store.String(c.Workload), store.String(c.Generator),
		store.Int64(int64(c.Instance)), load, store.String(c.Platform), store.String(c.Policy),
		store.Int64(int64(c.WorkloadSeed[0])), store.String(status), errValue, store.Int64(wall.Milliseconds()),
	}
}

func failedRow(m *Manifest, c Cell, err error) store.Row {
	row := cellHead(m, c, StatusFailed, err.Error(), 0)
	for range len(m.CellsSchema().Columns) - len(row) {
		row = append(row, store.Null())
	}
	return row
}

// instanceCache generates each workload instance once and compiles it per
// platform, shares it among the cells that run it, and drops it when its
// last cell is done, so memory holds only the instances in flight.
type instanceCache struct {
	m       *Manifest
	mu      sync.Mutex
	entries map[int]*cacheEntry
}

type cacheEntry struct {
	once      sync.Once
	remaining int // cells still to run
	compiled  map[string]*engine.Instance
	campaigns *campaign.Workload // for campaign sources
	err       error
}

func newInstanceCache(m *Manifest, cells []Cell) *instanceCache {
	c := &instanceCache{m: m, entries: map[int]*cacheEntry{}}
	for _, cell := range cells {
		e := c.entries[cell.group]
		if e == nil {
			e = &cacheEntry{}
			c.entries[cell.group] = e
		}
		e.remaining++
	}
	return c
}

// build generates the cell's workload instance and compiles it for every
// platform of the manifest.
func (c *instanceCache) build(cell Cell) (map[string]*engine.Instance, *campaign.Workload, error) {
	src := c.m.sources[cell.spec]
	compiled := map[string]*engine.Instance{}
	if src.campaigns {
		w, err := src.campaignWorkload(c.m.Seed, cell.Instance)
		if err != nil {
			return nil, nil, fmt.Errorf("building %s instance %d: %w", cell.Workload, cell.Instance, err)
		}
		for _, name := range c.m.Platforms {
			if compiled[name], err = w.Compile(c.m.platform[name].TotalCores()); err != nil {
				return nil, nil, fmt.Errorf("%s instance %d on %s: %w", cell.Workload, cell.Instance, name, err)
			}
		}
		return compiled, w, nil
	}
	w, err := src.dagWorkload(c.m.Seed, cell.Instance)
	if err != nil {
		return nil, nil, fmt.Errorf("generating %s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	net, _ := c.m.network()
	for _, name := range c.m.Platforms {
		if compiled[name], err = engine.Compile(w, c.m.platform[name], net); err != nil {
			return nil, nil, fmt.Errorf("%s instance %d on %s: %w", cell.Workload, cell.Instance, name, err)
		}
	}
	return compiled, nil, nil
}

func (c *instanceCache) instance(cell Cell) (*engine.Instance, error) {
	c.mu.Lock()
	e := c.entries[cell.group]
	c.mu.Unlock()
	e.once.Do(func() { e.compiled, e.campaigns, e.err = c.build(cell) })
	if e.err != nil {
		return nil, e.err
	}
	return e.compiled[cell.Platform], nil
}

// campaigns returns the cell's campaign workload, nil for DAG workloads.
func (c *instanceCache) campaigns(cell Cell) *campaign.Workload {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[cell.group].campaigns
}

func (c *instanceCache) release(cell Cell) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[cell.group]
	e.remaining--
	if e.remaining == 0 {
		delete(c.entries, cell.group)
	}
}

// saveCopy keeps the manifest beside its results, for `sweep analyze`.
func (m *Manifest) saveCopy(out string) error {
	data, err := os.ReadFile(m.path)
	if err != nil {
		return fmt.Errorf("copying manifest: %w", err)
	}
	tmp, err := os.CreateTemp(out, ".manifest-*")
	if err != nil {
		return fmt.Errorf("copying manifest: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("copying manifest: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("copying manifest: %w", err)
	}
	return os.Rename(tmp.Name(), filepath.Join(out, "manifest.yaml"))
}

// repair makes a results directory safe to append to: unreadable part
// files and jobs parts whose cells part was never written (a kill between
// the two) are moved aside, and temporary files of killed writers removed.
func repair(out string, plan *Plan) ([]string, error) {
	var warnings []string
	for _, p := range plan.Problems {
		aside, err := store.MoveAside(p.Path)
		if err != nil {
			return warnings, err
		}
		warnings = append(warnings, fmt.Sprintf("unreadable part file moved aside to %s (its cells will run again): %v", aside, p.Err))
	}
	// A flush writes the jobs part a few milliseconds before its cells
	// part; a young orphan may belong to a live shard process.
	const settle = 10 * time.Second
	for attempt := 0; ; attempt++ {
		var orphans []string
		for _, child := range []string{"jobs", "campaigns"} {
			o, err := store.Orphans(out, child, "cells")
			if err != nil {
				return warnings, err
			}
			orphans = append(orphans, o...)
		}
		young := false
		for _, path := range orphans {
			info, err := os.Stat(path)
			if err != nil {
				continue
			}
			if time.Since(info.ModTime()) < settle && attempt == 0 {
				young = true
				continue
			}
			aside, err := store.MoveAside(path)
			if err != nil {
				return warnings, err
			}
			warnings = append(warnings, fmt.Sprintf("job rows of an unfinished flush moved aside to %s", aside))
		}
		if !young {
			break
		}
		time.Sleep(settle)
	}
	for _, table := range []string{"cells", "jobs", "campaigns"} {
		if _, err := store.RemoveStaleTemps(out, table, "", time.Now().Add(-24*time.Hour)); err != nil {
			return warnings, err
		}
	}
	return warnings, nil
}

// A Plan is what a run of a manifest would do.
type Plan struct {
	Out      string
	Total    int             // cells in the manifest
	Axes     []Axis          // cells per axis value
	InShard  int             // cells in the shard
	Done     int             // of those, finished ok
	Failed   int             // of those, recorded failed
	ToRun    []Cell          // what a run launches
	Stale    int             // cells in the directory that this manifest does not have
	Problems []store.Problem // unreadable part files
}

// An Axis counts the manifest's cells per value of one axis.
type Axis struct {
	Name   string
	Values []string
	Cells  []int
}

// Plan expands the manifest and compares it with the results directory
// out. It fails if the directory holds a result whose cell has the same
// name but another meaning (changed parameters, seed or model version):
// mixing them would pair results of two different experiments.
func (m *Manifest) Plan(out string, shard Shard, retryFailed bool) (*Plan, error) {
	cells := m.Cells()
	p := &Plan{Out: out, Total: len(cells)}
	existing, problems, err := store.ReadColumns(out, "cells", []string{"cell_id", "status", "workload", "instance", "load", "platform", "policy"})
	if err != nil {
		return nil, fmt.Errorf("reading finished cells in %s: %w", out, err)
	}
	p.Problems = problems
	status := map[string]string{}
	names := map[string]string{}
	if existing != nil {
		ids, st := existing.Column("cell_id").Strings, existing.Column("status").Strings
		wl, inst, load := existing.Column("workload").Strings, existing.Column("instance").Int64s, existing.Column("load").Float64s
		plat, pol := existing.Column("platform").Strings, existing.Column("policy").Strings
		for i, id := range ids {
			// An ok row wins over a failed one: a retried cell keeps its
			// old failed row in an older part file.
			if status[id] != StatusOK {
				status[id] = st[i]
			}
			c := Cell{Workload: wl[i], Instance: int(inst[i]), Load: load[i], Platform: plat[i], Policy: pol[i]}
			names[c.Name()] = id
		}
	}
	inManifest := map[string]bool{}
	for _, c := range cells {
		inManifest[c.ID] = true
		if id, ok := names[c.Name()]; ok && id != c.ID {
			return nil, fmt.Errorf("%s already holds cell %s computed with different settings (generator parameters, seed, network, platform definition or model version %s changed); "+
				"mixing them would pair results of two experiments: use another --out, or remove %s", out, c.Name(), ModelVersion, out)
		}
	}
	for id := range status {
		if !inManifest[id] {
			p.Stale++
		}
	}
	for _, c := range cells {
		if !shard.contains(c) {
			continue
		}
		p.InShard++
		switch status[c.ID] {
		case StatusOK:
			p.Done++
			continue
		case StatusFailed:
			p.Failed++
			if !retryFailed {
				continue
			}
		}
		p.ToRun = append(p.ToRun, c)
	}
	p.Axes = m.axes(cells)
	return p, nil
}

func (m *Manifest) axes(cells []Cell) []Axis {
	count := func(name string, values []string, key func(Cell) string) Axis {
		a := Axis{Name: name, Values: values, Cells: make([]int, len(values))}
		for _, c := range cells {
			for i, v := range values {
				if key(c) == v {
					a.Cells[i]++
				}
			}
		}
		return a
	}
	var workloads, loads []string
	for _, w := range m.Workloads {
		workloads = append(workloads, fmt.Sprintf("%s (%d instances)", w.Label, w.Instances))
	}
	for _, l := range m.Loads {
		loads = append(loads, formatLoad(l))
	}
	if len(loads) == 0 {
		loads = []string{"none (closed loop)"}
	}
	return []Axis{
		count("workload", workloads, func(c Cell) string {
			return fmt.Sprintf("%s (%d instances)", c.Workload, m.Workloads[c.spec].Instances)
		}),
		count("platform", m.Platforms, func(c Cell) string { return c.Platform }),
		count("load", loads, func(c Cell) string {
			if c.Load == 0 {
				return "none (closed loop)"
			}
			return formatLoad(c.Load)
		}),
		count("policy", m.Policies, func(c Cell) string { return c.Policy }),
	}
}

// Write prints the plan as a short report.
func (p *Plan) Write(w io.Writer) {
	for _, a := range p.Axes {
		parts := make([]string, len(a.Values))
		for i, v := range a.Values {
			parts[i] = fmt.Sprintf("%s: %d", v, a.Cells[i])
		}
		fmt.Fprintf(w, "%-9s %s\n", a.Name, strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "cells     %d in the manifest, %d in this shard\n", p.Total, p.InShard)
	fmt.Fprintf(w, "done      %d ok, %d failed (in %s)\n", p.Done, p.Failed, p.Out)
	fmt.Fprintf(w, "to run    %d\n", len(p.ToRun))
	if p.Failed > 0 && len(p.ToRun)+p.Done < p.InShard {
		fmt.Fprintf(w, "note      failed cells are not rerun without --retry-failed\n")
	}
	if p.Stale > 0 {
		fmt.Fprintf(w, "note      %d cells in %s are not in this manifest (kept; `sweep analyze` still reads them)\n", p.Stale, p.Out)
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "warning   unreadable part file %s: %v (a run moves it aside and reruns its cells)\n", pr.Path, pr.Err)
	}
}

// CellsSchema is the cells table: one row per cell, the metric columns of
// analysis.MetricColumns after the cell's identity, and when the manifest
// has campaign workloads the campaign summary columns (null for DAG cells).
func (m *Manifest) CellsSchema() store.Schema {
	cols := []store.Column{
		{Name: "cell_id", Type: store.TypeString},
		{Name: "experiment", Type: store.TypeString},
		{Name: "workload", Type: store.TypeString},
		{Name: "generator", Type: store.TypeString},
		{Name: "instance", Type: store.TypeInt64},
		{Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "platform", Type: store.TypeString},
		{Name: "policy", Type: store.TypeString},
		{Name: "seed", Type: store.TypeInt64},
		{Name: "status", Type: store.TypeString},
		{Name: "error", Type: store.TypeString, Nullable: true},
		{Name: "wall_ms", Type: store.TypeInt64},
	}
	typ := func(integer bool) store.Type {
		if integer {
			return store.TypeInt64
		}
		return store.TypeFloat64
	}
	for _, c := range analysis.MetricColumns() {
		cols = append(cols, store.Column{Name: c.Name, Type: typ(c.Integer), Nullable: true})
	}
	if m.hasCampaigns() {
		for _, c := range campaign.SummaryColumns() {
			cols = append(cols, store.Column{Name: c.Name, Type: typ(c.Integer), Nullable: true})
		}
	}
	return store.Schema{Table: "cells", Columns: cols}
}

func (m *Manifest) hasCampaigns() bool {
	for _, s := range m.sources {
		if s.campaigns {
			return true
		}
	}
	return false
}

// childSchemas are the tables besides cells that the manifest records.
func (m *Manifest) childSchemas() []store.Schema {
	var out []store.Schema
	if m.Record.Jobs {
		out = append(out, JobsSchema())
	}
	if m.Record.Campaigns {
		out = append(out, CampaignsSchema())
	}
	return out
}

// CampaignsSchema is the campaigns table: one row per campaign per cell.
func CampaignsSchema() store.Schema {
	i := store.TypeInt64
	return store.Schema{Table: "campaigns", Columns: []store.Column{
		{Name: "cell_id", Type: store.TypeString}, {Name: "user", Type: store.TypeString},
		{Name: "profile", Type: store.TypeString}, {Name: "campaign", Type: i}, {Name: "jobs", Type: i},
		{Name: "submit", Type: i}, {Name: "completion", Type: i}, {Name: "work", Type: i},
		{Name: "stretch", Type: store.TypeFloat64},
	}}
}

// JobsSchema is the jobs table: one row per job per cell.
func JobsSchema() store.Schema {
	i, f := store.TypeInt64, store.TypeFloat64
	return store.Schema{Table: "jobs", Columns: []store.Column{
		{Name: "cell_id", Type: store.TypeString}, {Name: "job", Type: i}, {Name: "arrival", Type: i},
		{Name: "start", Type: i}, {Name: "finish", Type: i}, {Name: "volume", Type: i},
		{Name: "critical_path", Type: i}, {Name: "slr", Type: f}, {Name: "stretch", Type: f},
		{Name: "speedup", Type: f}, {Name: "tasks", Type: i},
	}}
}
