package parquet

import (
	"context"
	"github.com/sweep-sched/sweep/store"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// boxes is a cut-down box-plot table: a category column in a stated order
// and a list column.
var boxes = store.Schema{Table: "boxplot", Columns: []store.Column{
	{Name: "policy", Type: store.TypeString, Categories: []string{"pslr", "srtf", "lrtf"}},
	{Name: "outliers", Type: store.TypeFloat64List, Nullable: true},
}}

func TestListAndCategoryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	// Rows in an order unlike the categories', a value outside them, and
	// two rows per row group so every group restarts its dictionary.
	rows := []store.Row{
		{store.String("lrtf"), store.Float64List([]float64{7.5, 1e300, math.Inf(1)})},
		{store.String("random"), store.Float64List(nil)},
		{store.String("srtf"), store.Null()},
		{store.String("lrtf"), store.Float64List([]float64{math.Copysign(0, -1), 5e-324, 1.0 / 3})},
		{store.String("pslr"), store.Float64List([]float64{2})},
	}
	w, err := newPartWriter(dir, boxes, WriterOptions{Tag: "t", RowGroupRows: 2, Metadata: map[string]string{"sweep.experiment": "x"}}, mem)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)

	set, problems, err := ReadColumns(dir, "boxplot", []string{"outliers", "policy"})
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadColumns: %v, problems %v", err, problems)
	}
	outliers, policy := set.Column("outliers"), set.Column("policy")
	if outliers.Type != store.TypeFloat64List {
		t.Fatalf("outliers read as %v, want list<float64>", outliers.Type)
	}
	for i, r := range rows {
		// Bit for bit: -0 stays -0, the subnormal and infinity survive.
		if got := outliers.Value(i); !got.Equal(r[1]) || !sameBits(got.AsFloat64List(), r[1].AsFloat64List()) {
			t.Errorf("row %d: outliers %v, want %v", i, got, r[1])
		}
		if policy.Strings[i] != r[0].AsString() {
			t.Errorf("row %d: policy %q, want %q", i, policy.Strings[i], r[0].AsString())
		}
	}
	if !reflect.DeepEqual(outliers.Nulls, []bool{false, false, true, false, false}) {
		t.Errorf("outlier nulls %v, want row 2 null only (an empty list is a value)", outliers.Nulls)
	}
	if got := outliers.Value(1); got.IsNull() || len(got.Any().([]float64)) != 0 {
		t.Errorf("row 1: %v, want the empty list", got)
	}

	parts, _, err := ListParts(dir, "boxplot")
	if err != nil || len(parts) != 1 {
		t.Fatalf("ListParts: %v, %d parts", err, len(parts))
	}
	want := map[string]string{"sweep.experiment": "x", store.CategoriesKey: `{"policy":["pslr","srtf","lrtf"]}`}
	if !reflect.DeepEqual(parts[0].Metadata, want) {
		t.Errorf("metadata %v, want %v", parts[0].Metadata, want)
	}

	// Each row group's dictionary, as pyarrow hands it to pandas, starts
	// with the categories in their order, used in that group or not; a
	// value outside them follows.
	wantDicts := [][]string{{"pslr", "srtf", "lrtf", "random"}, {"pslr", "srtf", "lrtf"}, {"pslr", "srtf", "lrtf"}}
	if got := rowGroupDictionaries(t, parts[0].Path, "policy"); !reflect.DeepEqual(got, wantDicts) {
		t.Errorf("dictionaries per row group %v, want %v", got, wantDicts)
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// rowGroupDictionaries reads column name of every row group of the file
// at path as Arrow does with the embedded schema, and returns each group's
// dictionary.
func rowGroupDictionaries(t *testing.T, path, name string) [][]string {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	leaves, err := leafColumns(fr.Manifest, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rg := range r.NumRowGroups() {
		table, err := fr.ReadRowGroups(context.Background(), leaves, []int{rg})
		if err != nil {
			t.Fatal(err)
		}
		chunk := table.Column(0).Data().Chunk(0)
		dict, ok := chunk.(*array.Dictionary)
		if !ok {
			t.Fatalf("row group %d: %s read as %v, want a dictionary", rg, name, chunk.DataType())
		}
		values, err := dictionaryStrings(dict.Dictionary())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, values)
		table.Release()
	}
	return out
}

func TestListColumnIsParquetList(t *testing.T) {
	dir := t.TempDir()
	w, err := NewPartWriter(dir, boxes, WriterOptions{Tag: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(store.Row{store.String("pslr"), store.Float64List([]float64{1, 2})}); err != nil {
		t.Fatal(err)
	}
	path, err := w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The standard three-level LIST layout (outliers.list.element), which
	// every reader maps to a list of doubles.
	leaf := r.MetaData().Schema.Column(1)
	if got := leaf.Path(); got != "outliers.list.element" {
		t.Errorf("leaf path %q, want outliers.list.element", got)
	}
	if got := r.MetaData().Schema.Root().Field(1).LogicalType().String(); !strings.Contains(strings.ToLower(got), "list") {
		t.Errorf("logical type %s, want List", got)
	}
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	if got := schema.Field(1).Type; !arrow.TypeEqual(got, float64List) {
		t.Errorf("Arrow type %v, want %v", got, float64List)
	}
}

func TestSchemaRejectsBadCategories(t *testing.T) {
	for _, tc := range []struct {
		name    string
		schema  store.Schema
		opts    WriterOptions
		message string
	}{
		{"categories on an int column", store.Schema{Table: "t", Columns: []store.Column{{Name: "n", Type: store.TypeInt64, Categories: []string{"a"}}}},
			WriterOptions{Tag: "t"}, `column "n" has categories but type int64`},
		{"a category twice", store.Schema{Table: "t", Columns: []store.Column{{Name: "p", Type: store.TypeString, Categories: []string{"a", "b", "a"}}}},
			WriterOptions{Tag: "t"}, `category "a" is listed twice`},
		{"the categories key given", store.Schema{Table: "t", Columns: []store.Column{{Name: "p", Type: store.TypeString}}},
			WriterOptions{Tag: "t", Metadata: map[string]string{store.CategoriesKey: "{}"}}, `state them in Column.Categories`},
	} {
		_, err := NewPartWriter(t.TempDir(), tc.schema, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: err %v, want one containing %q", tc.name, err, tc.message)
		}
	}
	w, err := NewPartWriter(t.TempDir(), boxes, WriterOptions{Tag: "t"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	err = w.Append(store.Row{store.String("pslr"), store.Float64(1)})
	if err == nil || !strings.Contains(err.Error(), `column "outliers": got float64 1; want list<float64> or null`) {
		t.Errorf("a float in the list column: err %v", err)
	}
}
