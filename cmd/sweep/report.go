package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/sweep-sched/sweep/analysis/report"
)

// runReport implements `sweep report DIR`: it analyses the run (as `sweep
// analyze` does, without writing Parquet) and writes DIR/report/index.html.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := addAnalysisFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep report DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm]")
		fs.PrintDefaults()
	}
	dir, err := parseDirArgs(fs, args)
	if err != nil {
		return err
	}
	r, expect, err := analyzeRun("sweep report", dir, flags, stderr)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	path, err := report.Write(dir, r, expect)
	if err != nil {
		return fmt.Errorf("sweep report: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}
