package parquet

import (
	"bytes"
	"github.com/sweep-sched/sweep/store"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jobColumns are jobRows(cell, n) a column at a time.
func jobColumns(cell string, n int) *store.Columns {
	c := &store.Columns{Len: n, Fields: []store.ColumnValues{{String: make([]string, n)}, {Int64: make([]int64, n)}, {Float64: make([]float64, n)}}}
	for i := range n {
		c.Fields[0].String[i] = cell
		c.Fields[1].Int64[i] = int64(i)
		c.Fields[2].Float64[i] = 1 + float64(i)/4
	}
	return c
}

// TestColumnsWriteAsRows writes the same cells' job rows once as rows and
// once as columns, with row groups of 4 that split the cells' batches,
// and wants byte-identical parts.
func TestColumnsWriteAsRows(t *testing.T) {
	cells := []struct {
		id   string
		jobs int
	}{{"A", 5}, {"B", 3}, {"C", 0}, {"D", 9}}
	write := func(columns bool) string {
		dir := t.TempDir()
		w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "c", RowGroupRows: 4}, FlushPolicy{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cells {
			child := store.Child{Rows: jobRows(c.id, c.jobs)}
			if columns {
				child = store.Child{Columns: jobColumns(c.id, c.jobs)}
			}
			if got := child.Len(); got != c.jobs {
				t.Fatalf("Child.Len() = %d, want %d", got, c.jobs)
			}
			if err := w.AppendCell(okCell(c.id, 0, 1, "pslr", 1, 1), child); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	rows, cols := write(false), write(true)
	for _, table := range []string{"cells", "jobs"} {
		names := dirNames(t, filepath.Join(rows, table))
		if len(names) != 1 {
			t.Fatalf("%s parts %q, want one", table, names)
		}
		a, err := os.ReadFile(filepath.Join(rows, table, names[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(cols, table, names[0]))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the part written from columns differs from the one written from rows (%d and %d bytes)", table, len(b), len(a))
		}
	}
	set, err := ReadPart(filepath.Join(cols, "jobs", dirNames(t, filepath.Join(cols, "jobs"))[0]), []string{"cell_id", "job", "slr"})
	if err != nil {
		t.Fatal(err)
	}
	if n := set.Columns[0].Len(); n != 17 {
		t.Fatalf("jobs part holds %d rows, want 5+3+0+9 = 17", n)
	}
	// Row 8 is D's job 0; row 16 D's job 8, slr 1 + 8/4 = 3.
	for _, tt := range []struct {
		row  int
		want string
	}{{8, `D 0 1`}, {16, `D 8 3`}} {
		got := set.Columns[0].Value(tt.row).String() + " " + set.Columns[1].Value(tt.row).String() + " " + set.Columns[2].Value(tt.row).String()
		if got != tt.want {
			t.Errorf("row %d = %s, want %s", tt.row, got, tt.want)
		}
	}
}

func TestColumnsRejected(t *testing.T) {
	ok := func() *store.Columns { return jobColumns("A", 3) }
	tests := []struct {
		name  string
		child store.Child
		want  string
	}{
		{"a column short", func() store.Child {
			c := ok()
			c.Fields[2].Float64 = c.Fields[2].Float64[:2]
			return store.Child{Columns: c}
		}(),
			`column "slr": 2 values; want Len = 3`},
		{"wrong type", func() store.Child {
			c := ok()
			c.Fields[1] = store.ColumnValues{Float64: []float64{0, 1, 2}}
			return store.Child{Columns: c}
		}(), `column "job": got float64 values; want int64`},
		{"two slices", func() store.Child {
			c := ok()
			c.Fields[1].Float64 = []float64{0, 1, 2}
			return store.Child{Columns: c}
		}(),
			`column "job": 2 of Int64, Float64 and String set`},
		{"a field missing", func() store.Child { c := ok(); c.Fields = c.Fields[:2]; return store.Child{Columns: c} }(),
			`columns has 2 fields; the schema has 3 columns`},
		{"rows and columns", store.Child{Rows: jobRows("A", 3), Columns: ok()}, "both rows and columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := NewCellWriter(dir, testCells, []store.Schema{testJobs}, WriterOptions{Tag: "r"}, FlushPolicy{})
			if err != nil {
				t.Fatal(err)
			}
			err = w.AppendCell(okCell("A", 0, 1, "pslr", 1, 1), tt.child)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if names := dirNames(t, filepath.Join(dir, "cells")); len(names) != 0 {
				t.Errorf("cells holds %q after a rejected cell, want nothing", names)
			}
		})
	}
}
