package moldable

import (
	"fmt"
	"testing"

	mmoldable "github.com/sweep-sched/sweep/model/moldable"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// writeMoldableParts writes one part file of dir's cells table per group
// of rows, as a run's workers do: each holds the cells it happened to
// finish.
func writeMoldableParts(t *testing.T, dir string, parts [][]int, cmax []float64) {
	t.Helper()
	schema := table.CellsSchema(mmoldable.Model{}.Measures())
	for p, rows := range parts {
		w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: fmt.Sprintf("w%02d", p+1)})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range rows {
			row := store.Row{
				store.String(fmt.Sprintf("cell%d", i)), store.String("test"), store.String("w"), store.String("dutot2004/uniform-weak"),
				store.Int64(int64(i)), store.Int64(0), store.Null(), store.String("single:200"), store.String("DEMT"),
				store.Int64(7), store.String(table.StatusOK), store.Null(), store.Int64(3),
				store.Int64(25), store.Float64(cmax[i]), store.Float64(1), store.Float64(1), store.Float64(1),
				store.Float64(cmax[i]), store.Float64(1), store.Float64(0.01),
			}
			if err := w.Append(row); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAverageIndependentOfPartOrder: the average C_max ratio sums the
// cells' values, and a float sum depends on its order: in file order,
// (0.1 + 0.2) + 0.3 = 0.6000000000000001 but (0.3 + 0.2) + 0.1 = 0.6.
// Whichever worker wrote which cell, Read sums in cell id order, so both
// layouts give the bits of cell0 + cell1 + cell2.
func TestAverageIndependentOfPartOrder(t *testing.T) {
	cmax := []float64{0.1, 0.2, 0.3}
	var averages []float64
	for _, parts := range [][][]int{{{0, 1, 2}}, {{2}, {1, 0}}} {
		dir := t.TempDir()
		writeMoldableParts(t, dir, parts, cmax)
		cells, _, _, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := Summarize(cells).Point("dutot2004/uniform-weak", 25, "DEMT")
		if !ok {
			t.Fatal("no DEMT point at n = 25")
		}
		averages = append(averages, p.Cmax.Average)
	}
	want := (cmax[0] + cmax[1] + cmax[2]) / 3 // the sum's bits in cell id order
	if (cmax[2]+cmax[1]+cmax[0])/3 == want {
		t.Fatal("the test's values do not depend on the order of the sum")
	}
	for i, got := range averages {
		if got != want {
			t.Errorf("layout %d: average %.17g, want %.17g", i, got, want)
		}
	}
}
