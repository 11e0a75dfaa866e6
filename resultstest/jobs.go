package resultstest

import (
	"testing"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
)

// WriteJobs writes job rows (cell, job, volume, slr) as the jobs table of
// dir, in the runner's column layout; the other columns are filler.
func WriteJobs(t *testing.T, dir string, rows []store.Row) {
	t.Helper()
	schema := store.Schema{Table: "jobs"}
	for _, name := range []string{"cell_id", "job", "arrival", "start", "finish", "volume", "critical_path", "slr", "stretch", "speedup", "tasks"} {
		typ := store.TypeInt64
		switch name {
		case "cell_id":
			typ = store.TypeString
		case "slr", "stretch", "speedup":
			typ = store.TypeFloat64
		}
		schema.Columns = append(schema.Columns, store.Column{Name: name, Type: typ})
	}
	w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		// r is cell, job, volume, slr.
		one := store.Int64(1)
		row := store.Row{r[0], r[1], one, one, one, r[2], one, r[3], store.Float64(1), store.Float64(1), one}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// JobRow is the cell, job, volume and slr of a job row for WriteJobs.
func JobRow(cell string, job, volume int64, slr float64) store.Row {
	return store.Row{store.String(cell), store.Int64(job), store.Int64(volume), store.Float64(slr)}
}
