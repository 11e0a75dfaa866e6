package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/internal/suggest"
	"github.com/sweep-sched/sweep/model"
)

// exportFormats are the schedule formats `sweep export` writes.
var exportFormats = []string{"swf", "batsim-csv", "json"}

// runExport implements `sweep export DIR CELL --format F [-o FILE]
// [--measured]`: it simulates one cell of a results directory again (as
// show does, checked against its stored row) and writes its schedule;
// --measured leaves out a trace month's warm-up and cool-down jobs.
func (a *app) runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "swf", "schedule format: "+strings.Join(exportFormats, ", "))
	out := fs.String("o", "", "output file (default: standard output)")
	manifest := fs.String("manifest", "", "the manifest the run came from (default: DIR/manifest.yaml)")
	measured := fs.Bool("measured", false, "only the measured jobs: leave out a trace month's warm-up and cool-down jobs (they keep the processors they held)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep export DIR CELL [--format swf|batsim-csv|json] [-o FILE] [--manifest M] [--measured]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	bad := func(format string, a ...any) error { return usageError{fmt.Errorf("sweep export: "+format, a...)} }
	if fs.NArg() != 2 {
		return bad("want DIR and CELL, the results directory of a `sweep run` and one of its cells (got %d arguments)", fs.NArg())
	}
	if !slices.Contains(exportFormats, *format) {
		return bad("--format %q: want one of %s%s", *format, strings.Join(exportFormats, ", "), suggest.DidYouMean(*format, exportFormats))
	}
	replayer, err := a.newReplayer("export", fs.Arg(0), *manifest)
	if err != nil {
		return err
	}
	cell, replayed, _, err := replayer.replay(ctx, fs.Arg(1))
	if err != nil {
		return err
	}
	return writeChosenExport(replayed.Outcome, replayer.m.ModelOf(cell), exportChoice{format: *format, path: *out, measured: *measured}, stdout)
}

// exportChoice is what `sweep export` (or `sweep simulate --export`) is
// asked to write: the format, the file (stdout when empty), and whether
// only the measured jobs.
type exportChoice struct {
	format, path string
	measured     bool
}

// writeExport writes an outcome's schedule, every job, in format to the
// file path, or to stdout when path is empty.
func writeExport(outcome model.Outcome, md model.Model, format, path string, stdout io.Writer) error {
	return writeChosenExport(outcome, md, exportChoice{format: format, path: path}, stdout)
}

// writeChosenExport writes an outcome's schedule as chosen.
func writeChosenExport(outcome model.Outcome, md model.Model, c exportChoice, stdout io.Writer) error {
	e, ok := outcome.(model.Exporter)
	if !ok {
		return usageError{fmt.Errorf("sweep export: %s schedules cannot be exported yet: the model's outcomes have no ExportSchedule", md.Name())}
	}
	s, err := e.ExportSchedule()
	if err != nil {
		return fmt.Errorf("sweep export: %w", err)
	}
	if c.measured {
		// Placed first: the warm-up jobs left out held processors.
		if s, err = s.Placed(); err == nil {
			s, err = s.Measured()
		}
		if err != nil {
			return fmt.Errorf("sweep export: --measured: %w", err)
		}
	}
	format, path := c.format, c.path
	w := stdout
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("sweep export: %w", err)
		}
		defer f.Close()
		w = f
	}
	switch format {
	case "swf":
		err = export.WriteSWF(w, s)
	case "batsim-csv":
		err = export.WriteBatsimCSV(w, s)
	default:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(s)
	}
	if err != nil {
		return fmt.Errorf("sweep export: %w", err)
	}
	if f, ok := w.(*os.File); ok && path != "" {
		return f.Close()
	}
	return nil
}
