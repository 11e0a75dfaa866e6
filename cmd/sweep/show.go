package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/gantt"
	"github.com/sweep-sched/sweep/engine"
	"github.com/sweep-sched/sweep/sweep"
)

// showOutput is the JSON object `sweep show` prints.
type showOutput struct {
	Cell      string               `json:"cell"`
	Name      string               `json:"name"`
	Metrics   grid.ScheduleMetrics `json:"metrics"`
	StoredRow string               `json:"stored_row"`
}

// runShow implements `sweep show DIR CELL`: it simulates one cell of a
// results directory again from its identity, checks that the metrics equal
// its stored row, and draws its schedule with --gantt.
func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ganttPath := fs.String("gantt", "", "draw the cell's schedule as an SVG Gantt chart into this file")
	ganttWindow := fs.String("gantt-window", "", "time window of the Gantt chart in ticks, FROM:TO (default: the whole schedule)")
	manifest := fs.String("manifest", "", "the manifest the run came from (default: DIR/manifest.yaml, its copy, whose relative paths are the original's; give another when the original has moved)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep show DIR CELL [--gantt out.svg] [--gantt-window FROM:TO] [--manifest M]")
		fmt.Fprintln(fs.Output(), "CELL is a cell id (cell_id in DIR/cells) or a name such as log-independent/i003/L1.2/burkimsher2013/random")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	bad := func(format string, a ...any) error { return usageError{fmt.Errorf("sweep show: "+format, a...)} }
	if fs.NArg() != 2 {
		return bad("want DIR and CELL, the results directory of a `sweep run` and one of its cells (got %d arguments)", fs.NArg())
	}
	dir, key := fs.Arg(0), fs.Arg(1)
	opts := gantt.Options{}
	if *ganttWindow != "" {
		if *ganttPath == "" {
			return bad("--gantt-window needs --gantt")
		}
		var err error
		if opts.FromTick, opts.ToTick, err = parseTickWindow(*ganttWindow); err != nil {
			return bad("--gantt-window: %w", err)
		}
	}
	replayer, err := newReplayer(dir, *manifest)
	if err != nil {
		return err
	}
	cell, s, metrics, storedRow, err := replayer.replay(ctx, key)
	if err != nil {
		return err
	}
	out := showOutput{Cell: cell.ID, Name: cell.Name(), Metrics: metrics, StoredRow: storedRow}
	if *ganttPath != "" {
		opts.Title = fmt.Sprintf("%s (cell %s)", cell.Name(), cell.ID)
		if err := writeGantt(*ganttPath, s, opts, stderr); err != nil {
			return fmt.Errorf("sweep show: %w", err)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// replayer simulates cells of a results directory again.
type replayer struct {
	dir    string
	m      *sweep.Manifest
	stored []analysis.Cell
}

// newReplayer reads the results directory dir: its cells table and the
// manifest at manifestPath, or when that is empty the copy in dir.
func newReplayer(dir, manifestPath string) (*replayer, error) {
	if manifestPath == "" {
		manifestPath = filepath.Join(dir, "manifest.yaml")
	}
	m, err := sweep.LoadManifest(manifestPath, analysis.CheckSections)
	if err != nil {
		return nil, usageError{fmt.Errorf("sweep show: %w", err)}
	}
	stored, _, err := analysis.ReadCells(dir)
	if err != nil {
		return nil, usageError{fmt.Errorf("sweep show: %w", err)}
	}
	// The copy of the manifest does not record a --replicates given to
	// `sweep run`; the cells table does.
	replicates := m.ReplicateCount()
	for _, c := range stored {
		replicates = max(replicates, int(c.Replicate)+1)
	}
	if err := m.SetReplicates(replicates); err != nil {
		return nil, err
	}
	return &replayer{dir: dir, m: m, stored: stored}, nil
}

// replay simulates the cell whose id or name is key again and compares
// its metrics with its stored row: storedRow says how they compare, and a
// difference is an error.
func (p *replayer) replay(ctx context.Context, key string) (cell sweep.Cell, s *engine.Schedule, metrics grid.ScheduleMetrics, storedRow string, err error) {
	cell, err = p.m.FindCell(key)
	if err != nil {
		return cell, nil, metrics, "", usageError{fmt.Errorf("sweep show: %w", err)}
	}
	var row *analysis.Cell
	for i := range p.stored {
		// A retried cell has an old failed row beside its ok row.
		if c := &p.stored[i]; c.ID == cell.ID && (row == nil || row.Failed) {
			row = c
		}
	}
	s, metrics, err = p.m.Replay(ctx, cell)
	if err != nil {
		return cell, nil, metrics, "", fmt.Errorf("sweep show: %w", err)
	}
	switch {
	case row == nil:
		storedRow = "none: the cell has not run in " + p.dir
	case row.Failed:
		storedRow = "failed: " + row.Error
	default:
		if diffs := differences(row.Values, metrics); len(diffs) > 0 {
			return cell, nil, metrics, "", fmt.Errorf("sweep show: cell %s (%s): the replay differs from the stored row: %s", cell.ID, cell.Name(), strings.Join(diffs, "; "))
		}
		storedRow = fmt.Sprintf("equal: all %d metrics", len(grid.MetricColumns()))
	}
	return cell, s, metrics, storedRow, nil
}

// differences lists the metrics of a replay that differ from a stored
// row's values (in MetricColumns order; NaN stands for null).
func differences(stored []float64, metrics grid.ScheduleMetrics) []string {
	var diffs []string
	for i, col := range grid.MetricColumns() {
		got := col.Float(&metrics)
		if col.Integer {
			got = float64(col.Int(&metrics))
		}
		want := stored[i]
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			diffs = append(diffs, fmt.Sprintf("%s %v, stored %v", col.Name, got, want))
		}
	}
	return diffs
}
