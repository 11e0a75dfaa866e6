package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/report"
	"github.com/sweep-sched/sweep/store/table"
)

// analysisFlags are the flags `sweep analyze` and `sweep report` share; they
// override the manifest's analysis section.
type analysisFlags struct {
	reference *string
	alpha     *float64
	base      *int64
	adjust    *string
	partial   *bool
	// out is where analyze writes analysis/ and report writes report/;
	// "" beside the results.
	out *string
	// cpuProfile names the file that receives a CPU profile of the
	// command, as `sweep run --cpuprofile` does.
	cpuProfile *string
}

func addAnalysisFlags(fs *flag.FlagSet) analysisFlags {
	return analysisFlags{
		reference:  fs.String("reference", "", "reference policy (default: the manifest's analysis.reference, else "+analysis.DefaultReference+")"),
		alpha:      fs.Float64("alpha", 0, "significance level (default: the manifest's analysis.alpha, else 0.05)"),
		base:       fs.Int64("base", -1, "fixed cumulative-completion base in ticks (default: each pair group's largest makespan)"),
		adjust:     fs.String("adjust", "", "multiple-comparison adjustment of each table's p-values: "+analysis.AdjustNone+" or "+analysis.AdjustHolm+" (default: the manifest's analysis.adjust, else none)"),
		partial:    fs.Bool("partial", false, "analyse an unfinished run (cells of the manifest not done); every output then says partial and names the incomplete workloads"),
		cpuProfile: fs.String("cpuprofile", "", "write a CPU profile of the command into this file (go tool pprof reads it)"),
		out:        fs.String("out", "", "write the output folder (analysis/ or report/) into this directory instead of the results directory, which may then be read-only"),
	}
}

// outDir is the directory that receives the command's output folder for
// the results directory dir: --out, else dir.
func (f analysisFlags) outDir(dir string) string {
	if *f.out != "" {
		return *f.out
	}
	return dir
}

// profile starts the CPU profile that --cpuprofile asks for; the returned
// function stops it (it does nothing without the flag).
func (f analysisFlags) profile(name string) (stop func(), err error) {
	if *f.cpuProfile == "" {
		return func() {}, nil
	}
	stop, err = startCPUProfile(*f.cpuProfile)
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: --cpuprofile: %w", name, err)}
	}
	return stop, nil
}

// parseDirArgs parses flags given before or after the one DIR argument.
func parseDirArgs(fs *flag.FlagSet, args []string) (string, error) {
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() == 0 {
		return "", usageError{fmt.Errorf("%s: missing DIR, the results directory of a `sweep run`", fs.Name())}
	}
	if fs.NArg() > 1 {
		return "", usageError{fmt.Errorf("%s: unexpected arguments %q after DIR", fs.Name(), fs.Args()[1:])}
	}
	return fs.Arg(0), nil
}

// compareRun reads the results directory dir (with its manifest.yaml when
// present, whose expect section names measures among known) and compares
// its cells across policies on measures; note receives remarks for the
// user.
func compareRun(name, dir string, flags analysisFlags, note io.Writer, measures analysis.Measures, known []table.Measure) (*analysis.Result, analysis.Expectations, error) {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil, analysis.Expectations{}, usageError{fmt.Errorf("%s: %s is not a directory; give the results directory of a `sweep run`", name, dir)}
	}
	settings, expect := analysis.Settings{}, analysis.Expectations{}
	manifest := filepath.Join(dir, "manifest.yaml")
	data, err := os.ReadFile(manifest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(note, "%s: no %s, so no paper values to compare with\n", name, manifest)
	case err != nil:
		return nil, expect, fmt.Errorf("%s: %w", name, err)
	default:
		settings, expect, err = analysis.ParseManifestSections(data, manifest, known...)
		if err != nil {
			return nil, expect, usageError{fmt.Errorf("%s: %w", name, err)}
		}
	}
	if *flags.reference != "" {
		settings.Reference = *flags.reference
	}
	if *flags.alpha != 0 {
		settings.Alpha = *flags.alpha
	}
	if *flags.base >= 0 {
		settings.BaseTicks = flags.base
	}
	if *flags.adjust != "" {
		settings.Adjust = *flags.adjust
	}
	if err := settings.WithDefaults().Validate(); err != nil {
		return nil, expect, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	r, err := analysis.Analyze(dir, settings, measures)
	if errors.Is(err, analysis.ErrNoCells) {
		return nil, expect, usageError{fmt.Errorf("%s: %w; cells/*.parquet is empty or missing: run `sweep run` first", name, err)}
	}
	if err != nil {
		return nil, expect, fmt.Errorf("%s: %w", name, err)
	}
	return r, expect, nil
}

// runAnalyze implements `sweep analyze DIR`: it runs the analysis of every
// model of the run, writes DIR/analysis/*.parquet and prints the papers'
// tables beside their values.
func (a *app) runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := addAnalysisFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep analyze DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm] [--partial] [--out DIR2]")
		fs.PrintDefaults()
	}
	dir, err := parseDirArgs(fs, args)
	if err != nil {
		return err
	}
	stop, err := flags.profile("sweep analyze")
	if err != nil {
		return err
	}
	defer stop()
	run, err := a.analyzeModels(ctx, "sweep analyze", dir, flags, stderr)
	if err != nil {
		return err
	}
	claims, err := runClaims(run)
	if err != nil {
		return err
	}
	var tables []analysis.Table
	writes := false
	for _, s := range run.Sections() {
		if t := s.Tables(); t != nil {
			tables, writes = append(tables, t...), true
		}
	}
	if len(claims) > 0 {
		tables, writes = append(tables, fidelity.Table(claims)), true
	}
	var paths []string
	if writes {
		if paths, err = analysis.WriteDir(flags.outDir(dir), run.Provenance.WithMetadata(tables)); err != nil {
			return fmt.Errorf("sweep analyze: %w", err)
		}
	}
	if err := report.PrintProvenance(stdout, run.Provenance); err != nil {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	for _, s := range run.Sections() {
		fmt.Fprintln(stdout)
		if err := s.Print(stdout); err != nil {
			return fmt.Errorf("sweep analyze: %w", err)
		}
	}
	if len(claims) > 0 {
		fmt.Fprintln(stdout)
		if err := report.PrintClaims(stdout, claims); err != nil {
			return fmt.Errorf("sweep analyze: %w", err)
		}
	}
	if writes {
		fmt.Fprintln(stdout)
	}
	for _, path := range paths {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return nil
}
