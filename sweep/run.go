package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// RunOptions configures Run.
type RunOptions struct {
	// Out is the results directory; empty means results/<experiment>.
	Out string
	// Jobs is the number of cells simulated at once; 0 means
	// runtime.GOMAXPROCS(0), every core the process may use.
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
	// Waiting is told when the run waits for another run of the same
	// manifest on the directory to finish; nil means not told.
	Waiting func(message string)
	// Flush overrides when results are published (zero: every 500 cells
	// or 5 seconds).
	Flush parquet.FlushPolicy
	// Planned, when set, is told the plan once it is checked (external
	// policies probed), before the first cell: `sweep run` prints the
	// traces' reports there on a run's first session only.
	Planned func(*Plan)

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
	Workers     int // cells simulated at once
	Wall        time.Duration
	// CellTime is the workers' time computing cells (simulation, measures,
	// rows); WriterTime their time handing rows to the Parquet writer,
	// waiting for it included. WriterTime / (CellTime + WriterTime) is the
	// share of worker time the writer takes.
	CellTime, WriterTime time.Duration
	// Setup is the time from the start of Run to the first cell's launch
	// (planning, reading the finished cells, opening the writers); Close
	// the time from the last cell's end to the return (closing the
	// writers, which publish their last parts). No cell runs then: it is
	// the serial part of the run, whatever the number of workers.
	Setup, Close time.Duration
	// SweepCPU and ChildrenCPU are the CPU time the run used, sweep's
	// own and its child processes' (external policies), from the
	// operating system's accounting; both zero when no cell ran.
	SweepCPU, ChildrenCPU time.Duration
	Warnings              []string
	// FirstFailures are the first cells that failed in this run (at most
	// firstFailures, in the order they failed) with their errors, for the
	// user to read at the end of the run (WriteFailedCells).
	FirstFailures []FailedCell
}

// firstFailures is how many failed cells a run's summary keeps.
const firstFailures = 3

// Err summarises an unsuccessful run as an error; nil when every cell ran.
func (s *Summary) Err() error {
	switch {
	case s.Interrupted:
		return fmt.Errorf("interrupted after %d of %d cells; finished cells are saved, rerun the same command to resume", s.Ran, s.InShard-s.AlreadyDone)
	case s.Failed > 0:
		return fmt.Errorf("%d of %d cells failed (recorded with status %q and their error in %s); rerun with --retry-failed after fixing the cause", s.Failed, s.Ran, table.StatusFailed, filepath.Join(s.Out, table.Cells))
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
	start, startCPU := time.Now(), readCPUTimes()
	// The phase labels split a CPU profile (sweep run --cpuprofile) into
	// the serial phases (setup, close) and the workers' (cell, write):
	// go tool pprof -tags, or -tagfocus phase=close.
	pprof.SetGoroutineLabels(phaseLabels(ctx, "setup"))
	defer pprof.SetGoroutineLabels(ctx)
	out := m.OutDir(opts.Out)
	sum := &Summary{Out: out}
	if err := m.refuseInUse(out); err != nil {
		return sum, err
	}
	// Planned first without the directory's lock: a run with nothing to
	// do writes nothing (a finished directory may be read-only).
	plan, err := m.Plan(out, opts.Shard, opts.RetryFailed)
	if err != nil {
		return sum, err
	}
	sum.Cells, sum.InShard, sum.AlreadyDone = plan.Total, plan.InShard, plan.Done
	if len(plan.ToRun) == 0 {
		sum.Wall = time.Since(start)
		return sum, nil
	}
	// The external policies of the cells to run are probed before
	// anything is written: one that cannot start or say hello refuses
	// the run.
	if err := m.ProbePolicies(ctx, plan.ToRun); err != nil {
		return sum, err
	}
	if opts.Planned != nil {
		opts.Planned(plan)
	}
	sum.Workers = workerCount(opts.Jobs)
	tags, err := writerTags(sum.Workers, opts.Shard.Label(), start)
	if err != nil {
		return sum, err
	}
	session, plan, err := m.joinOut(ctx, out, opts, tags, start, sum)
	if err != nil {
		return sum, err
	}
	defer session.Close()
	if len(plan.ToRun) == 0 {
		sum.Wall = time.Since(start)
		return sum, nil
	}
	writer, err := newWriterPool(tags, out, m.CellsSchema(), m.childSchemas(),
		m.runMetadata(plan, opts, start, sum.Workers), opts.Flush)
	if err != nil {
		return sum, err
	}
	r := &cellRun{m: m, opts: opts, layout: newRowLayout(m), cells: newDispatcher(plan.ToRun, m.prepare), writer: writer}
	if opts.Progress != nil {
		opts.Progress.Start(len(plan.ToRun))
	}
	stopProgress := r.reportProgress(ctx)
	sum.Setup = time.Since(start)
	runErr := r.runCells(ctx, min(sum.Workers, len(plan.ToRun)))
	lastCell := time.Now()
	pprof.SetGoroutineLabels(phaseLabels(ctx, "close"))
	stopProgress()
	closeErr := writer.close()
	r.summarise(sum)
	used := readCPUTimes().since(startCPU)
	sum.SweepCPU, sum.ChildrenCPU = time.Duration(used.self*float64(time.Second)), time.Duration(used.children*float64(time.Second))
	if closeErr == nil && sum.Ran > 0 {
		closeErr = saveSessionCPU(out, table.SessionCPU{RunStarted: start.UTC().Format(time.RFC3339Nano), Shard: opts.Shard.Label(),
			SweepSeconds: used.self, ChildrenSeconds: used.children})
	}
	sum.Interrupted = ctx.Err() != nil
	sum.Close = time.Since(lastCell)
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

// prepareOut plans the run into out under the directory's admission
// lock a and readies the directory: created, what killed runs left
// repaired, the manifest's copy saved; then it joins the directory's
// sessions as me. sum gets the plan's counts and the repair's warnings.
func (m *Manifest) prepareOut(out string, opts RunOptions, a *parquet.Admission, me parquet.Owner, sum *Summary) (*parquet.Session, *Plan, error) {
	plan, err := m.Plan(out, opts.Shard, opts.RetryFailed)
	if err != nil {
		return nil, nil, err
	}
	sum.Cells, sum.InShard, sum.AlreadyDone = plan.Total, plan.InShard, plan.Done
	if len(plan.ToRun) == 0 {
		return nil, plan, nil // another run did it meanwhile
	}
	warnings, err := repair(out, plan, m.childTables(), a)
	sum.Warnings = warnings
	if err != nil {
		return nil, nil, err
	}
	if err := m.saveCopy(out); err != nil {
		return nil, nil, err
	}
	session, err := a.Join(me)
	if err != nil {
		return nil, nil, err
	}
	return session, plan, nil
}

// workerCount is the number of cells simulated at once for --jobs jobs.
func workerCount(jobs int) int {
	if jobs > 0 {
		return jobs
	}
	// GOMAXPROCS, not NumCPU: it follows a container's CPU quota and
	// the GOMAXPROCS variable, which NumCPU ignores.
	return runtime.GOMAXPROCS(0)
}

// runMetadata is the key-value metadata of the run's part files.
func (m *Manifest) runMetadata(plan *Plan, opts RunOptions, start time.Time, workers int) map[string]string {
	// RunStartedKey and WorkersKey let an analysis state the run's wall
	// time (from this start to the session's last part file) and cores.
	meta := map[string]string{
		table.RunStartedKey:     start.UTC().Format(time.RFC3339Nano),
		table.WorkersKey:        strconv.Itoa(workers),
		"sweep.host_cpus":       strconv.Itoa(runtime.NumCPU()),
		"sweep.manifest_sha256": m.Hash(),
		"sweep.tool_version":    opts.Version,
		"sweep.model_version":   m.models.Versions(),
		table.ModelsKey:         strings.Join(m.ModelNames(), ","),
		"sweep.experiment":      m.Experiment,
		"sweep.shard":           opts.Shard.Label(),
	}
	for name, canon := range m.PolicyEntries() {
		meta["sweep.policy."+name] = canon
	}
	for named, sum := range m.inputs.hashes() {
		meta[inputKeyPrefix+named] = sum
	}
	for _, t := range plan.Traces {
		meta["sweep.trace_report."+t.Workload] = t.Report
	}
	return meta
}

// A cellRun is the cells of a run being simulated by its workers and
// written, with the workers' tallies.
type cellRun struct {
	m      *Manifest
	opts   RunOptions
	layout *rowLayout
	cells  *dispatcher
	writer *writerPool

	done, failed, cellNanos, writerNanos atomic.Int64

	mu       sync.Mutex
	failures []FailedCell // the first firstFailures
}

// recordFailure keeps cell c's error if it is among the first failures.
func (r *cellRun) recordFailure(c Cell, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.failures) < firstFailures {
		r.failures = append(r.failures, FailedCell{Name: c.Name(), ID: c.ID, Shard: r.opts.Shard.Label(), Error: err.Error()})
	}
}

// reportProgress starts flushing the writers when due and reporting
// progress every half second, until the returned stop is called.
func (r *cellRun) reportProgress(ctx context.Context) (stop func()) {
	stopProgress := make(chan struct{})
	var progressDone sync.WaitGroup
	progressDone.Add(1)
	go func() {
		defer progressDone.Done()
		pprof.SetGoroutineLabels(phaseLabels(ctx, "progress"))
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopProgress:
				return
			case <-tick.C:
				r.writer.maybeFlush()
				if r.opts.Progress != nil {
					r.opts.Progress.Update(int(r.done.Load()), int(r.failed.Load()))
				}
			}
		}
	}()
	return func() {
		close(stopProgress)
		progressDone.Wait()
	}
}

// runCells simulates and writes the cells on workers goroutines until
// every cell is done, ctx is done, or a worker fails.
func (r *cellRun) runCells(ctx context.Context, workers int) error {
	g, gctx := errgroup.WithContext(ctx)
	defer context.AfterFunc(gctx, r.cells.Stop)()
	computing, writing := phaseLabels(gctx, "cell"), phaseLabels(gctx, "write")
	for range workers {
		g.Go(func() error {
			for {
				pprof.SetGoroutineLabels(computing)
				t, ok := r.cells.Next(gctx)
				if !ok {
					return nil // done, or stopped: what is left runs on resume
				}
				if interrupted, err := r.computeAndWrite(gctx, t, writing); interrupted || err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}

// computeAndWrite simulates one cell and writes its rows, or its failed row; it
// returns an error that stops the run: the writer's, or the cell's under
// FailFast. A cell interrupted by ctx writes nothing (it runs again on
// resume) and stops its worker.
func (r *cellRun) computeAndWrite(ctx context.Context, t task, writing context.Context) (interrupted bool, err error) {
	began := time.Now()
	row, children, err := runCell(ctx, r.m, r.layout, t, r.opts.beforeCell)
	computed := time.Now()
	r.cellNanos.Add(int64(t.PrepareTime + computed.Sub(began)))
	if err != nil && ctx.Err() != nil {
		return true, nil // interrupted, not failed
	}
	if err != nil {
		row, children = failedRow(r.m, t.Cell, err), nil
		r.failed.Add(1)
		r.recordFailure(t.Cell, err)
	}
	pprof.SetGoroutineLabels(writing)
	werr := r.writer.append(row, children...)
	r.writerNanos.Add(int64(time.Since(computed)))
	if werr != nil {
		return false, fmt.Errorf("writing results: %w", werr)
	}
	r.done.Add(1)
	if err != nil && r.opts.FailFast {
		return false, fmt.Errorf("cell %s failed: %w (--fail-fast)", t.Name(), err)
	}
	return false, nil
}

// summarise puts the workers' tallies into sum.
func (r *cellRun) summarise(sum *Summary) {
	sum.Ran, sum.Failed = int(r.done.Load()), int(r.failed.Load())
	sum.FirstFailures = r.failures
	sum.CellTime, sum.WriterTime = time.Duration(r.cellNanos.Load()), time.Duration(r.writerNanos.Load())
}

// phaseLabels returns ctx with the profile label phase=name.
func phaseLabels(ctx context.Context, name string) context.Context {
	return pprof.WithLabels(ctx, pprof.Labels("phase", name))
}
