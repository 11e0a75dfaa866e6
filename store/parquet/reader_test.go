package parquet

import (
	"github.com/sweep-sched/sweep/store"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeTestPart writes rows as one part of testCells and returns its path.
func writeTestPart(t *testing.T, dir, tag string, rows ...store.Row) string {
	t.Helper()
	w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: tag})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	path, err := w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUnreadablePartsAreProblems(t *testing.T) {
	dir := t.TempDir()
	good := writeTestPart(t, dir, "good", okCell("g1", 1, 1, "pslr", 7, 1.5), okCell("g2", 2, 1, "pslr", 8, 2.5))
	content, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cells := filepath.Join(dir, "cells")
	// A full disk cuts a file short; its footer is gone.
	truncated := filepath.Join(cells, "part-trunc-000001.parquet")
	if err := os.WriteFile(truncated, content[:len(content)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(cells, "part-junk-000001.parquet")
	if err := os.WriteFile(garbage, []byte("not parquet at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(cells, "part-zero-000001.parquet")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wantProblems := []string{garbage, truncated, empty} // name order: junk, trunc, zero

	parts, problems, err := ListParts(dir, "cells")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0].Path != good || parts[0].Rows != 2 {
		t.Errorf("parts %+v, want only %s with 2 rows", parts, good)
	}
	if got := problemPaths(problems); !reflect.DeepEqual(got, wantProblems) {
		t.Errorf("ListParts problems %q, want %q", got, wantProblems)
	}

	set, problems, err := ReadColumns(dir, "cells", []string{"cell_id", "makespan"})
	if err != nil {
		t.Fatal(err)
	}
	if got := problemPaths(problems); !reflect.DeepEqual(got, wantProblems) {
		t.Errorf("ReadColumns problems %q, want %q", got, wantProblems)
	}
	if want := []string{"g1", "g2"}; !reflect.DeepEqual(set.Column("cell_id").Strings, want) {
		t.Errorf("cell ids %q, want %q", set.Column("cell_id").Strings, want)
	}
	if want := []int64{7, 8}; !reflect.DeepEqual(set.Column("makespan").Int64s, want) {
		t.Errorf("makespans %v, want %v", set.Column("makespan").Int64s, want)
	}
	for _, p := range problems {
		if !strings.HasPrefix(p.Error(), p.Path+": ") {
			t.Errorf("problem message %q does not start with the path", p.Error())
		}
	}
}

// TestCorruptDataPageIsProblem damages the compressed data of a part whose
// footer stays intact: the footer reads, the column data does not.
func TestCorruptDataPageIsProblem(t *testing.T) {
	dir := t.TempDir()
	var rows []store.Row
	for i := range 1000 {
		rows = append(rows, okCell("c", int64(i), 1, "pslr", int64(i*i), float64(i)/7))
	}
	path := writeTestPart(t, dir, "dmg", rows...)
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Bytes 4..1/3 of the file hold the first columns' pages (after the
	// 4-byte magic, before the footer at the end).
	for i := 40; i < len(content)/3; i++ {
		content[i] ^= 0x5a
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	set, problems, err := ReadColumns(dir, "cells", testCellNames)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Path != path {
		t.Errorf("problems %v, want one for %s", problems, path)
	}
	if set.Rows != 0 || len(set.Column("instance").Int64s) != 0 {
		t.Errorf("the damaged part contributed %d rows, want 0", set.Rows)
	}
}

func problemPaths(problems []Problem) []string {
	var paths []string
	for _, p := range problems {
		paths = append(paths, p.Path)
	}
	return paths
}

// TestReadPlainStrings reads a file written by another tool: strings as
// plain utf8 with no embedded Arrow schema, an int64 column with nulls.
func TestReadPlainStrings(t *testing.T) {
	dir := t.TempDir()
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "policy", Type: arrow.BinaryTypes.String},
		{Name: "makespan", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"srtf", "lrtf", "srtf"}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{3, 99, 5}, []bool{true, false, true})
	rec := b.NewRecord()
	defer rec.Release()
	if err := os.MkdirAll(filepath.Join(dir, "cells"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "cells", "other.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil { // closes f too
		t.Fatal(err)
	}

	set, problems, err := ReadColumns(dir, "cells", []string{"policy", "makespan"})
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadColumns: %v, problems %v", err, problems)
	}
	policy, makespan := set.Column("policy"), set.Column("makespan")
	if policy.Type != store.TypeString || !reflect.DeepEqual(policy.Strings, []string{"srtf", "lrtf", "srtf"}) || policy.Nulls != nil {
		t.Errorf("policy %+v, want strings srtf, lrtf, srtf without nulls", *policy)
	}
	// The null slot reads as 0 whatever was in the builder's value buffer.
	if !reflect.DeepEqual(makespan.Int64s, []int64{3, 0, 5}) || !reflect.DeepEqual(makespan.Nulls, []bool{false, true, false}) {
		t.Errorf("makespan %v nulls %v, want [3 0 5] with row 1 null", makespan.Int64s, makespan.Nulls)
	}
}

// TestNullsAcrossFiles checks that Nulls is back-filled when only a later
// file has nulls, and filled forward when a later file has none.
func TestNullsAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	writeTestPart(t, dir, "a", okCell("a", 0, 1, "pslr", 1, 1))
	writeTestPart(t, dir, "b", failedCell("b", 0, 1, "pslr", "boom"))
	writeTestPart(t, dir, "c", okCell("c", 0, 1, "pslr", 3, 3))
	set, _, err := ReadColumns(dir, "cells", []string{"slr_max", "error"})
	if err != nil {
		t.Fatal(err)
	}
	slr := set.Column("slr_max")
	if !reflect.DeepEqual(slr.Float64s, []float64{1, 0, 3}) || !reflect.DeepEqual(slr.Nulls, []bool{false, true, false}) {
		t.Errorf("slr_max %v nulls %v, want [1 0 3] with row 1 null", slr.Float64s, slr.Nulls)
	}
	errs := set.Column("error")
	if !reflect.DeepEqual(errs.Strings, []string{"", "boom", ""}) || !reflect.DeepEqual(errs.Nulls, []bool{true, false, true}) {
		t.Errorf("error %q nulls %v, want [\"\" boom \"\"] with rows 0 and 2 null", errs.Strings, errs.Nulls)
	}
}

func TestReadColumnsSchemaErrors(t *testing.T) {
	dir := t.TempDir()
	writeTestPart(t, dir, "a", okCell("a", 0, 1, "pslr", 1, 1))
	if _, _, err := ReadColumns(dir, "cells", []string{"cell_id", "wall_ms"}); err == nil || !strings.Contains(err.Error(), `no column "wall_ms"`) {
		t.Errorf("missing column: err %v, want one naming wall_ms", err)
	}
	if _, _, err := ReadColumns(dir, "cells", nil); err == nil {
		t.Error("no columns asked for: no error")
	}
	set, problems, err := ReadColumns(dir, "nosuchtable", []string{"x"})
	if err != nil || len(problems) != 0 || set.Rows != 0 {
		t.Errorf("missing table: %d rows, problems %v, err %v; want an empty result", set.Rows, problems, err)
	}
}

// TestSortRows: rows come out by cell id, rows of one cell in file order,
// every column and the nulls moved with them.
func TestSortRows(t *testing.T) {
	set := &ColumnSet{Rows: 4, Columns: []ColumnData{
		{Name: "cell_id", Type: store.TypeString, Strings: []string{"b", "a", "b", "a"}},
		{Name: "x", Type: store.TypeFloat64, Float64s: []float64{1, 2, 3, 0}, Nulls: []bool{false, false, false, true}},
		{Name: "n", Type: store.TypeInt64, Int64s: []int64{10, 20, 30, 40}},
		{Name: "l", Type: store.TypeFloat64List, Float64Lists: [][]float64{{1}, nil, {3, 3}, {4}}},
	}}
	if err := set.SortRows("cell_id"); err != nil {
		t.Fatal(err)
	}
	if got, want := set.Column("cell_id").Strings, []string{"a", "a", "b", "b"}; !slices.Equal(got, want) {
		t.Errorf("cell_id %v, want %v", got, want)
	}
	if got, want := set.Column("n").Int64s, []int64{20, 40, 10, 30}; !slices.Equal(got, want) {
		t.Errorf("n %v, want %v (rows of one cell keep their order)", got, want)
	}
	x := set.Column("x")
	if !slices.Equal(x.Float64s, []float64{2, 0, 1, 3}) || !slices.Equal(x.Nulls, []bool{false, true, false, false}) {
		t.Errorf("x %v nulls %v, want [2 0 1 3] with row 1 null", x.Float64s, x.Nulls)
	}
	if l := set.Column("l").Float64Lists; len(l[2]) != 1 || l[2][0] != 1 || len(l[3]) != 2 {
		t.Errorf("lists %v, want [[] [4] [1] [3 3]]", l)
	}
	if err := set.SortRows("n"); err == nil {
		t.Error("sorting by an int64 column: no error")
	}
}
