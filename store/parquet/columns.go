package parquet

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sweep-sched/sweep/store"
)

// appendColumns adds rows [from, to) of columns already checked by
// checkColumns, without writing a row group however many it buffers.
func (w *PartWriter) appendColumns(c *store.Columns, from, to int) {
	for i, b := range w.builders {
		f := &c.Fields[i]
		switch b := b.(type) {
		case *array.Int64Builder:
			b.AppendValues(f.Int64[from:to], nil)
		case *array.Float64Builder:
			b.AppendValues(f.Float64[from:to], nil)
		case *array.BinaryDictionaryBuilder:
			w.appendStringRuns(i, b, to-from, func(r int) (string, bool) { return f.String[from+r], true })
		}
	}
	w.grouped += to - from
	w.pending += to - from
}

// appendColumnBatch adds columns already checked by Schema.CheckColumns and
// writes the row groups they fill, as appendBatch does for rows.
func (w *PartWriter) appendColumnBatch(c *store.Columns) error {
	return w.appendGrouped(c.Len, func(from, to int) { w.appendColumns(c, from, to) })
}
