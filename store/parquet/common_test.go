package parquet

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/store"
)

// TestCommonColumns: of two part files, one written before a column
// existed, only the columns both have can be read together.
func TestCommonColumns(t *testing.T) {
	dir := t.TempDir()
	if got, err := CommonColumns(dir, "cells"); err != nil || got != nil {
		t.Errorf("no table: %v, %v; want none", got, err)
	}
	old := store.Schema{Table: "cells", Columns: []store.Column{{Name: "cell_id", Type: store.TypeString}, {Name: "makespan", Type: store.TypeInt64}}}
	recent := store.Schema{Table: "cells", Columns: []store.Column{{Name: "cell_id", Type: store.TypeString}, {Name: "replicate", Type: store.TypeInt64}, {Name: "makespan", Type: store.TypeInt64}}}
	for i, schema := range []store.Schema{old, recent} {
		w, err := NewPartWriter(dir, schema, WriterOptions{Tag: []string{"old", "new"}[i]})
		if err != nil {
			t.Fatal(err)
		}
		row := store.Row{store.String("c"), store.Int64(1)}
		if i == 1 {
			row = store.Row{store.String("c"), store.Int64(0), store.Int64(1)}
		}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := CommonColumns(dir, "cells"); err != nil || !slices.Equal(got, []string{"cell_id", "makespan"}) {
		t.Errorf("CommonColumns = %v, %v; want cell_id and makespan", got, err)
	}
}
