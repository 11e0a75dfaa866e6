package parquet

import (
	"github.com/sweep-sched/sweep/store"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestColumnChunkNullCounts reads back the statistics of every column chunk
// of a part file and checks each null count against the rows of that chunk:
// strict readers (arrow-rs, hyparquet) refuse a file whose null count is
// wrong, as the arrow Go v17 writer made it for required dictionary
// columns (-num_values). Row groups of 2 rows split the 3-row flush.
func TestColumnChunkNullCounts(t *testing.T) {
	dir := t.TempDir()
	w, err := NewPartWriter(dir, testCells, WriterOptions{Tag: "stats", RowGroupRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	var rows []store.Row
	for _, f := range flushes {
		rows = append(rows, f...)
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
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first := 0
	for g := 0; g < r.NumRowGroups(); g++ {
		rg := r.MetaData().RowGroup(g)
		n := int(rg.NumRows())
		for c, col := range testCells.Columns {
			var nulls int64
			for _, row := range rows[first : first+n] {
				if row[c].Type() == 0 {
					nulls++
				}
			}
			chunk, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			stats, err := chunk.Statistics()
			if err != nil {
				t.Fatal(err)
			}
			if stats == nil || !stats.HasNullCount() {
				t.Errorf("row group %d column %s: no null count", g, col.Name)
				continue
			}
			if got := stats.NullCount(); got != nulls {
				t.Errorf("row group %d column %s: null count %d; the %d rows hold %d nulls", g, col.Name, got, n, nulls)
			}
		}
		first += n
	}
	if first != len(rows) {
		t.Fatalf("row groups hold %d rows; wrote %d", first, len(rows))
	}
}
