package parquet

import (
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"
)

var cellKey = &UniqueKey{Column: "cell_id", Status: "status", Settled: "ok"}

func uniqueWriter(t *testing.T, dir, tag string) *CellWriter {
	t.Helper()
	// Row groups of 2 rows: the rows dropped at a flush are already in the
	// temporary file, which the flush must rewrite.
	w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: tag, RowGroupRows: 2, Unique: cellKey}, FlushPolicy{Cells: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// tableRows reads cell_id and one more column of every part of a table,
// as "id:value" strings, sorted.
func tableRows(t *testing.T, dir, table, column string) []string {
	t.Helper()
	set, problems, err := ReadColumns(dir, table, []string{"cell_id", column})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	var rows []string
	ids, c := set.Column("cell_id"), set.Column(column)
	for i := range set.Rows {
		rows = append(rows, fmt.Sprint(ids.Strings[i], ":", c.Value(i).Describe()))
	}
	sort.Strings(rows)
	return rows
}

func mustAppend(t *testing.T, w *CellWriter, cell store.Row, jobs []store.Row) {
	t.Helper()
	if err := w.Append(cell, jobs); err != nil {
		t.Fatal(err)
	}
}

// Two writers of one shard (a requeued array task and its first run) both
// compute cell X; the second to flush drops X and X's job rows, which
// already sit in a row group of its temporary jobs part, and publishes the
// rest unchanged.
func TestUniqueKeySecondWriterDropsDuplicate(t *testing.T) {
	dir := t.TempDir()
	a, b := uniqueWriter(t, dir, "a"), uniqueWriter(t, dir, "b")
	mustAppend(t, a, okCell("X", 0, 1, "pslr", 10, 1.5), jobRows("X", 3))
	mustAppend(t, a, okCell("Y", 0, 1, "srtf", 11, 2.5), jobRows("Y", 2))
	mustAppend(t, b, okCell("X", 0, 1, "pslr", 10, 1.5), jobRows("X", 3))
	mustAppend(t, b, okCell("Z", 1, 1, "pslr", 12, 3.25), jobRows("Z", 1))
	mustAppend(t, b, failedCell("W", 1, 1, "lrtf", "no route"), nil)
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	wantCells := []string{`W:string "failed"`, `X:string "ok"`, `Y:string "ok"`, `Z:string "ok"`}
	if got := tableRows(t, dir, "cells", "status"); !reflect.DeepEqual(got, wantCells) {
		t.Errorf("cells %q, want %q", got, wantCells)
	}
	wantJobs := []string{"X:int64 0", "X:int64 1", "X:int64 2", "Y:int64 0", "Y:int64 1", "Z:int64 0"}
	if got := tableRows(t, dir, "jobs", "job"); !reflect.DeepEqual(got, wantJobs) {
		t.Errorf("jobs %q, want %q", got, wantJobs)
	}
	// b's parts hold exactly its own cells, values intact after the rewrite.
	bPart := filepath.Join(dir, "cells", partName("b", 1))
	cols, _, err := readPart(bPart, testCellNames)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := range cols[0].Len() {
		var row []string
		for c := range cols {
			row = append(row, cols[c].Value(r).Describe())
		}
		got = append(got, fmt.Sprint(row))
	}
	want := []string{
		`[string "Z" int64 1 float64 1 string "pslr" string "ok" null int64 12 float64 3.25]`,
		`[string "W" int64 1 float64 1 string "lrtf" string "failed" string "no route" null null]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("b's cells part:\n got %q\nwant %q", got, want)
	}
	if names := dirNames(t, filepath.Join(dir, "jobs")); !reflect.DeepEqual(names, []string{partName("a", 1), partName("b", 1)}) {
		t.Errorf("jobs parts %q: no temporary file may stay behind", names)
	}
}

// The rules for rows that do not settle their key: an old failure being
// retried does not block a new row; a failure another writer published
// since this writer started blocks a new failure but not a success.
func TestUniqueKeyFailedRows(t *testing.T) {
	dir := t.TempDir()
	old := uniqueWriter(t, dir, "old")
	mustAppend(t, old, failedCell("V", 0, 1, "pslr", "first try"), nil)
	mustAppend(t, old, okCell("S", 0, 1, "srtf", 1, 1), nil)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	c, d := uniqueWriter(t, dir, "c"), uniqueWriter(t, dir, "d")
	mustAppend(t, d, failedCell("U", 0, 1, "pslr", "d failed"), nil)
	mustAppend(t, d, failedCell("T", 0, 1, "pslr", "d failed"), nil)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, c, failedCell("V", 0, 1, "pslr", "second try"), nil) // kept: V's failure is older than c
	mustAppend(t, c, failedCell("U", 0, 1, "pslr", "c failed"), nil)   // dropped: d published U since c started
	mustAppend(t, c, okCell("T", 0, 1, "pslr", 7, 1), nil)             // kept: a success over a failure
	mustAppend(t, c, okCell("S", 0, 1, "srtf", 1, 1), nil)             // dropped: S is settled
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"S:null", "T:null", `T:string "d failed"`, `U:string "d failed"`, `V:string "first try"`, `V:string "second try"`,
	}
	if got := tableRows(t, dir, "cells", "error"); !reflect.DeepEqual(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
}

// A flush whose every cell is a duplicate publishes nothing and the next
// flush gets the next sequence number, as after an empty flush.
func TestUniqueKeyAllDuplicates(t *testing.T) {
	dir := t.TempDir()
	a, b := uniqueWriter(t, dir, "a"), uniqueWriter(t, dir, "b")
	mustAppend(t, a, okCell("X", 0, 1, "pslr", 1, 1), jobRows("X", 5))
	mustAppend(t, b, okCell("X", 0, 1, "pslr", 1, 1), jobRows("X", 5))
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, b, okCell("Y", 0, 1, "pslr", 1, 1), jobRows("Y", 1))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{partName("a", 1), partName("b", 2)}
	for _, table := range []string{"cells", "jobs"} {
		if got := dirNames(t, filepath.Join(dir, table)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", table, got, want)
		}
	}
}

// Writers racing on the same cells with interleaved flushes publish every
// cell exactly once, with all its job rows and none twice.
func TestUniqueKeyRacingWriters(t *testing.T) {
	dir := t.TempDir()
	const writers, cells, jobsPerCell = 3, 60, 4
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := range writers {
		w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: fmt.Sprint("w", g), RowGroupRows: 3, Unique: cellKey},
			FlushPolicy{Cells: 5 + g})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range cells {
				id := fmt.Sprintf("c%02d", (i+20*g)%cells)
				if err := w.Append(okCell(id, 0, 1, "pslr", int64(i), 1), jobRows(id, jobsPerCell)); err != nil {
					errs <- err
					return
				}
			}
			errs <- w.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cellCount, jobCount := countByCell(t, dir, "cells"), countByCell(t, dir, "jobs")
	if len(cellCount) != cells {
		t.Errorf("%d distinct cells, want %d", len(cellCount), cells)
	}
	for id, n := range cellCount {
		if n != 1 || jobCount[id] != jobsPerCell {
			t.Errorf("cell %s: %d rows and %d job rows, want 1 and %d", id, n, jobCount[id], jobsPerCell)
		}
	}
}

// Two processes run the same cells, each with a group of writers that
// share the cells out (as a run's workers do), flushing at different
// moments: every cell is published exactly once with all its job rows,
// though the writers of a group publish together and skip each other's
// parts.
func TestUniqueKeyWriterGroups(t *testing.T) {
	dir := t.TempDir()
	const processes, writers, cells, jobsPerCell = 2, 3, 60, 4
	var wg sync.WaitGroup
	errs := make(chan error, processes*writers)
	for p := range processes {
		var tags []string
		for g := range writers {
			tags = append(tags, fmt.Sprintf("p%d-w%d", p, g))
		}
		group := NewWriterGroup(tags)
		for g, tag := range tags {
			w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: tag, RowGroupRows: 3, Unique: cellKey, Group: group},
				FlushPolicy{Cells: 2 + g + p})
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Process p starts at another cell; writer g takes every
				// writers-th cell, so no two writers of a group share one.
				for i := g; i < cells; i += writers {
					id := fmt.Sprintf("c%02d", (i+30*p)%cells)
					if err := w.Append(okCell(id, 0, 1, "pslr", int64(i), 1), jobRows(id, jobsPerCell)); err != nil {
						errs <- err
						return
					}
				}
				errs <- w.Close()
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cellCount, jobCount := countByCell(t, dir, "cells"), countByCell(t, dir, "jobs")
	if len(cellCount) != cells {
		t.Errorf("%d distinct cells, want %d", len(cellCount), cells)
	}
	for id, n := range cellCount {
		if n != 1 || jobCount[id] != jobsPerCell {
			t.Errorf("cell %s: %d rows and %d job rows, want 1 and %d", id, n, jobCount[id], jobsPerCell)
		}
	}
}

func TestWriterGroupRefusesOtherTag(t *testing.T) {
	_, err := NewCellWriter(t.TempDir(), testCells, []store.Schema{testJobs},
		WriterOptions{Tag: "c", Unique: cellKey, Group: NewWriterGroup([]string{"a", "b"})}, FlushPolicy{})
	if err == nil {
		t.Fatal("a writer whose tag is not in its group was made")
	}
}

// countByCell counts a table's rows per cell id.
func countByCell(t *testing.T, dir, table string) map[string]int {
	t.Helper()
	set, _, err := ReadColumns(dir, table, []string{"cell_id"})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, id := range set.Column("cell_id").Strings {
		n[id]++
	}
	return n
}
