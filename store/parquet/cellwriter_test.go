package parquet

import (
	"github.com/sweep-sched/sweep/store"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

var testJobs = store.Schema{Table: "jobs", Columns: []store.Column{
	{Name: "cell_id", Type: store.TypeString},
	{Name: "job", Type: store.TypeInt64},
	{Name: "slr", Type: store.TypeFloat64},
}}

func jobRows(cell string, n int) []store.Row {
	rows := make([]store.Row, n)
	for i := range rows {
		rows[i] = store.Row{store.String(cell), store.Int64(int64(i)), store.Float64(1 + float64(i)/4)}
	}
	return rows
}

// fakeClock is a settable clock for flush intervals.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func TestCellWriterFlushPolicy(t *testing.T) {
	dir := t.TempDir()
	clock := &fakeClock{now: timeOf(t, "2026-03-01T10:00:00Z")}
	w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "cw", RowGroupRows: 4},
		FlushPolicy{Cells: 2, JobRows: 10, Interval: 5 * time.Second, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	parts := func() (cells, jobs []string) {
		return dirNames(t, filepath.Join(dir, "cells")), dirNames(t, filepath.Join(dir, "jobs"))
	}
	p1 := []string{"part-cw-000001.parquet"}
	p12 := []string{"part-cw-000001.parquet", "part-cw-000002.parquet"}
	p123 := append(p12, "part-cw-000003.parquet")
	steps := []struct {
		name           string
		do             func() error
		cells, jobs    []string
		visibleCellIDs []string
	}{
		{"one cell, 5 jobs: under every limit", func() error { return w.Append(okCell("A", 0, 1, "pslr", 1, 1), jobRows("A", 5)) },
			nil, []string{".tmp-part-cw-000001"}, nil},
		{"second cell reaches Cells=2", func() error { return w.Append(okCell("B", 0, 1, "srtf", 1, 1), jobRows("B", 3)) },
			p1, p1, []string{"A", "B"}},
		{"4.9 s later: not due", func() error {
			clock.now = clock.now.Add(4900 * time.Millisecond)
			return w.Append(okCell("C", 0, 1, "lrtf", 1, 1), nil)
		}, p1, p1, []string{"A", "B"}},
		{"5 s after the flush: MaybeFlush publishes C", func() error {
			clock.now = clock.now.Add(100 * time.Millisecond)
			return w.MaybeFlush()
		}, p12, p1, []string{"A", "B", "C"}},
		{"10 job rows reach JobRows", func() error { return w.Append(okCell("D", 0, 1, "pslr", 1, 1), jobRows("D", 10)) },
			p123, []string{"part-cw-000001.parquet", "part-cw-000003.parquet"}, []string{"A", "B", "C", "D"}},
		{"interval passed but nothing pending: no empty part", func() error {
			clock.now = clock.now.Add(time.Hour)
			return w.MaybeFlush()
		}, p123, []string{"part-cw-000001.parquet", "part-cw-000003.parquet"}, []string{"A", "B", "C", "D"}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		cells, jobs := parts()
		if !reflect.DeepEqual(cells, s.cells) || !reflect.DeepEqual(jobs, s.jobs) {
			t.Errorf("%s: cells %q jobs %q, want %q and %q", s.name, cells, jobs, s.cells, s.jobs)
		}
		got, _, err := ReadColumns(dir, "cells", []string{"cell_id"})
		if err != nil {
			t.Fatal(err)
		}
		if ids := got.Column("cell_id").Strings; !reflect.DeepEqual(ids, s.visibleCellIDs) {
			t.Errorf("%s: visible cells %q, want %q", s.name, ids, s.visibleCellIDs)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	jobs, _, err := ReadColumns(dir, "jobs", []string{"cell_id", "job"})
	if err != nil {
		t.Fatal(err)
	}
	// A's 5, B's 3, none for C, D's 10 = 18 rows.
	if jobs.Rows != 18 {
		t.Errorf("%d job rows, want 18", jobs.Rows)
	}
	if err := w.Append(okCell("E", 0, 1, "pslr", 1, 1), nil); err == nil || !strings.Contains(err.Error(), "after Close") {
		t.Errorf("Append after Close: err %v", err)
	}
}

// TestCellWriterJobsFailureKeepsCellsUnpublished breaks the jobs table so
// its flush fails; the cells of that flush must not be published, since
// resume would then count cells done whose job rows are lost.
func TestCellWriterJobsFailureKeepsCellsUnpublished(t *testing.T) {
	dir := t.TempDir()
	w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "f"}, FlushPolicy{Cells: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(okCell("A", 0, 1, "pslr", 1, 1), jobRows("A", 2)); err != nil {
		t.Fatal(err)
	}
	// Replace the jobs directory by a file: the temporary part cannot be
	// created.
	jobsDir := filepath.Join(dir, "jobs")
	if err := os.Remove(jobsDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jobsDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = w.Flush()
	if err == nil || !strings.Contains(err.Error(), `table "jobs"`) {
		t.Fatalf("Flush: err %v, want a jobs table error", err)
	}
	if names := dirNames(t, filepath.Join(dir, "cells")); len(names) != 0 {
		t.Errorf("cells published %q after the jobs flush failed", names)
	}
	if err := w.Append(okCell("B", 0, 1, "pslr", 1, 1), nil); err == nil {
		t.Error("Append after a failed flush succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed flush reported no error")
	}
	if names := dirNames(t, filepath.Join(dir, "cells")); len(names) != 0 {
		t.Errorf("Close published cells %q after the jobs flush failed", names)
	}
}

func TestCellWriterRejectsBadCellAtomically(t *testing.T) {
	dir := t.TempDir()
	w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "r"}, FlushPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := jobRows("A", 3)
	jobs[2] = store.Row{store.String("A"), store.Float64(2), store.Float64(1)}
	err = w.Append(okCell("A", 0, 1, "pslr", 1, 1), jobs)
	if err == nil || !strings.Contains(err.Error(), `column "job": got float64 2; want int64 (jobs row 2)`) {
		t.Errorf("err %v, want the bad job column and row", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"cells", "jobs"} {
		if names := dirNames(t, filepath.Join(dir, table)); len(names) != 0 {
			t.Errorf("%s holds %q after a rejected cell, want nothing", table, names)
		}
	}

	noJobs, err := NewCellWriter(t.TempDir(), testCells, nil, WriterOptions{Tag: "n"}, FlushPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	defer noJobs.Close()
	if err := noJobs.Append(okCell("A", 0, 1, "pslr", 1, 1), jobRows("A", 1)); err == nil {
		t.Error("job rows accepted by a writer without a jobs table")
	}
}

// TestCellWriterConcurrentAppends appends from several goroutines (the
// runner's workers) and checks that every cell and job row lands exactly
// once and that each cells part's jobs are in the jobs part of that name.
func TestCellWriterConcurrentAppends(t *testing.T) {
	dir := t.TempDir()
	w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "cc", RowGroupRows: 16}, FlushPolicy{Cells: 7})
	if err != nil {
		t.Fatal(err)
	}
	const workers, perWorker, jobsPerCell = 4, 25, 9
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				id := string(rune('a'+g)) + "-" + string(rune('A'+i))
				if err := w.Append(okCell(id, int64(g), 1, "pslr", int64(i), 1), jobRows(id, jobsPerCell)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cellParts := dirNames(t, filepath.Join(dir, "cells"))
	if !reflect.DeepEqual(cellParts, dirNames(t, filepath.Join(dir, "jobs"))) {
		t.Fatalf("cells parts %q differ from jobs parts", cellParts)
	}
	// 100 cells flushed every 7: 14 full parts and one of 2.
	if len(cellParts) != 15 {
		t.Errorf("%d parts, want 15", len(cellParts))
	}
	for _, name := range cellParts {
		cells := readIDs(t, filepath.Join(dir, "cells", name))
		jobs := readIDs(t, filepath.Join(dir, "jobs", name))
		count := map[string]int{}
		for _, id := range jobs {
			count[id]++
		}
		if len(count) != len(cells) {
			t.Errorf("%s: %d cells but jobs of %d", name, len(cells), len(count))
		}
		for _, id := range cells {
			if count[id] != jobsPerCell {
				t.Errorf("%s: cell %s has %d job rows in the same-named jobs part, want %d", name, id, count[id], jobsPerCell)
			}
		}
	}
	all, _, err := ReadColumns(dir, "cells", []string{"cell_id"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, id := range all.Column("cell_id").Strings {
		if seen[id] {
			t.Errorf("cell %s written twice", id)
		}
		seen[id] = true
	}
	if len(seen) != workers*perWorker {
		t.Errorf("%d distinct cells, want %d", len(seen), workers*perWorker)
	}
}

// readIDs reads the cell_id column of one part file.
func readIDs(t *testing.T, path string) []string {
	t.Helper()
	cols, _, err := readPart(path, []string{"cell_id"})
	if err != nil {
		t.Fatal(err)
	}
	return cols[0].Strings
}
