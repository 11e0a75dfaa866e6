package parquet

import (
	"bytes"
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// testCells is a cut-down cells table with every column kind: dictionary
// strings, int64, float64, and nullable columns of each type.
var testCells = store.Schema{Table: "cells", Columns: []store.Column{
	{Name: "cell_id", Type: store.TypeString},
	{Name: "instance", Type: store.TypeInt64},
	{Name: "load", Type: store.TypeFloat64},
	{Name: "policy", Type: store.TypeString},
	{Name: "status", Type: store.TypeString},
	{Name: "error", Type: store.TypeString, Nullable: true},
	{Name: "makespan", Type: store.TypeInt64, Nullable: true},
	{Name: "slr_max", Type: store.TypeFloat64, Nullable: true},
}}

var testCellNames = []string{"cell_id", "instance", "load", "policy", "status", "error", "makespan", "slr_max"}

func okCell(id string, instance int64, load float64, policy string, makespan int64, slrMax float64) store.Row {
	return store.Row{store.String(id), store.Int64(instance), store.Float64(load), store.String(policy), store.String("ok"), store.Null(), store.Int64(makespan), store.Float64(slrMax)}
}

func failedCell(id string, instance int64, load float64, policy, msg string) store.Row {
	return store.Row{store.String(id), store.Int64(instance), store.Float64(load), store.String(policy), store.String("failed"), store.String(msg), store.Null(), store.Null()}
}

// flushes are the rows written by TestPartWriterRoundTrip, one slice per
// Flush; the empty second flush must publish nothing. Values include the
// extremes of int64 and a negative zero, subnormal and infinity, which a
// lossy encoding would alter.
var flushes = [][]store.Row{
	{
		okCell("a-0-0.8-pslr", 0, 0.8, "pslr", 1234, 3.25),
		failedCell("a-0-0.8-srtf", 0, 0.8, "srtf", "engine: task T3 of job J9 never fits cluster c4"),
		okCell("a-0-0.8-fifo-job", math.MaxInt64, math.Copysign(0, -1), "fifo-job", math.MinInt64, math.Inf(1)),
	},
	{},
	{
		okCell("a-1-1.2-pslr", 1, 1.2, "pslr", 99, 5e-324),
		okCell("a-1-1.2-srtf", 1, 1.2, "srtf", 0, 1.0/3),
	},
}

func TestPartWriterRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	// Two rows per row group so the three-row part spans two groups.
	w, err := newPartWriter(dir, testCells, WriterOptions{Tag: "t1", RowGroupRows: 2}, mem)
	if err != nil {
		t.Fatal(err)
	}
	var published []string
	for _, rows := range flushes {
		for _, r := range rows {
			if err := w.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		path, err := w.Flush()
		if err != nil {
			t.Fatal(err)
		}
		published = append(published, path)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)

	// Sequence numbers count flushes, so the empty flush 2 leaves a gap.
	cellsDir := filepath.Join(dir, "cells")
	wantNames := []string{filepath.Join(cellsDir, "part-t1-000001.parquet"), "", filepath.Join(cellsDir, "part-t1-000003.parquet")}
	if !reflect.DeepEqual(published, wantNames) {
		t.Errorf("published %q, want %q", published, wantNames)
	}

	got, problems, err := ReadColumns(dir, "cells", testCellNames)
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadColumns: %v, problems %v", err, problems)
	}
	var want []store.Row
	for _, rows := range flushes {
		want = append(want, rows...)
	}
	if got.Rows != len(want) {
		t.Fatalf("read %d rows, want %d", got.Rows, len(want))
	}
	for i, row := range want {
		for j, v := range row {
			c := &got.Columns[j]
			if c.Type != testCells.Columns[j].Type {
				t.Fatalf("column %s read as %v, want %v", c.Name, c.Type, testCells.Columns[j].Type)
			}
			if read := valueAt(c, i); !sameValue(read, v) {
				t.Errorf("row %d column %s: read %s, wrote %s", i, c.Name, read.Describe(), v.Describe())
			}
		}
	}

	r, err := file.OpenParquetFile(filepath.Join(dir, "cells", "part-t1-000001.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.NumRowGroups(); n != 2 {
		t.Errorf("first part has %d row groups, want 2 (3 rows, 2 per group)", n)
	}
	// Strings must come back as dictionary<int32, utf8> for pandas and
	// polars to see categoricals.
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	if dt := sc.Field(0).Type; !arrow.TypeEqual(dt, stringDictionary) {
		t.Errorf("cell_id read with Arrow type %v, want %v", dt, stringDictionary)
	}
	if sc.Field(0).Nullable || !sc.Field(5).Nullable {
		t.Errorf("nullability of cell_id, error = %v, %v; want false, true", sc.Field(0).Nullable, sc.Field(5).Nullable)
	}
}

// valueAt returns row i of a read column as a Value.
func valueAt(c *ColumnData, i int) store.Value {
	if c.IsNull(i) {
		return store.Null()
	}
	switch c.Type {
	case store.TypeInt64:
		return store.Int64(c.Int64s[i])
	case store.TypeFloat64:
		return store.Float64(c.Float64s[i])
	}
	return store.String(c.Strings[i])
}

// sameValue compares bit for bit, so -0 differs from 0.
func sameValue(a, b store.Value) bool {
	return a.Type() == b.Type() && a.AsInt64() == b.AsInt64() && math.Float64bits(a.AsFloat64()) == math.Float64bits(b.AsFloat64()) && a.AsString() == b.AsString()
}

func TestPartWriterMetadata(t *testing.T) {
	dir := t.TempDir()
	meta := map[string]string{
		"sweep.manifest_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"sweep.tool_version":    "v0.1.0-dev",
		"sweep.experiment":      "burkimsher2013",
		"sweep.schema_version":  "1",
	}
	w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: "m", Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := w.Append(okCell("c", int64(i), 1, "pslr", 10, 1)); err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			if _, err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	parts, problems, err := ListParts(dir, "cells")
	if err != nil || len(problems) > 0 {
		t.Fatalf("ListParts: %v, problems %v", err, problems)
	}
	if len(parts) != 2 {
		t.Fatalf("%d parts, want 2", len(parts))
	}
	for _, p := range parts {
		if p.Rows != 2 {
			t.Errorf("%s: %d rows, want 2", p.Path, p.Rows)
		}
		if !reflect.DeepEqual(p.Metadata, meta) {
			t.Errorf("%s: metadata %v, want %v", p.Path, p.Metadata, meta)
		}
	}
}

func TestTempFilesInvisible(t *testing.T) {
	dir := t.TempDir()
	// One row per group: the first Append already writes to the temporary
	// file.
	w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: "tmpcheck", RowGroupRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range 3 {
		if err := w.Append(okCell("x", int64(i), 0.9, "fifo-task", 5, 2)); err != nil {
			t.Fatal(err)
		}
	}
	names := dirNames(t, filepath.Join(dir, "cells"))
	if want := []string{".tmp-part-tmpcheck-000001"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("before flush the table holds %q, want %q", names, want)
	}
	if matched, _ := filepath.Match("*.parquet", names[0]); matched {
		t.Errorf("temporary name %q matches *.parquet", names[0])
	}
	parts, problems, err := ListParts(dir, "cells")
	if err != nil || len(parts)+len(problems) != 0 {
		t.Errorf("ListParts saw parts %v, problems %v, err %v; want nothing", parts, problems, err)
	}
	set, problems, err := ReadColumns(dir, "cells", []string{"instance"})
	if err != nil || len(problems) != 0 || set.Rows != 0 {
		t.Errorf("ReadColumns saw %d rows, problems %v, err %v; want nothing", set.Rows, problems, err)
	}

	if _, err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	names = dirNames(t, filepath.Join(dir, "cells"))
	if want := []string{"part-tmpcheck-000001.parquet"}; !reflect.DeepEqual(names, want) {
		t.Errorf("after flush the table holds %q, want %q", names, want)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestTwoWritersOneDirectory(t *testing.T) {
	dir := t.TempDir()
	var writers []*PartWriter
	for _, label := range []string{"s01of02", "s02of02"} {
		tag, err := NewTag(label, timeOf(t, "2026-03-01T10:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: tag})
		if err != nil {
			t.Fatal(err)
		}
		writers = append(writers, w)
	}
	// Interleaved flushes, two per writer, one row each.
	for round := range 2 {
		for i, w := range writers {
			if err := w.Append(okCell("c", int64(10*i+round), 1, "lrtf", 1, 1)); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, w := range writers {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	names := dirNames(t, filepath.Join(dir, "cells"))
	if len(names) != 4 {
		t.Fatalf("files %q, want 4 distinct parts", names)
	}
	set, problems, err := ReadColumns(dir, "cells", []string{"instance"})
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadColumns: %v, problems %v", err, problems)
	}
	// Part names sort by tag, then sequence: s01's rows, then s02's.
	if want := []int64{0, 1, 10, 11}; !reflect.DeepEqual(set.Column("instance").Int64s, want) {
		t.Errorf("instances %v, want %v", set.Column("instance").Int64s, want)
	}

	// A writer reusing a tag could overwrite; it is refused up front.
	tag := tagOf(names[0])
	if _, err := NewPartWriter(dir, testCells, WriterOptions{Tag: tag}); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Errorf("reusing tag %q: err %v, want an 'already used' error", tag, err)
	}
}

func TestAppendRejectsBadRows(t *testing.T) {
	tests := []struct {
		name string
		row  store.Row
		want string
	}{
		{"short row", store.Row{store.String("a")}, `row has 1 values; the schema has 8 columns`},
		{"int for float", store.Row{store.String("a"), store.Int64(0), store.Int64(1), store.String("p"), store.String("ok"), store.Null(), store.Null(), store.Null()},
			`column "load": got int64 1; want float64`},
		{"null in required column", store.Row{store.Null(), store.Int64(0), store.Float64(1), store.String("p"), store.String("ok"), store.Null(), store.Null(), store.Null()},
			`column "cell_id": got null; want string`},
		{"string for nullable float", store.Row{store.String("a"), store.Int64(0), store.Float64(1), store.String("p"), store.String("ok"), store.Null(), store.Null(), store.String("NaN")},
			`column "slr_max": got string "NaN"; want float64 or null`},
	}
	dir := t.TempDir()
	w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: "bad"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := w.Append(tt.row)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one containing %q", err, tt.want)
			}
		})
	}
	if w.Pending() != 0 {
		t.Errorf("%d rows pending after only bad rows, want 0", w.Pending())
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close after rejected rows: %v", err)
	}
	if names := dirNames(t, filepath.Join(dir, "cells")); len(names) != 0 {
		t.Errorf("rejected rows left files %q", names)
	}
}

func TestNewPartWriterRejectsBadConfig(t *testing.T) {
	col := []store.Column{{Name: "x", Type: store.TypeInt64}}
	tests := []struct {
		name   string
		schema store.Schema
		opts   WriterOptions
		want   string
	}{
		{"empty table", store.Schema{Columns: col}, WriterOptions{Tag: "t"}, "table name: empty"},
		{"table with slash", store.Schema{Table: "a/b", Columns: col}, WriterOptions{Tag: "t"}, `"a/b" has '/' at byte 1`},
		{"hidden table", store.Schema{Table: ".cells", Columns: col}, WriterOptions{Tag: "t"}, `starts with '.'`},
		{"no columns", store.Schema{Table: "cells"}, WriterOptions{Tag: "t"}, "no columns"},
		{"duplicate column", store.Schema{Table: "cells", Columns: []store.Column{{Name: "x", Type: store.TypeInt64}, {Name: "x", Type: store.TypeFloat64}}},
			WriterOptions{Tag: "t"}, `column 1 ("x") repeats the name of column 0`},
		{"bad type", store.Schema{Table: "cells", Columns: []store.Column{{Name: "x"}}}, WriterOptions{Tag: "t"}, "valid types are int64, float64, string"},
		{"empty tag", store.Schema{Table: "cells", Columns: col}, WriterOptions{}, "writer tag: empty"},
		{"reserved metadata", store.Schema{Table: "cells", Columns: col}, WriterOptions{Tag: "t", Metadata: map[string]string{"ARROW:schema": "x"}}, "reserved"},
		{"negative row groups", store.Schema{Table: "cells", Columns: col}, WriterOptions{Tag: "t", RowGroupRows: -1}, "RowGroupRows is -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPartWriter(t.TempDir(), tt.schema, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestAppendBatchWritesWhatAppendWrites writes the same random rows, with
// nulls in every column, runs of repeated strings and lists, once row by
// row with Append and once in random batches with appendBatch (a cell's
// child rows), with small row groups: the part files come out byte for
// byte the same.
func TestAppendBatchWritesWhatAppendWrites(t *testing.T) {
	schema := store.Schema{Table: "mixed", Columns: []store.Column{
		{Name: "cell_id", Type: store.TypeString, Nullable: true},
		{Name: "n", Type: store.TypeInt64, Nullable: true},
		{Name: "x", Type: store.TypeFloat64, Nullable: true},
		{Name: "l", Type: store.TypeFloat64List, Nullable: true},
		{Name: "k", Type: store.TypeInt64},
	}}
	r := rand.New(rand.NewPCG(5, 6))
	var rows []store.Row
	id := "a"
	for i := range 5000 {
		if r.IntN(50) == 0 {
			id = fmt.Sprintf("cell-%d", r.IntN(20))
		}
		row := store.Row{store.String(id), store.Int64(r.Int64N(1e12)), store.Float64(r.NormFloat64()), store.Float64List([]float64{r.Float64(), float64(i)}), store.Int64(int64(i))}
		for c := range 4 {
			if r.IntN(10) == 0 {
				row[c] = store.Null()
			}
		}
		rows = append(rows, row)
	}
	write := func(dir string, batched bool) {
		w, err := NewPartWriter(dir, schema, WriterOptions{Tag: "same", RowGroupRows: 97})
		if err != nil {
			t.Fatal(err)
		}
		for rest := rows; len(rest) > 0; {
			n := min(len(rest), 1+r.IntN(300))
			if batched {
				if err := w.appendBatch(rest[:n]); err != nil {
					t.Fatal(err)
				}
			} else {
				for _, row := range rest[:n] {
					if err := w.Append(row); err != nil {
						t.Fatal(err)
					}
				}
			}
			rest = rest[n:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	one, batch := t.TempDir(), t.TempDir()
	write(one, false)
	write(batch, true)
	names := dirNames(t, filepath.Join(one, "mixed"))
	if got := dirNames(t, filepath.Join(batch, "mixed")); len(names) != 1 || !slices.Equal(got, names) {
		t.Fatalf("parts %q row by row, %q in batches; want the same one", names, got)
	}
	a, err := os.ReadFile(filepath.Join(one, "mixed", names[0]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(batch, "mixed", names[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("the part written in batches (%d bytes) differs from the one written row by row (%d bytes)", len(b), len(a))
	}
	got, problems, err := ReadColumns(batch, "mixed", []string{"cell_id", "n", "x", "l", "k"})
	if err != nil || len(problems) > 0 || got.Rows != len(rows) {
		t.Fatalf("ReadColumns: %v, problems %v, %d rows", err, problems, got.Rows)
	}
	for i, row := range rows {
		for c, v := range row {
			if read := got.Columns[c].Value(i); !read.Equal(v) {
				t.Fatalf("row %d column %d: read %s, wrote %s", i, c, read.Describe(), v.Describe())
			}
		}
	}
}
