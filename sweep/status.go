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
	st := &Status{Out: out, Window: window}
	set, problems, err := parquet.ReadColumns(out, table.Cells, []string{table.CellID, table.Status, table.Error, table.Workload, table.Instance, table.Load, table.Platform, table.Policy})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", out, err)
	}
	st.Problems = problems

	type rowInfo struct {
		status, err, label string
		name               string
	}
	rows := map[string]*rowInfo{} // by cell id: the settling row
	partsOf := map[string]int{}
	last := map[string]time.Time{}
	events := map[string][]publication{} // by shard label
	if set != nil {
		ids, status, errs := set.Column(table.CellID).Strings, set.Column(table.Status).Strings, set.Column(table.Error)
		wl, inst, load := set.Column(table.Workload).Strings, set.Column(table.Instance).Int64s, set.Column(table.Load).Float64s
		plat, pol := set.Column(table.Platform).Strings, set.Column(table.Policy).Strings
		r := 0
		for _, part := range set.Parts {
			label := part.Metadata["sweep.shard"]
			mtime, err := modTime(part.Path)
			if err != nil {
				return nil, err
			}
			partsOf[label]++
			if mtime.After(last[label]) {
				last[label] = mtime
			}
			if !mtime.IsZero() {
				events[label] = append(events[label], publication{at: mtime, rows: int(part.Rows)})
			}
			for end := r + int(part.Rows); r < end; r++ {
				prev := rows[ids[r]]
				if prev != nil && prev.status == table.StatusOK {
					continue // an ok row settles the cell
				}
				name := model.Cell{Workload: wl[r], Instance: int(inst[r]), Load: load[r], Platform: plat[r], Policy: pol[r]}.Name()
				rows[ids[r]] = &rowInfo{status: status[r], err: errs.Strings[r], label: label, name: name}
			}
		}
	}

	// The shards to show: every shard of every count seen, and the other
	// writers' labels ("all" for unsharded runs).
	counts := map[int]bool{}
	var labels []string
	for label := range partsOf {
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

	var cells []Cell
	if m != nil {
		cells = m.Cells()
		st.Total = len(cells)
	}
	for _, label := range labels {
		s := ShardStatus{Label: label, Parts: partsOf[label], LastActivity: last[label]}
		sh, isShard := parseShardLabel(label)
		if m == nil || !isShard {
			// Without the shard's cells, count what its writers settled.
			for _, r := range rows {
				if r.label == label {
					s.count(r.status)
				}
			}
		} else {
			for _, c := range cells {
				if !sh.contains(c) {
					continue
				}
				s.Cells++
				if r := rows[c.ID]; r != nil {
					s.count(r.status)
				}
			}
			s.Remaining = s.Cells - s.Done - s.Failed
		}
		st.Shards = append(st.Shards, s)
	}

	if m != nil {
		for _, c := range cells {
			r := rows[c.ID]
			if r == nil {
				continue
			}
			st.count(r.status)
			if r.status != table.StatusOK {
				st.FailedCells = append(st.FailedCells, FailedCell{Name: c.Name(), ID: c.ID, Shard: r.label, Error: r.err})
			}
		}
		st.Remaining = st.Total - st.Done - st.Failed
	} else {
		for id, r := range rows {
			st.count(r.status)
			if r.status != table.StatusOK {
				st.FailedCells = append(st.FailedCells, FailedCell{Name: r.name, ID: id, Shard: r.label, Error: r.err})
			}
		}
		sort.Slice(st.FailedCells, func(i, j int) bool { return st.FailedCells[i].Name < st.FailedCells[j].Name })
	}

	for _, shardEvents := range events {
		st.Rate += recentRate(shardEvents, now, window)
	}
	if m != nil && st.Rate > 0 {
		st.ETA = time.Duration(float64(st.Remaining) / st.Rate * float64(time.Second))
		st.HasETA = true
	}
	return st, nil
}

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
	if len(s.FailedCells) > 0 {
		fmt.Fprintf(w, "failed cells (rerun with --retry-failed after fixing the cause):\n")
		for _, c := range s.FailedCells {
			msg, _, _ := strings.Cut(c.Error, "\n")
			fmt.Fprintf(w, "  %s (%s, %s): %s\n", c.Name, c.Shard, c.ID, msg)
		}
	}
	for _, p := range s.Problems {
		fmt.Fprintf(w, "warning   unreadable part file %s: %v\n", p.Path, p.Err)
	}
}
