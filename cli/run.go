package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/sweep-sched/sweep/sweep"
)

// version is the tool version written into results; the Makefile sets it
// from git with -ldflags "-X github.com/sweep-sched/sweep/cli.version=...", which covers builds
// that carry no VCS information (a copy without .git, -buildvcs=false).
var version = ""

// toolVersion returns the stamped version, else the module version Go
// recorded, else the VCS revision Go recorded ("devel+<revision>", with
// "-dirty" for uncommitted changes), else "dev".
func toolVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	var revision, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			revision = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if revision == "" {
		return "dev"
	}
	return "devel+" + revision[:min(12, len(revision))] + dirty
}

// manifestArg loads the one manifest named on the command line.
func (a *app) manifestArg(fs *flag.FlagSet, name string) (*sweep.Manifest, error) {
	if fs.NArg() != 1 {
		return nil, usageError{fmt.Errorf("sweep %s: want exactly one manifest, e.g. experiments/burkimsher2013.yaml (got %d arguments)", name, fs.NArg())}
	}
	m, err := a.loadManifest(fs.Arg(0))
	if err != nil {
		return nil, usageError{err}
	}
	return m, nil
}

// runPlan implements `sweep plan M`.
func (a *app) runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sweep plan M [--out DIR] [--shard i/n] [--replicates K] [--retry-failed]", manifestNote)
	out := fs.String("out", "", "results directory (default results/<experiment>)")
	shard := fs.String("shard", "", "plan only shard i/n")
	retry := fs.Bool("retry-failed", false, "count failed cells as to run")
	replicates := addReplicatesFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	m, err := a.manifestArg(fs, "plan")
	if err != nil {
		return err
	}
	if err := setReplicates(m, "plan", *replicates); err != nil {
		return err
	}
	sh, err := optionalShard(*shard)
	if err != nil {
		return err
	}
	p, err := m.Plan(m.OutDir(*out), sh, *retry)
	if err != nil {
		return changedIsBadInput(err)
	}
	if err := m.ProbePolicies(ctx, p.ToRun); err != nil {
		return changedIsBadInput(err)
	}
	p.Write(stdout)
	return nil
}

// changedIsBadInput makes a results directory that holds cells of other
// settings, that a run of another manifest is writing, or whose external
// policy cannot start, bad input (exit 2): the manifest or --out must
// change.
func changedIsBadInput(err error) error {
	var changed *sweep.ChangedError
	var inUse *sweep.InUseError
	var probe *sweep.ProbeError
	if errors.As(err, &changed) || errors.As(err, &inUse) || errors.As(err, &probe) {
		return usageError{err}
	}
	return err
}

func addReplicatesFlag(fs *flag.FlagSet) *int {
	return fs.Int("replicates", 0, "run the experiment under this many root seeds, an axis of cells (default: the manifest's replicates, else 1)")
}

// setReplicates applies a --replicates flag (0: not given) to m.
func setReplicates(m *sweep.Manifest, name string, k int) error {
	if k == 0 {
		return nil
	}
	if err := m.SetReplicates(k); err != nil {
		return usageError{fmt.Errorf("sweep %s: --%w", name, err)}
	}
	return nil
}

func optionalShard(s string) (sweep.Shard, error) {
	if s == "" {
		return sweep.Shard{}, nil
	}
	sh, err := sweep.ParseShard(s)
	if err != nil {
		return sh, usageError{err}
	}
	return sh, nil
}

// manifestNote says what a command's argument M is.
const manifestNote = "M is the experiment's manifest (YAML), e.g. experiments/burkimsher2013.yaml."

// gcPercent is sweep run's garbage-collection target (see runRun).
const gcPercent = 300

// runRun implements `sweep run M`.
func (a *app) runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sweep run M [-j N] [--out DIR] [--shard i/n] [--replicates K] [--fail-fast] [--retry-failed]", manifestNote)
	jobs := fs.Int("j", 0, "cells simulated at once (default: every core the process may use, runtime.GOMAXPROCS)")
	out := fs.String("out", "", "results directory (default results/<experiment>)")
	shard := fs.String("shard", "", "run only shard i/n of the cells (1 <= i <= n)")
	failFast := fs.Bool("fail-fast", false, "stop launching cells at the first failure")
	retry := fs.Bool("retry-failed", false, "run again the cells recorded as failed")
	replicates := addReplicatesFlag(fs)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run into this file (go tool pprof reads it)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return usageError{fmt.Errorf("sweep run: --cpuprofile: %w", err)}
		}
		defer stop()
	}
	loading := time.Now()
	var m *sweep.Manifest
	var err error
	// Labelled as sweep.Run labels its phases: reading the manifest and
	// its traces is serial too.
	pprof.Do(ctx, pprof.Labels("phase", "manifest"), func(context.Context) { m, err = a.manifestArg(fs, "run") })
	if err != nil {
		return err
	}
	loaded := time.Since(loading)
	if err := setReplicates(m, "run", *replicates); err != nil {
		return err
	}
	if *jobs < 0 {
		return usageError{fmt.Errorf("sweep run: -j %d: want >= 1 (or 0 for every core)", *jobs)}
	}
	sh, err := optionalShard(*shard)
	if err != nil {
		return err
	}
	if os.Getenv("GOGC") == "" {
		// A run allocates rows at a high rate over a small live heap, so
		// the collector's default pacing (GOGC 100) takes a tenth of the
		// CPU. 400 cut that to about 2% for about twice the peak memory
		// (seed 004 at -j 2: 199 instead of 180 cells/s, 269 instead of
		// 129 MiB). Since job rows are written as columns a run makes
		// less garbage, and 300 costs no measurable CPU against 400
		// (seed 004, back to back: 44.0 and 43.7 s) for 259 instead of
		// 294 MB. GOGC in the environment still decides.
		debug.SetGCPercent(gcPercent)
	}
	var progress sweep.Progress = &lineProgress{w: stderr, every: 10 * time.Second}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		progress = &barProgress{w: stderr}
	}
	sum, err := sweep.Run(ctx, m, sweep.RunOptions{
		Out: *out, Jobs: *jobs, Shard: sh, FailFast: *failFast, RetryFailed: *retry,
		Version: toolVersion(), Progress: progress, Planned: func(p *sweep.Plan) { printTraceReports(stderr, p) },
		Waiting: func(msg string) { fmt.Fprintln(stderr, "sweep run:", msg) },
	})
	for _, w := range sum.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if err != nil {
		return changedIsBadInput(err)
	}
	fmt.Fprintf(stdout, "%s: %d cells in the manifest, %d in this shard, %d already done, %d ran (%d failed) in %s",
		m.Experiment, sum.Cells, sum.InShard, sum.AlreadyDone, sum.Ran, sum.Failed, sum.Wall.Round(time.Millisecond))
	if sum.Ran > 0 {
		fmt.Fprintf(stdout, ", %.1f cells/s", float64(sum.Ran)/sum.Wall.Seconds())
		busy := sum.CellTime + sum.WriterTime
		fmt.Fprintf(stdout, "\nworkers: %d, %s computing cells, %s in the writer (%.2f%% of their time)",
			sum.Workers, sum.CellTime.Round(time.Millisecond), sum.WriterTime.Round(time.Millisecond),
			100*sum.WriterTime.Seconds()/busy.Seconds())
		// What no worker shares: Amdahl's serial fraction, of the time one
		// worker would take.
		serial := loaded + sum.Setup + sum.Close
		fmt.Fprintf(stdout, "\nserial: %s (manifest and traces %s, before the first cell %s, after the last %s), %.2f%% of serial + worker time",
			serial.Round(time.Millisecond), loaded.Round(time.Millisecond), sum.Setup.Round(time.Millisecond), sum.Close.Round(time.Millisecond),
			100*serial.Seconds()/(serial+busy).Seconds())
		fmt.Fprintf(stdout, "\nCPU: %s (sweep %s, child processes such as external policies %s)",
			(sum.SweepCPU + sum.ChildrenCPU).Round(time.Millisecond), sum.SweepCPU.Round(time.Millisecond), sum.ChildrenCPU.Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "\nresults: %s\n", filepath.Join(sum.Out, "cells"))
	if len(sum.FirstFailures) > 0 {
		fmt.Fprintf(stderr, "the first %d failed cells (sweep status %s lists them all):\n", len(sum.FirstFailures), sum.Out)
		sweep.WriteFailedCells(stderr, sum.FirstFailures)
	}
	if err := sum.Err(); err != nil {
		if sum.Interrupted {
			return fmt.Errorf("%v\nresume with: %s", err, typedCommand(os.Args[0], "run", args))
		}
		return err
	}
	return nil
}

// printTraceReports prints what reading the traces dropped and repaired,
// once per run: on its first session (no cell done yet), not on every
// resume; the reports stay in the part files' metadata and `sweep plan`
// shows them.
func printTraceReports(w io.Writer, p *sweep.Plan) {
	if p.Done > 0 || p.Failed > 0 {
		return
	}
	for _, t := range p.Traces {
		fmt.Fprintf(w, "trace workload %s: %s", t.Workload, t.Report)
	}
}

// typedCommand returns the command line as the user typed it, binary
// path included (bin/sweep, ./sweep), quoted for a POSIX shell where an
// argument needs it, so that it can be pasted back.
func typedCommand(binary, name string, args []string) string {
	words := []string{shellQuote(binary), name}
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}

// shellQuote returns s unchanged when a POSIX shell reads it as one word
// as it is, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// barProgress draws a progress bar on a terminal.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("cells"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("cells"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionFullWidth(),
	)
}

func (p *barProgress) Update(done, failed int) {
	if failed > 0 {
		p.bar.Describe(fmt.Sprintf("cells (%d failed)", failed))
	}
	_ = p.bar.Set(done)
}

func (p *barProgress) Finish(done, failed int) {
	p.Update(done, failed)
	fmt.Fprintln(p.w)
}

// lineProgress prints a plain line every so often, for logs and batch jobs.
type lineProgress struct {
	w     io.Writer
	every time.Duration
	total int
	start time.Time
	last  time.Time
}

func (p *lineProgress) Start(total int) {
	p.total, p.start, p.last = total, time.Now(), time.Now()
	fmt.Fprintf(p.w, "sweep: %d cells to run\n", total)
}

func (p *lineProgress) Update(done, failed int) {
	if time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	p.line(done, failed)
}

func (p *lineProgress) line(done, failed int) {
	elapsed := time.Since(p.start)
	rate := float64(done) / elapsed.Seconds()
	eta := "?"
	if rate > 0 {
		eta = time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "sweep: %d/%d cells (%.1f%%), %.1f cells/s, ETA %s, %d failed\n",
		done, p.total, 100*float64(done)/float64(max(p.total, 1)), rate, eta, failed)
}

func (p *lineProgress) Finish(done, failed int) { p.line(done, failed) }
