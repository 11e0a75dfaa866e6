package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/report/gantt"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/sweep"
)

// showOutput is the JSON object `sweep show` prints.
type showOutput struct {
	Cell  string `json:"cell"`
	Name  string `json:"name"`
	Model string `json:"model"`
	// Metrics are the cell's measures, in its model's column order.
	Metrics   measures `json:"metrics"`
	StoredRow string   `json:"stored_row"`
}

// measures are named values that encode as one JSON object in their
// order; NaN and infinities (undefined measures) encode as null.
type measures struct {
	names  []string
	values []store.Value
}

func (m measures) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, name := range m.names {
		if i > 0 {
			out = append(out, ',')
		}
		key, _ := json.Marshal(name)
		out = append(out, key...)
		out = append(out, ':')
		v := m.values[i].Any()
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			v = nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return append(out, '}'), nil
}

// UnmarshalJSON reads the names back, in order, with their values as
// float64 (tests read show's output).
func (m *measures) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		var v *float64
		if err := dec.Decode(&v); err != nil {
			return err
		}
		m.names = append(m.names, key.(string))
		if v == nil {
			m.values = append(m.values, store.Null())
		} else {
			m.values = append(m.values, store.Float64(*v))
		}
	}
	return nil
}

// runShow implements `sweep show DIR CELL`: it simulates one cell of a
// results directory again from its identity, checks that the metrics equal
// its stored row, and draws its schedule with --gantt.
func (a *app) runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	replayer, err := a.newReplayer("show", dir, *manifest)
	if err != nil {
		return err
	}
	cell, replayed, storedRow, err := replayer.replay(ctx, key)
	if err != nil {
		return err
	}
	out := showOutput{Cell: cell.ID, Name: cell.Name(), Model: replayer.m.ModelOf(cell).Name(), StoredRow: storedRow,
		Metrics: measures{names: measureNames(replayed.Measures), values: replayed.Measured.Values}}
	if *ganttPath != "" {
		charted, ok := replayed.Outcome.(model.Charted)
		if !ok {
			return usageError{fmt.Errorf("sweep show: --gantt: cell %s is a %s cell, whose schedule has no Gantt chart yet", cell.Name(), out.Model)}
		}
		opts.Title = fmt.Sprintf("%s (cell %s)", cell.Name(), cell.ID)
		if err := writeGantt(*ganttPath, charted.Gantt(), opts, stderr); err != nil {
			return fmt.Errorf("sweep show: %w", err)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func measureNames(ms []table.Measure) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}

// replayer simulates cells of a results directory again for the command
// cmd (show, export, report), which prefixes its errors.
type replayer struct {
	cmd string
	dir string
	m   *sweep.Manifest
}

// newReplayer reads the manifest of the results directory dir: the one at
// manifestPath, or when that is empty the copy in dir.
func (a *app) newReplayer(cmd, dir, manifestPath string) (*replayer, error) {
	m, err := a.runManifest(dir, manifestPath)
	if err != nil {
		return nil, usageError{fmt.Errorf("sweep %s: %w", cmd, err)}
	}
	return &replayer{cmd: cmd, dir: dir, m: m}, nil
}

// runManifest loads the manifest of the results directory dir (its copy,
// unless manifestPath names another) with the replicates the run had:
// the copy does not record a --replicates given to `sweep run`, the cells
// table does.
func (a *app) runManifest(dir, manifestPath string) (*sweep.Manifest, error) {
	if manifestPath == "" {
		manifestPath = filepath.Join(dir, "manifest.yaml")
	}
	m, err := a.loadManifest(manifestPath)
	if err != nil {
		return nil, err
	}
	reps, _, err := parquet.ReadColumns(dir, table.Cells, []string{table.Replicate})
	if err != nil {
		return nil, err
	}
	replicates := m.ReplicateCount()
	if reps != nil {
		for _, r := range reps.Columns[0].Int64s {
			replicates = max(replicates, int(r)+1)
		}
	}
	if err := m.SetReplicates(replicates); err != nil {
		return nil, err
	}
	return m, nil
}

// replay simulates the cell whose id or name is key again and compares
// its measures with its stored row: storedRow says how they compare, and
// a difference is an error.
func (p *replayer) replay(ctx context.Context, key string) (cell sweep.Cell, replayed *sweep.Replayed, storedRow string, err error) {
	cell, err = p.m.FindCell(key)
	if err != nil {
		return cell, nil, "", usageError{fmt.Errorf("sweep %s: %w", p.cmd, err)}
	}
	replayed, err = p.m.Replay(ctx, cell)
	if err != nil {
		return cell, nil, "", fmt.Errorf("sweep %s: %w", p.cmd, err)
	}
	names := measureNames(replayed.Measures)
	stored, _, err := parquet.ReadColumns(p.dir, table.Cells, append([]string{table.CellID, table.Status, table.Error}, names...))
	if err != nil {
		return cell, nil, "", fmt.Errorf("sweep %s: reading %s: %w", p.cmd, p.dir, err)
	}
	row := -1
	if stored != nil {
		for i, id := range stored.Columns[0].Strings {
			// A retried cell has an old failed row beside its ok row.
			if id == cell.ID && (row < 0 || stored.Columns[1].Strings[row] != table.StatusOK) {
				row = i
			}
		}
	}
	switch {
	case row < 0:
		storedRow = "none: the cell has not run in " + p.dir
	case stored.Columns[1].Strings[row] != table.StatusOK:
		storedRow = "failed: " + stored.Columns[2].Strings[row]
	default:
		var want []store.Value
		for c := range names {
			want = append(want, stored.Columns[3+c].Value(row))
		}
		if diffs := differences(replayed.Measures, replayed.Measured.Values, want); len(diffs) > 0 {
			return cell, nil, "", fmt.Errorf("sweep %s: cell %s (%s): the replay differs from the stored row: %s", p.cmd, cell.ID, cell.Name(), strings.Join(diffs, "; "))
		}
		storedRow = fmt.Sprintf("equal: all %d measures", len(names)-timingCount(replayed.Measures))
	}
	return cell, replayed, storedRow, nil
}

// differences lists the measures of a replay that differ from a stored
// row's; timing measures (wall-clock) are not compared.
func differences(ms []table.Measure, got, stored []store.Value) []string {
	var diffs []string
	for i, m := range ms {
		if !m.Timing && !got[i].Equal(stored[i]) {
			diffs = append(diffs, fmt.Sprintf("%s %v, stored %v", m.Name, got[i], stored[i]))
		}
	}
	return diffs
}

func timingCount(ms []table.Measure) int {
	n := 0
	for _, m := range ms {
		if m.Timing {
			n++
		}
	}
	return n
}
