package sweep

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// DefaultStatusWindow is how far back Status looks for the recent rate.
const DefaultStatusWindow = 10 * time.Minute

// A Status is how far a results directory has come, read from its part
// files alone while shards may still be writing.
type Status struct {
	Out string
	// Total is the manifest's cell count; 0 without a manifest, when
	// Remaining and the ETA are unknown.
	Total     int
	Done      int // cells with an ok row
	Failed    int // cells with a failed row and no ok row
	Remaining int
	Shards    []ShardStatus
	// FailedCells are the failed cells in manifest order (name order
	// without a manifest).
	FailedCells []FailedCell
	// Rate is the cells published per second over Window (see Status).
	Rate   float64
	Window time.Duration
	// ETA is Remaining at Rate; HasETA is false when the rate is zero or
	// unknown.
	ETA      time.Duration
	HasETA   bool
	Problems []parquet.Problem
	// Running are the runs writing the directory now, as their sessions
	// say.
	Running []parquet.Owner
}

// A ShardStatus is one shard's part of a Status. Cells counts the shard's
// cells in the manifest, Done and Failed those with a row from any writer.
type ShardStatus struct {
	Label                          string // as in part files: "s02of08", or "all"
	Cells, Done, Failed, Remaining int
	Parts                          int       // cells parts this shard's writers published
	LastActivity                   time.Time // newest of those parts; zero when none
}

// A FailedCell is a cell whose only rows are failed ones.
type FailedCell struct {
	Name, ID, Shard string
	Error           string // of its last failed row in part order
}

// Status reads the cells parts of the results directory out and reports
// per shard and in total the cells done, failed and remaining, each
// shard's latest publication, the failed cells and their errors, and an
// ETA from the recent rate. m may be nil (then totals are unknown).
//
// The rate is the sum of the shards' rates. A shard's rate counts the rows
// it published after its origin, divided by the time from the origin to
// now: the origin is its newest publication at least window before now, or
// its first publication when it started later (whose rows took an unknown
// time to compute and are not counted; a shard with one publication has no
// rate yet). Per shard, because shards start at different times and
// publish every few seconds each: pooled, two shards' first parts a moment
// apart would look like a burst. Using now, not the newest publication,
// lets the rate fall when shards stall.
// Shards are listed per shard count seen in part metadata, every shard of
// it even before it has published.
func ReadStatus(out string, m *Manifest, now time.Time, window time.Duration) (*Status, error) {
	if window <= 0 {
		window = DefaultStatusWindow
	}
	pub, problems, err := readPublished(out)
	if err != nil {
		return nil, err
	}
	children, err := childTablesIn(out)
	if err != nil {
		return nil, err
	}
	childProblems, err := tableProblems(out, children)
	if err != nil {
		return nil, err
	}
	running, err := parquet.LiveSessions(out)
	if err != nil {
		return nil, err
	}
	st := &Status{Out: out, Window: window, Problems: append(problems, childProblems...), Running: running}
	var cells []Cell
	if m != nil {
		cells = m.Cells()
		st.Total = len(cells)
	}
	for _, label := range shardLabels(pub.parts) {
		st.Shards = append(st.Shards, pub.shardStatus(label, m, cells))
	}
	if m != nil {
		st.countManifestCells(pub, cells)
	} else {
		st.countSettledCells(pub)
	}
	for _, shardEvents := range pub.events {
		st.Rate += recentRate(shardEvents, now, window)
	}
	if m != nil && st.Rate > 0 {
		st.ETA = time.Duration(float64(st.Remaining) / st.Rate * float64(time.Second))
		st.HasETA = true
	}
	return st, nil
}

// published is what the cells parts of a results directory say: the row
// that settles each cell, and per writer (shard label) its parts, its
// newest publication and each part's time and rows.
type published struct {
	cells  map[string]*settledRow // by cell id
	parts  map[string]int
	last   map[string]time.Time
	events map[string][]publication
}

// A settledRow is the row that settles a cell: its first ok row, or else
// its last failed one in part order.
type settledRow struct {
	status, err, label string
	name               string
}

// cellColumns are the columns of the cells table that the status reads.
type cellColumns struct {
	ids, status, errs, workload, platform, policy []string
	instance                                      []int64
	load                                          []float64
}

// readPublished reads the cells parts of out.
func readPublished(out string) (*published, []parquet.Problem, error) {
	set, problems, err := parquet.ReadColumns(out, table.Cells, []string{table.CellID, table.Status, table.Error, table.Workload, table.Instance, table.Load, table.Platform, table.Policy})
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", out, err)
	}
	pub := &published{cells: map[string]*settledRow{}, parts: map[string]int{}, last: map[string]time.Time{}, events: map[string][]publication{}}
	if set == nil {
		return pub, problems, nil
	}
	col := func(name string) []string { return set.Column(name).Strings }
	cols := cellColumns{ids: col(table.CellID), status: col(table.Status), errs: col(table.Error),
		workload: col(table.Workload), platform: col(table.Platform), policy: col(table.Policy),
		instance: set.Column(table.Instance).Int64s, load: set.Column(table.Load).Float64s}
	r := 0
	for _, part := range set.Parts {
		label := part.Metadata["sweep.shard"]
		if err := pub.addPart(label, part); err != nil {
			return nil, nil, err
		}
		for end := r + int(part.Rows); r < end; r++ {
			pub.settle(cols, r, label)
		}
	}
	return pub, problems, nil
}

// addPart counts a part of writer label and its publication time.
func (pub *published) addPart(label string, part parquet.PartInfo) error {
	mtime, err := modTime(part.Path)
	if err != nil {
		return err
	}
	pub.parts[label]++
	if mtime.After(pub.last[label]) {
		pub.last[label] = mtime
	}
	if !mtime.IsZero() {
		pub.events[label] = append(pub.events[label], publication{at: mtime, rows: int(part.Rows)})
	}
	return nil
}

// settle takes row r, written by writer label, as its cell's settling
// row unless an ok row settled the cell before.
func (pub *published) settle(cols cellColumns, r int, label string) {
	id := cols.ids[r]
	if prev := pub.cells[id]; prev != nil && prev.status == table.StatusOK {
		return
	}
	name := model.Cell{Workload: cols.workload[r], Instance: int(cols.instance[r]), Load: cols.load[r],
		Platform: cols.platform[r], Policy: cols.policy[r]}.Name()
	pub.cells[id] = &settledRow{status: cols.status[r], err: cols.errs[r], label: label, name: name}
}

// shardLabels are the shards to show, in name order: every shard of
// every shard count seen (even one that has not published yet), and the
// other writers' labels ("all" for unsharded runs).
func shardLabels(parts map[string]int) []string {
	counts := map[int]bool{}
	var labels []string
	for label := range parts {
		if sh, ok := parseShardLabel(label); ok && sh.Count > 1 {
			counts[sh.Count] = true
			continue
		}
		labels = append(labels, label)
	}
	for n := range counts {
		for i := 1; i <= n; i++ {
			labels = append(labels, Shard{i, n}.Label())
		}
	}
	sort.Strings(labels)
	return labels
}

// shardStatus counts the cells of the shard (or other writer) label: the
// manifest's cells in the shard when both are known, else the cells its
// writers settled (and its cells and remaining are unknown).
func (pub *published) shardStatus(label string, m *Manifest, cells []Cell) ShardStatus {
	s := ShardStatus{Label: label, Parts: pub.parts[label], LastActivity: pub.last[label]}
	sh, isShard := parseShardLabel(label)
	if m == nil || !isShard {
		for _, r := range pub.cells {
			if r.label == label {
				s.count(r.status)
			}
		}
		return s
	}
	for _, c := range cells {
		if !sh.contains(c) {
			continue
		}
		s.Cells++
		if r := pub.cells[c.ID]; r != nil {
			s.count(r.status)
		}
	}
	s.Remaining = s.Cells - s.Done - s.Failed
	return s
}

// countManifestCells counts the manifest's cells done and failed, and
// lists the failed ones in manifest order.
func (st *Status) countManifestCells(pub *published, cells []Cell) {
	for _, c := range cells {
		r := pub.cells[c.ID]
		if r == nil {
			continue
		}
		st.count(r.status)
		if r.status != table.StatusOK {
			st.FailedCells = append(st.FailedCells, FailedCell{Name: c.Name(), ID: c.ID, Shard: r.label, Error: r.err})
		}
	}
	st.Remaining = st.Total - st.Done - st.Failed
}

// countSettledCells counts, without a manifest, every cell with a row,
// and lists the failed ones in name order.
func (st *Status) countSettledCells(pub *published) {
	for id, r := range pub.cells {
		st.count(r.status)
		if r.status != table.StatusOK {
			st.FailedCells = append(st.FailedCells, FailedCell{Name: r.name, ID: id, Shard: r.label, Error: r.err})
		}
	}
	sort.Slice(st.FailedCells, func(i, j int) bool { return st.FailedCells[i].Name < st.FailedCells[j].Name })
}

// WriteFailedCells prints each failed cell with its error: a decision
// process's fault ends with its stderr lines, one per line, which the user
// needs (a ModuleNotFoundError, a traceback's last frame). A panic's stack
// trace, for developers, is left to `sweep show`, and an error is cut at
// maxErrorLines lines (a fault with its 20 stderr lines fits).
func WriteFailedCells(w io.Writer, cells []FailedCell) {
	for _, c := range cells {
		fmt.Fprintf(w, "  %s (%s, %s):\n", c.Name, c.Shard, c.ID)
		lines := strings.Split(strings.TrimRight(c.Error, "\n"), "\n")
		for i, line := range lines {
			if i > 0 && strings.HasPrefix(line, "goroutine ") {
				fmt.Fprintf(w, "    (its stack trace: sweep show DIR %s)\n", c.ID)
				break
			}
			if i == maxErrorLines {
				fmt.Fprintf(w, "    (%d more lines: sweep show DIR %s)\n", len(lines)-i, c.ID)
				break
			}
			fmt.Fprintf(w, "    %s\n", strings.Replace(line, "\t", "  ", 1))
		}
	}
}

// maxErrorLines is how many lines of a failed cell's error WriteFailedCells
// prints.
const maxErrorLines = 24

// parseShardLabel inverts Shard.Label.
func parseShardLabel(label string) (Shard, bool) {
	if label == "all" {
		return Shard{}, true
	}
	var sh Shard
	if _, err := fmt.Sscanf(label, "s%dof%d", &sh.Index, &sh.Count); err != nil || sh.Label() != label || sh.Index < 1 || sh.Index > sh.Count {
		return Shard{}, false
	}
	return sh, true
}

func (s *ShardStatus) count(status string) {
	if status == table.StatusOK {
		s.Done++
	} else {
		s.Failed++
	}
}

func (s *Status) count(status string) {
	if status == table.StatusOK {
		s.Done++
	} else {
		s.Failed++
	}
}

// A publication is one cells part: when it appeared and its rows.
type publication struct {
	at   time.Time
	rows int
}

// recentRate is the rate of one shard's publications in rows per second
// (see ReadStatus).
func recentRate(events []publication, now time.Time, window time.Duration) float64 {
	if len(events) == 0 {
		return 0
	}
	sort.Slice(events, func(i, j int) bool { return events[i].at.Before(events[j].at) })
	origin := events[0].at
	for _, e := range events {
		if e.at.After(now.Add(-window)) {
			break
		}
		origin = e.at
	}
	rows := 0
	for _, e := range events {
		if e.at.After(origin) {
			rows += e.rows
		}
	}
	span := now.Sub(origin).Seconds()
	if rows == 0 || span <= 0 {
		return 0
	}
	return float64(rows) / span
}

// modTime is a part's publication time. A part moved aside since it was
// read (by a resuming run) has no time: its rows were counted anyway.
func modTime(path string) (time.Time, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the time of %s: %w", path, err)
	}
	return info.ModTime(), nil
}

// Write prints the status as a table; now dates the last activity.
func (s *Status) Write(w io.Writer, now time.Time) {
	if s.Total > 0 {
		fmt.Fprintf(w, "%s: %d cells, %d done, %d failed, %d remaining\n", s.Out, s.Total, s.Done, s.Failed, s.Remaining)
	} else {
		fmt.Fprintf(w, "%s: %d cells done, %d failed (no manifest: remaining unknown)\n", s.Out, s.Done, s.Failed)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "shard\tcells\tdone\tfailed\tremaining\tparts\tlast activity")
	for _, sh := range s.Shards {
		cells, remaining := fmt.Sprint(sh.Cells), fmt.Sprint(sh.Remaining)
		if s.Total == 0 {
			cells, remaining = "?", "?"
		}
		activity := "none yet"
		if !sh.LastActivity.IsZero() {
			activity = fmt.Sprintf("%s ago", now.Sub(sh.LastActivity).Round(time.Second))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%s\n", sh.Label, cells, sh.Done, sh.Failed, remaining, sh.Parts, activity)
	}
	tw.Flush()
	switch {
	case s.Remaining == 0 && s.Total > 0:
		fmt.Fprintf(w, "rate      %.2f cells/min over the last %s; nothing remains\n", s.Rate*60, s.Window)
	case s.HasETA:
		fmt.Fprintf(w, "rate      %.2f cells/min over the last %s; ETA %s at that rate\n", s.Rate*60, s.Window, s.ETA.Round(time.Second))
	default:
		fmt.Fprintf(w, "rate      none yet: no shard published twice in the last %s; no ETA\n", s.Window)
	}
	for _, o := range s.Running {
		fmt.Fprintf(w, "running   %s\n", o)
	}
	if len(s.FailedCells) > 0 {
		fmt.Fprintf(w, "failed cells (rerun with --retry-failed after fixing the cause):\n")
		WriteFailedCells(w, s.FailedCells)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(w, "warning   unreadable part file %s: %v (a resume moves it aside and runs its cells again)\n", p.Path, p.Err)
	}
}

// childTablesIn names the tables of the results directory out other than
// cells: its folders, hidden ones and the analysis's aside.
func childTablesIn(out string) ([]string, error) {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", out, err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != table.Cells && e.Name() != "analysis" {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
