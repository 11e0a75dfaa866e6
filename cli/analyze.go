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
	"strconv"

	"github.com/sweep-sched/sweep/analysis"
)

// analysisFlags are the flags `sweep analyze` and `sweep report` share; they
// override the manifest's analysis section.
type analysisFlags struct {
	reference *string
	alpha     *float64
	base      *int64
	adjust    *string
}

func addAnalysisFlags(fs *flag.FlagSet) analysisFlags {
	return analysisFlags{
		reference: fs.String("reference", "", "reference policy (default: the manifest's analysis.reference, else "+analysis.DefaultReference+")"),
		alpha:     fs.Float64("alpha", 0, "significance level (default: the manifest's analysis.alpha, else 0.05)"),
		base:      fs.Int64("base", -1, "fixed cumulative-completion base in ticks (default: each pair group's largest makespan)"),
		adjust:    fs.String("adjust", "", "multiple-comparison adjustment of each table's p-values: "+analysis.AdjustNone+" or "+analysis.AdjustHolm+" (default: the manifest's analysis.adjust, else none)"),
	}
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

// analyzeRun reads the results directory dir (with its manifest.yaml when
// present) and analyses it; note receives remarks for the user.
func analyzeRun(name, dir string, flags analysisFlags, note io.Writer) (*analysis.Result, analysis.Expectations, error) {
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
		settings, expect, err = analysis.ParseManifestSections(data, manifest)
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
	r, err := analysis.Analyze(dir, settings)
	if errors.Is(err, analysis.ErrNoCells) {
		return nil, expect, usageError{fmt.Errorf("%s: %w; cells/*.parquet is empty or missing: run `sweep run` first", name, err)}
	}
	if err != nil {
		return nil, expect, fmt.Errorf("%s: %w", name, err)
	}
	return r, expect, nil
}

// runAnalyze implements `sweep analyze DIR`: it writes DIR/analysis/*.parquet
// and prints seed 004's tables beside the paper's values.
func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := addAnalysisFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep analyze DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm]")
		fs.PrintDefaults()
	}
	dir, err := parseDirArgs(fs, args)
	if err != nil {
		return err
	}
	if analysis.IsFairShareRun(dir) {
		// Seed 003's cells carry per-month fair-share measures, which its
		// own tables compare with the paper rather than paired tests.
		r, err := analysis.AnalyzeFairShare(dir)
		if err != nil {
			return fmt.Errorf("sweep analyze: %w", err)
		}
		return analysis.PrintFairShare(stdout, r)
	}
	if m, err := analysis.AnalyzeMoldable(dir); err == nil {
		return printMoldable(dir, m, stdout)
	} else if !errors.Is(err, analysis.ErrNotMoldable) {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	r, expect, err := analyzeRun("sweep analyze", dir, flags, stderr)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	metadata := map[string]string{
		"analysis.reference": r.Settings.Reference,
		"analysis.alpha":     strconv.FormatFloat(r.Settings.Alpha, 'g', -1, 64),
		"analysis.adjust":    r.Settings.Adjust,
	}
	if r.Settings.BaseTicks != nil {
		metadata["analysis.base"] = strconv.FormatInt(*r.Settings.BaseTicks, 10)
	}
	paths, err := analysis.WriteTables(dir, r, expect, metadata)
	if err != nil {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	if err := analysis.Print(stdout, r, expect); err != nil {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	fmt.Fprintln(stdout)
	for _, path := range paths {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return nil
}

// printMoldable writes and prints the analysis of a moldable-task run
// (seed 002): ratios per workload, n and algorithm, and the paper's claims.
func printMoldable(dir string, r *analysis.MoldableResult, stdout io.Writer) error {
	paths, err := analysis.WriteMoldable(dir, r, nil)
	if err != nil {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	if err := analysis.PrintMoldable(stdout, r); err != nil {
		return fmt.Errorf("sweep analyze: %w", err)
	}
	fmt.Fprintln(stdout)
	for _, path := range paths {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return nil
}
