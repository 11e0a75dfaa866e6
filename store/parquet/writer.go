package parquet

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// DefaultRowGroupRows is the row group size used when WriterOptions leaves
// it zero. It bounds a writer's buffered rows (about 5 MiB for the 11
// columns of the jobs table) while keeping row groups large enough for
// efficient scans.
const DefaultRowGroupRows = 64 * 1024

// arrowSchemaKey is the metadata key under which pqarrow embeds the Arrow
// schema; it is not caller metadata.
const arrowSchemaKey = "ARROW:schema"

// WriterOptions configures a PartWriter or CellWriter.
type WriterOptions struct {
	// Tag names the writing process in part file names; it must be unique
	// among all writers of the directory, past and present (see NewTag).
	Tag string
	// Metadata is written as key-value metadata into every part file, e.g.
	// the manifest hash and tool version. Keys starting with "ARROW:" are
	// reserved.
	Metadata map[string]string
	// RowGroupRows is the most rows per row group and the most rows held
	// in memory; zero means DefaultRowGroupRows.
	RowGroupRows int
	// Unique, for a CellWriter, keeps writers that share the directory
	// from publishing the same cell twice (see UniqueKey). A PartWriter
	// ignores it.
	Unique *UniqueKey
	// Group, for a CellWriter with Unique, is the group of writers of
	// this process it belongs to (see WriterGroup); nil means none.
	Group *WriterGroup
}

// PartWriter appends rows to one table and publishes them as part files.
// Rows stream into a hidden temporary Parquet file one row group at a time;
// Flush completes that file and publishes it atomically. A PartWriter is
// not safe for concurrent use.
type PartWriter struct {
	dir       string // DIR/<table>
	schema    store.Schema
	tag       string
	groupRows int
	arrow     *arrow.Schema
	props     *parquet.WriterProperties
	arrProps  pqarrow.ArrowWriterProperties

	builders []array.Builder
	// categories holds, per string column with Categories, the values
	// every row group's dictionary starts with (nil for other columns).
	categories []*array.String
	// lastBytes holds, per string column, the bytes of the last string
	// appended: child rows repeat their cell's id, and appending the same
	// bytes again spares a conversion (an allocation) per row.
	lastBytes [][]byte
	// ints, floats, indices and valid are appendRows' buffers of one
	// column's values.
	ints    []int64
	floats  []float64
	indices []int
	valid   []bool

	grouped int // rows in builders
	pending int // rows since the last flush, in builders or in the open file
	seq     int // sequence number of the part being built

	open *openPart // nil until the first row group of a part is written
	err  error     // sticky: after a failed write the part's state is unknown
}

// openPart is a part file under construction.
type openPart struct {
	file   *os.File
	buffer *bufio.Writer
	writer *pqarrow.FileWriter
}

// NewPartWriter prepares a writer of schema's table under dir, creating
// DIR/<table>. It refuses a tag that already names a file in that
// directory, so a writer never touches another writer's parts.
func NewPartWriter(dir string, schema store.Schema, opts WriterOptions) (*PartWriter, error) {
	return newPartWriter(dir, schema, opts, memory.DefaultAllocator)
}

func newPartWriter(dir string, schema store.Schema, opts WriterOptions, mem memory.Allocator) (*PartWriter, error) {
	if err := schema.Validate(); err != nil {
		return nil, err
	}
	if err := store.CheckName(opts.Tag); err != nil {
		return nil, fmt.Errorf("store: writer tag: %w", err)
	}
	if opts.RowGroupRows < 0 {
		return nil, fmt.Errorf("store: RowGroupRows is %d; want 0 (default %d) or more", opts.RowGroupRows, DefaultRowGroupRows)
	}
	groupRows := opts.RowGroupRows
	if groupRows == 0 {
		groupRows = DefaultRowGroupRows
	}
	metadata, err := fileMetadata(schema, opts.Metadata)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(metadata))
	for k := range metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	values := make([]string, len(keys))
	for i, k := range keys {
		values[i] = metadata[k]
	}

	tableDir := filepath.Join(dir, schema.Table)
	if err := os.MkdirAll(tableDir, 0o755); err != nil {
		return nil, fmt.Errorf("store: creating table directory: %w", err)
	}
	entries, err := os.ReadDir(tableDir)
	if err != nil {
		return nil, fmt.Errorf("store: listing table directory: %w", err)
	}
	for _, e := range entries {
		if tagOf(e.Name()) == opts.Tag {
			return nil, fmt.Errorf("store: tag %q is already used by %s; each writer needs a fresh tag (see NewTag)", opts.Tag, filepath.Join(tableDir, e.Name()))
		}
	}

	w := &PartWriter{
		dir:       tableDir,
		schema:    schema,
		tag:       opts.Tag,
		groupRows: groupRows,
		arrow:     arrowSchema(schema, arrow.NewMetadata(keys, values)),
		props:     writerProperties(schema, groupRows, mem),
		arrProps:  pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()),
		seq:       1,
	}
	w.builders = make([]array.Builder, len(schema.Columns))
	w.lastBytes = make([][]byte, len(schema.Columns))
	w.categories = make([]*array.String, len(schema.Columns))
	for i, c := range schema.Columns {
		w.builders[i] = array.NewBuilder(mem, arrowType(c.Type))
		if len(c.Categories) > 0 {
			b := array.NewStringBuilder(mem)
			b.AppendValues(c.Categories, nil)
			w.categories[i] = b.NewStringArray()
			b.Release()
		}
	}
	w.startDictionaries()
	return w, nil
}

// fileMetadata returns the key-value metadata of the table's files: the
// caller's, and CategoriesKey when a column states categories.
func fileMetadata(schema store.Schema, given map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(given)+1)
	for k, v := range given {
		if strings.HasPrefix(k, "ARROW:") {
			return nil, fmt.Errorf("store: metadata key %q: keys starting with \"ARROW:\" are reserved for Arrow", k)
		}
		if k == store.CategoriesKey {
			return nil, fmt.Errorf("store: metadata key %q is written by the store from the schema's categories; state them in Column.Categories", k)
		}
		out[k] = v
	}
	categories := map[string][]string{}
	for _, c := range schema.Columns {
		if len(c.Categories) > 0 {
			categories[c.Name] = c.Categories
		}
	}
	if len(categories) > 0 {
		// json.Marshal writes a map's keys sorted, so the bytes are
		// deterministic.
		b, err := json.Marshal(categories)
		if err != nil {
			return nil, fmt.Errorf("store: table %q: encoding categories: %w", schema.Table, err)
		}
		out[store.CategoriesKey] = string(b)
	}
	return out, nil
}

// startDictionaries empties the string dictionaries, so memory stays
// bounded by one row group however many distinct strings a run produces,
// and starts each with its column's categories, so they keep their order
// in every row group's dictionary.
func (w *PartWriter) startDictionaries() {
	for i, b := range w.builders {
		d, ok := b.(*array.BinaryDictionaryBuilder)
		if !ok {
			continue
		}
		d.ResetFull()
		if w.categories[i] != nil {
			// Only an allocation failure can make the insert fail, and
			// the Go allocator panics instead of returning one.
			_ = d.InsertStringDictValues(w.categories[i])
		}
	}
}

// writerProperties chooses per-column encodings. Strings are dictionary
// encoded (names repeat); int64 columns use DELTA_BINARY_PACKED, which
// shrinks ticks and counters by a third at the same speed; float64 metrics
// are plain, since their mantissas do not repeat. Snappy, because arrow's
// zstd codec allocates a fresh encoder per page and was 3x slower for 25%
// less disk (BenchmarkJobsMillion).
func writerProperties(schema store.Schema, groupRows int, mem memory.Allocator) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(groupRows)),
		parquet.WithCreatedBy("sweep"),
		parquet.WithDictionaryDefault(false),
	}
	for _, c := range schema.Columns {
		switch c.Type {
		case store.TypeString:
			opts = append(opts, parquet.WithDictionaryFor(c.Name, true))
		case store.TypeInt64:
			opts = append(opts, parquet.WithEncodingFor(c.Name, parquet.Encodings.DeltaBinaryPacked))
		}
	}
	return parquet.NewWriterProperties(opts...)
}

// Table returns the name of the table written.
func (w *PartWriter) Table() string { return w.schema.Table }

// Pending returns the number of rows appended since the last flush.
func (w *PartWriter) Pending() int { return w.pending }

// Append adds a row. It fails, changing nothing, when a value does not fit
// its column.
func (w *PartWriter) Append(row store.Row) error {
	if w.err != nil {
		return w.err
	}
	if w.builders == nil {
		return fmt.Errorf("store: table %q: Append after Close", w.schema.Table)
	}
	if err := w.schema.CheckRow(row); err != nil {
		return err
	}
	w.appendChecked(row)
	return w.maybeWriteGroup()
}

// appendChecked adds a row already validated by checkRow.
func (w *PartWriter) appendChecked(row store.Row) {
	for i, v := range row {
		if v.Type() == 0 {
			w.builders[i].AppendNull()
			continue
		}
		switch b := w.builders[i].(type) {
		case *array.Int64Builder:
			b.Append(v.AsInt64())
		case *array.Float64Builder:
			b.Append(v.AsFloat64())
		case *array.BinaryDictionaryBuilder:
			if last := w.lastBytes[i]; last == nil || string(last) != v.AsString() {
				w.lastBytes[i] = []byte(v.AsString())
			}
			// Only an allocation failure can make Append fail, and the Go
			// allocator panics instead of returning one.
			_ = b.Append(w.lastBytes[i])
		case *array.ListBuilder:
			b.Append(true)
			b.ValueBuilder().(*array.Float64Builder).AppendValues(v.AsFloat64List(), nil)
		}
	}
	w.grouped++
	w.pending++
}

// appendRows is appendChecked for many rows, without writing a row group
// however many it buffers: a column at a time, each column's values in
// bulk. A run appends a cell's rigid job rows at once, and row by row,
// value by value through each builder's type, that cost 6% of seed 004's
// run's CPU when its job rows were Rows (they are Columns now); for a
// single row appendChecked is the quicker.
func (w *PartWriter) appendRows(rows []store.Row) {
	for i, b := range w.builders {
		w.valid = w.valid[:0]
		for r, row := range rows {
			if row[i].Type() == 0 {
				if len(w.valid) == 0 {
					w.valid = append(w.valid, make([]bool, len(rows))...)
					for k := range r {
						w.valid[k] = true
					}
				}
				continue
			}
			if len(w.valid) > 0 {
				w.valid[r] = true
			}
		}
		switch b := b.(type) {
		case *array.Int64Builder:
			w.ints = w.ints[:0]
			for _, row := range rows {
				w.ints = append(w.ints, row[i].AsInt64())
			}
			b.AppendValues(w.ints, w.valid)
		case *array.Float64Builder:
			w.floats = w.floats[:0]
			for _, row := range rows {
				w.floats = append(w.floats, row[i].AsFloat64())
			}
			b.AppendValues(w.floats, w.valid)
		case *array.BinaryDictionaryBuilder:
			w.appendStrings(i, b, rows)
		case *array.ListBuilder:
			for _, row := range rows {
				if row[i].Type() == 0 {
					b.AppendNull()
					continue
				}
				b.Append(true)
				b.ValueBuilder().(*array.Float64Builder).AppendValues(row[i].AsFloat64List(), nil)
			}
		}
	}
	w.grouped += len(rows)
	w.pending += len(rows)
}

// appendBatch adds rows already validated by checkRow and writes the row
// groups they fill, where appending them one by one would.
func (w *PartWriter) appendBatch(rows []store.Row) error {
	return w.appendGrouped(len(rows), func(from, to int) { w.appendRows(rows[from:to]) })
}

// appendGrouped adds n rows, add(from, to) appending rows [from, to) to
// the builders, a row group's room at a time, and writes the row groups
// they fill.
func (w *PartWriter) appendGrouped(n int, add func(from, to int)) error {
	for from := 0; from < n; {
		to := from + min(n-from, max(1, w.groupRows-w.grouped))
		add(from, to)
		if err := w.maybeWriteGroup(); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// appendStrings appends column i of rows to its dictionary builder.
func (w *PartWriter) appendStrings(i int, b *array.BinaryDictionaryBuilder, rows []store.Row) {
	w.appendStringRuns(i, b, len(rows), func(r int) (string, bool) {
		v := &rows[r][i]
		return v.AsString(), v.Type() != 0
	})
}

// appendStringRuns appends n strings, at(r) for r in [0, n) (false for a
// null), to the dictionary builder of column i. Child rows repeat their
// cell's id: a run of equal strings is looked up in the dictionary once,
// and its index repeated.
func (w *PartWriter) appendStringRuns(i int, b *array.BinaryDictionaryBuilder, n int, at func(r int) (string, bool)) {
	for r := 0; r < n; {
		s, ok := at(r)
		if !ok {
			b.AppendNull()
			r++
			continue
		}
		if last := w.lastBytes[i]; last == nil || string(last) != s {
			w.lastBytes[i] = []byte(s)
		}
		// Only an allocation failure can make Append fail, and the Go
		// allocator panics instead of returning one.
		_ = b.Append(w.lastBytes[i])
		end := r + 1
		for ; end < n; end++ {
			if next, ok := at(end); !ok || next != s {
				break
			}
		}
		if end > r+1 {
			index := b.GetValueIndex(b.Len() - 1)
			w.indices = w.indices[:0]
			for range end - r - 1 {
				w.indices = append(w.indices, index)
			}
			b.AppendIndices(w.indices, nil)
		}
		r = end
	}
}

func (w *PartWriter) maybeWriteGroup() error {
	if w.grouped < w.groupRows {
		return nil
	}
	if err := w.writeGroup(); err != nil {
		w.fail(err)
		return w.err
	}
	return nil
}

// writeGroup writes the buffered rows as one row group of the open part,
// opening the part's temporary file first if needed.
func (w *PartWriter) writeGroup() error {
	if w.open == nil {
		path := filepath.Join(w.dir, tempName(w.tag, w.seq))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("creating temporary part: %w", err)
		}
		buffer := bufio.NewWriterSize(f, 1<<20)
		fw, err := pqarrow.NewFileWriter(w.arrow, buffer, w.props, w.arrProps)
		if err != nil {
			f.Close()
			os.Remove(path)
			return fmt.Errorf("starting Parquet file %s: %w", path, err)
		}
		w.open = &openPart{file: f, buffer: buffer, writer: fw}
	}
	columns := make([]arrow.Array, len(w.builders))
	for i, b := range w.builders {
		columns[i] = b.NewArray()
	}
	w.startDictionaries()
	record := array.NewRecord(w.arrow, columns, int64(w.grouped))
	for _, c := range columns {
		c.Release()
	}
	defer record.Release()
	w.grouped = 0
	if err := w.open.writer.Write(record); err != nil {
		return fmt.Errorf("writing row group to %s: %w", w.open.file.Name(), err)
	}
	return nil
}

// Flush publishes the rows appended since the last flush as one part file
// and returns its path, or "" when there were none. The sequence number
// advances on every Flush, even an empty one, so writers that are always
// flushed together (as in CellWriter) give their parts the same names.
func (w *PartWriter) Flush() (string, error) {
	if err := w.flushable(); err != nil {
		return "", err
	}
	temp, err := w.complete()
	path := ""
	if err == nil && temp != "" {
		path, err = w.place(temp)
	}
	return w.advance(path, err)
}

func (w *PartWriter) flushable() error {
	if w.err != nil {
		return w.err
	}
	if w.builders == nil {
		return fmt.Errorf("store: table %q: Flush after Close", w.schema.Table)
	}
	return nil
}

// advance ends a flush: on success the next part gets the next sequence
// number; an error becomes sticky.
func (w *PartWriter) advance(path string, err error) (string, error) {
	if err != nil {
		w.fail(err)
		return "", w.err
	}
	w.seq++
	w.pending = 0
	return path, nil
}

// complete writes the buffered rows and the footer of the part being built,
// syncs it and returns its temporary path, or "" when it has no rows.
func (w *PartWriter) complete() (string, error) {
	if w.grouped > 0 {
		if err := w.writeGroup(); err != nil {
			return "", err
		}
	}
	p := w.open
	if p == nil {
		return "", nil
	}
	w.open = nil
	temp := p.file.Name()
	// pqarrow's Close can drop a failed footer write, but bufio keeps the
	// first write error and reports it from Flush.
	err := errors.Join(p.writer.Close(), p.buffer.Flush())
	if err == nil {
		err = p.file.Sync()
	}
	err = errors.Join(err, p.file.Close())
	if err != nil {
		os.Remove(temp)
		return "", fmt.Errorf("completing part %s: %w", temp, err)
	}
	return temp, nil
}

// place moves a completed temporary part to its final name.
func (w *PartWriter) place(temp string) (string, error) {
	final := filepath.Join(w.dir, partName(w.tag, w.seq))
	// Link, unlike rename, fails rather than replace an existing file.
	if err := os.Link(temp, final); err != nil {
		os.Remove(temp)
		return "", fmt.Errorf("publishing part: %w", err)
	}
	if err := os.Remove(temp); err != nil {
		return "", fmt.Errorf("removing temporary part after publishing %s: %w", final, err)
	}
	if err := syncDir(w.dir); err != nil {
		return "", fmt.Errorf("publishing part %s: %w", final, err)
	}
	return final, nil
}

// without rewrites the completed temporary part temp leaving out the rows
// whose column key holds a value in drop, and returns the new temporary
// path, or "" when no row is left. It reads the whole part into memory, so
// it is for the rare flush that meets a duplicate (see UniqueKey).
func (w *PartWriter) without(temp, key string, drop map[string]bool) (string, error) {
	names := make([]string, len(w.schema.Columns))
	keyIndex := -1
	for i, c := range w.schema.Columns {
		names[i] = c.Name
		if c.Name == key {
			keyIndex = i
		}
	}
	columns, _, err := readPart(temp, names)
	if err != nil {
		os.Remove(temp)
		return "", fmt.Errorf("rereading part %s to drop duplicates: %w", temp, err)
	}
	if err := os.Remove(temp); err != nil {
		return "", fmt.Errorf("dropping duplicates: %w", err)
	}
	rows := columns[keyIndex].Len()
	for r := range rows {
		if drop[columns[keyIndex].Strings[r]] {
			continue
		}
		row := make(store.Row, len(columns))
		for i := range columns {
			row[i] = columns[i].Value(r)
		}
		w.appendChecked(row)
		if w.grouped >= w.groupRows {
			if err := w.writeGroup(); err != nil {
				return "", err
			}
		}
	}
	return w.complete()
}

// syncDir makes the directory's entries (the published name) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// fail records err as sticky, discarding the part being built; the rows
// since the last flush are lost, as they would be after a kill.
func (w *PartWriter) fail(err error) {
	w.err = fmt.Errorf("store: table %q: %w", w.schema.Table, err)
	w.discard()
}

// discard drops the open part and the buffered rows.
func (w *PartWriter) discard() {
	if w.open != nil {
		w.open.writer.Close()
		w.open.file.Close()
		os.Remove(w.open.file.Name())
		w.open = nil
	}
	for _, b := range w.builders {
		b.NewArray().Release()
	}
	w.startDictionaries()
	w.grouped = 0
}

// Close flushes the pending rows and releases the writer. It returns the
// first error the writer met. Closing twice is a no-op.
func (w *PartWriter) Close() error {
	if w.builders == nil {
		return nil
	}
	var err error
	if w.err == nil {
		_, err = w.Flush()
	} else {
		err = w.err
	}
	for _, b := range w.builders {
		b.Release()
	}
	for _, c := range w.categories {
		if c != nil {
			c.Release()
		}
	}
	w.builders = nil
	return err
}
