package parquet

import (
	"context"
	"errors"
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// readBatchRows is the number of rows decoded at a time while reading.
const readBatchRows = 64 * 1024

// PartInfo describes one readable part file.
type PartInfo struct {
	Path string
	Rows int64
	// Metadata is the file's key-value metadata as given in WriterOptions
	// (the embedded Arrow schema is left out).
	Metadata map[string]string
	// Columns are the names of the file's top-level columns, in order.
	Columns []string
}

// CommonColumns returns the names of the columns that every readable part
// file of DIR/<table> has, in the first part's order: what a reader can
// ask ReadColumns for. A table without parts has none.
func CommonColumns(dir, table string) ([]string, error) {
	parts, _, err := ListParts(dir, table)
	if err != nil || len(parts) == 0 {
		return nil, err
	}
	common := slices.Clone(parts[0].Columns)
	for _, part := range parts[1:] {
		common = slices.DeleteFunc(common, func(name string) bool { return !slices.Contains(part.Columns, name) })
	}
	return common, nil
}

// Problem is a part file that could not be read, e.g. truncated by a full
// disk or not Parquet at all. Its rows are left out of every result; the
// caller should warn and may move the file aside (MoveAside).
type Problem struct {
	Path string
	Err  error
}

// Error describes the problem with the file's path.
func (p Problem) Error() string { return p.Path + ": " + p.Err.Error() }

// ListParts returns the readable part files of DIR/<table> in name order
// with their row counts and metadata, and the unreadable ones as problems.
// Temporary files and files not ending in .parquet are not parts. A missing
// table directory is an empty table. The error is for failures to list the
// directory itself.
func ListParts(dir, table string) ([]PartInfo, []Problem, error) {
	paths, err := partPaths(dir, table)
	if err != nil {
		return nil, nil, err
	}
	var parts []PartInfo
	var problems []Problem
	for _, path := range paths {
		info, err := readFooter(path)
		if err != nil {
			problems = append(problems, Problem{Path: path, Err: err})
			continue
		}
		parts = append(parts, info)
	}
	return parts, problems, nil
}

// readFooter opens a part file and reads its footer.
func readFooter(path string) (info PartInfo, err error) {
	defer recoverAsError(&err)
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		return PartInfo{}, err
	}
	defer r.Close()
	return partInfo(path, r), nil
}

func partInfo(path string, r *file.Reader) PartInfo {
	info := PartInfo{Path: path, Rows: r.NumRows(), Metadata: map[string]string{}}
	root := r.MetaData().Schema.Root()
	for i := range root.NumFields() {
		info.Columns = append(info.Columns, root.Field(i).Name())
	}
	kv := r.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		if k != arrowSchemaKey {
			info.Metadata[k] = kv.Values()[i]
		}
	}
	return info
}

// recoverAsError turns a panic of the Parquet library, which some malformed
// files provoke, into an error for the file at hand, so one bad part cannot
// crash a resume.
func recoverAsError(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("malformed Parquet (reader panicked: %v)", r)
	}
}

// ColumnData holds one column read from a table. Exactly one of the value
// slices is used, according to Type; a null row holds the zero value there.
type ColumnData struct {
	Name         string
	Type         store.Type
	Int64s       []int64
	Float64s     []float64
	Strings      []string
	Float64Lists [][]float64
	// Nulls marks the null rows; it is nil when the column has none.
	Nulls []bool
}

// Value returns row i as a Value.
func (c *ColumnData) Value(i int) store.Value {
	switch {
	case c.IsNull(i):
		return store.Null()
	case c.Type == store.TypeInt64:
		return store.Int64(c.Int64s[i])
	case c.Type == store.TypeFloat64:
		return store.Float64(c.Float64s[i])
	case c.Type == store.TypeFloat64List:
		return store.Float64List(c.Float64Lists[i])
	}
	return store.String(c.Strings[i])
}

// Len returns the number of rows.
func (c *ColumnData) Len() int {
	switch c.Type {
	case store.TypeInt64:
		return len(c.Int64s)
	case store.TypeFloat64:
		return len(c.Float64s)
	case store.TypeFloat64List:
		return len(c.Float64Lists)
	}
	return len(c.Strings)
}

// IsNull reports whether row i is null.
func (c *ColumnData) IsNull(i int) bool { return c.Nulls != nil && c.Nulls[i] }

// ColumnSet holds columns read from the part files of one table, rows in
// part-name order and then file order; SortRows gives an order that does
// not depend on how a run's workers split the rows among files.
type ColumnSet struct {
	Rows    int
	Columns []ColumnData // in the order asked for
	Parts   []PartInfo   // the files read
}

// SortRows orders the set's rows by the string column key (a cell id),
// keeping the file order of rows with equal keys. A run's workers split
// its rows among part files in the order cells happen to finish, so sums
// over the rows as read differ in their last bits from run to run; over
// the sorted rows they are the same whatever the number of workers.
func (s *ColumnSet) SortRows(key string) error {
	k := s.Column(key)
	if k == nil || k.Type != store.TypeString {
		return fmt.Errorf("store: sorting rows by %q: no such string column was read", key)
	}
	order := make([]int, s.Rows)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(k.Strings[a], k.Strings[b]) })
	for i := range s.Columns {
		s.Columns[i].permute(order)
	}
	return nil
}

// permute reorders c's rows: row i becomes the old row order[i].
func (c *ColumnData) permute(order []int) {
	c.Int64s = permuted(c.Int64s, order)
	c.Float64s = permuted(c.Float64s, order)
	c.Strings = permuted(c.Strings, order)
	c.Float64Lists = permuted(c.Float64Lists, order)
	c.Nulls = permuted(c.Nulls, order)
}

func permuted[T any](v []T, order []int) []T {
	if v == nil {
		return nil
	}
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = v[j]
	}
	return out
}

// Column returns the column named name, or nil if it was not read.
func (s *ColumnSet) Column(name string) *ColumnData {
	for i := range s.Columns {
		if s.Columns[i].Name == name {
			return &s.Columns[i]
		}
	}
	return nil
}

// ReadColumns reads the named columns of every part file of DIR/<table>.
// Files that cannot be read are returned as problems and contribute no
// rows. A readable file that lacks a column, or has it with a type other
// than int64, float64, (plain or dictionary) string or list of float64, is an error: the
// file is sound, so moving it aside would lose data; the schemas differ.
func ReadColumns(dir, table string, names []string) (*ColumnSet, []Problem, error) {
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("store: reading table %q: no columns asked for", table)
	}
	paths, err := partPaths(dir, table)
	if err != nil {
		return nil, nil, err
	}
	set := &ColumnSet{Columns: make([]ColumnData, len(names))}
	for i, name := range names {
		set.Columns[i].Name = name
	}
	var problems []Problem
	for _, path := range paths {
		part, info, err := readPart(path, names)
		if err != nil {
			if errors.As(err, new(schemaMismatch)) {
				return nil, nil, fmt.Errorf("store: reading table %q: %s: %w", table, path, err)
			}
			problems = append(problems, Problem{Path: path, Err: err})
			continue
		}
		for i := range set.Columns {
			if err := set.Columns[i].appendColumn(&part[i], set.Rows); err != nil {
				return nil, nil, fmt.Errorf("store: reading table %q: %s: %w", table, path, err)
			}
		}
		set.Rows += int(info.Rows)
		set.Parts = append(set.Parts, info)
	}
	return set, problems, nil
}

// ReadPart reads the named columns of the one part file at path (a
// PartInfo.Path of ListParts): a reader that goes through a table part by
// part holds one part's rows at a time.
func ReadPart(path string, names []string) (*ColumnSet, error) {
	columns, info, err := readPart(path, names)
	if err != nil {
		return nil, err
	}
	return &ColumnSet{Rows: int(info.Rows), Columns: columns, Parts: []PartInfo{info}}, nil
}

// schemaMismatch is a readable file whose columns do not match the request.
type schemaMismatch struct{ msg string }

func (e schemaMismatch) Error() string { return e.msg }

// readPart reads the named columns of one part file completely, so a file
// that fails halfway contributes nothing.
func readPart(path string, names []string) (columns []ColumnData, info PartInfo, err error) {
	defer recoverAsError(&err)
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, PartInfo{}, err
	}
	defer r.Close()
	info = partInfo(path, r)
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, PartInfo{}, err
	}
	leaves, err := leafColumns(fr.Manifest, names)
	if err != nil {
		return nil, PartInfo{}, err
	}
	columns = make([]ColumnData, len(names))
	for i, name := range names {
		columns[i].Name = name
	}
	if info.Rows == 0 {
		return columns, info, nil
	}
	rows := 0
	// One row group at a time: each has its own string dictionaries, which
	// the Arrow reader cannot merge into one batch.
	for rg := range r.NumRowGroups() {
		n, err := readRowGroup(fr, rg, leaves, names, columns, rows)
		if err != nil {
			return nil, PartInfo{}, err
		}
		rows += n
	}
	if int64(rows) != info.Rows {
		return nil, PartInfo{}, fmt.Errorf("read %d rows; the footer promises %d", rows, info.Rows)
	}
	return columns, info, nil
}

// leafColumns returns the Parquet leaf columns that hold the named
// top-level columns: one per flat column, the element column of a list.
func leafColumns(manifest *pqarrow.SchemaManifest, names []string) ([]int, error) {
	var leaves []int
	for _, name := range names {
		field := -1
		for i, f := range manifest.Fields {
			if f.Field.Name == name {
				field = i
				break
			}
		}
		if field < 0 {
			return nil, schemaMismatch{fmt.Sprintf("no column %q", name)}
		}
		indices, err := manifest.GetFieldIndices([]int{field})
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", name, err)
		}
		leaves = append(leaves, indices...)
	}
	return leaves, nil
}

// readRowGroup appends row group rg's values to columns and returns the
// number of rows read; before is the number of rows already read.
func readRowGroup(fr *pqarrow.FileReader, rg int, leaves []int, names []string, columns []ColumnData, before int) (int, error) {
	rr, err := fr.GetRecordReader(context.Background(), leaves, []int{rg})
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rec := rr.Record()
		for i, name := range names {
			idx := rec.Schema().FieldIndices(name)
			if len(idx) != 1 {
				return 0, schemaMismatch{fmt.Sprintf("column %q appears %d times", name, len(idx))}
			}
			if err := columns[i].appendArray(rec.Column(idx[0]), before+rows); err != nil {
				return 0, err
			}
		}
		rows += int(rec.NumRows())
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		return 0, err
	}
	return rows, nil
}

// columnType maps an Arrow type read from Parquet to a column type.
func columnType(dt arrow.DataType) (store.Type, bool) {
	switch dt.ID() {
	case arrow.INT64:
		return store.TypeInt64, true
	case arrow.FLOAT64:
		return store.TypeFloat64, true
	case arrow.STRING, arrow.LARGE_STRING:
		return store.TypeString, true
	case arrow.DICTIONARY:
		switch dt.(*arrow.DictionaryType).ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING:
			return store.TypeString, true
		}
	case arrow.LIST:
		if dt.(*arrow.ListType).Elem().ID() == arrow.FLOAT64 {
			return store.TypeFloat64List, true
		}
	}
	return 0, false
}

// setType fixes the column's type on first sight and rejects a change.
func (c *ColumnData) setType(t store.Type, from string) error {
	if c.Type == 0 {
		c.Type = t
		return nil
	}
	if c.Type != t {
		return schemaMismatch{fmt.Sprintf("column %q is %v here but %v %s", c.Name, t, c.Type, from)}
	}
	return nil
}

// appendArray appends the values of arr; before is the number of rows the
// column already holds, for back-filling Nulls.
func (c *ColumnData) appendArray(arr arrow.Array, before int) error {
	t, ok := columnType(arr.DataType())
	if !ok {
		return schemaMismatch{fmt.Sprintf("column %q has type %v; want int64, float64, string or list<float64>", c.Name, arr.DataType())}
	}
	if err := c.setType(t, "in an earlier batch"); err != nil {
		return err
	}
	switch a := arr.(type) {
	case *array.Int64:
		c.Int64s = append(c.Int64s, a.Int64Values()...)
	case *array.Float64:
		c.Float64s = append(c.Float64s, a.Float64Values()...)
	case *array.String:
		for i := 0; i < a.Len(); i++ {
			c.Strings = append(c.Strings, a.Value(i))
		}
	case *array.LargeString:
		for i := 0; i < a.Len(); i++ {
			c.Strings = append(c.Strings, a.Value(i))
		}
	case *array.List:
		elements := a.ListValues().(*array.Float64).Float64Values()
		for i := 0; i < a.Len(); i++ {
			start, end := a.ValueOffsets(i)
			// A copy: the Arrow buffers are released after the batch.
			c.Float64Lists = append(c.Float64Lists, append([]float64{}, elements[start:end]...))
		}
	case *array.Dictionary:
		values, err := dictionaryStrings(a.Dictionary())
		if err != nil {
			return schemaMismatch{fmt.Sprintf("column %q: %v", c.Name, err)}
		}
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				c.Strings = append(c.Strings, "")
			} else {
				c.Strings = append(c.Strings, values[a.GetValueIndex(i)])
			}
		}
	}
	if arr.NullN() > 0 {
		if c.Nulls == nil {
			c.Nulls = make([]bool, before, before+arr.Len())
		}
		for i := 0; i < arr.Len(); i++ {
			null := arr.IsNull(i)
			c.Nulls = append(c.Nulls, null)
			if null {
				c.zero(before + i)
			}
		}
	} else if c.Nulls != nil {
		c.Nulls = append(c.Nulls, make([]bool, arr.Len())...)
	}
	return nil
}

// zero sets row i to the zero value; a null slot's bytes in Arrow are
// unspecified.
func (c *ColumnData) zero(i int) {
	switch c.Type {
	case store.TypeInt64:
		c.Int64s[i] = 0
	case store.TypeFloat64:
		c.Float64s[i] = 0
	case store.TypeFloat64List:
		c.Float64Lists[i] = nil
	default:
		c.Strings[i] = ""
	}
}

// dictionaryStrings returns the values of a string dictionary.
func dictionaryStrings(dict arrow.Array) ([]string, error) {
	values := make([]string, dict.Len())
	switch d := dict.(type) {
	case *array.String:
		for i := range values {
			values[i] = d.Value(i)
		}
	case *array.LargeString:
		for i := range values {
			values[i] = d.Value(i)
		}
	default:
		return nil, fmt.Errorf("dictionary of %v; want strings", dict.DataType())
	}
	return values, nil
}

// appendColumn appends another file's values of the same column.
func (c *ColumnData) appendColumn(o *ColumnData, before int) error {
	if o.Type == 0 { // an empty file tells nothing about the type
		return nil
	}
	if err := c.setType(o.Type, "in an earlier file"); err != nil {
		return err
	}
	c.Int64s = append(c.Int64s, o.Int64s...)
	c.Float64s = append(c.Float64s, o.Float64s...)
	c.Strings = append(c.Strings, o.Strings...)
	c.Float64Lists = append(c.Float64Lists, o.Float64Lists...)
	switch {
	case o.Nulls != nil && c.Nulls == nil:
		c.Nulls = append(make([]bool, before, before+len(o.Nulls)), o.Nulls...)
	case o.Nulls != nil:
		c.Nulls = append(c.Nulls, o.Nulls...)
	case c.Nulls != nil:
		c.Nulls = append(c.Nulls, make([]bool, o.Len())...)
	}
	return nil
}
