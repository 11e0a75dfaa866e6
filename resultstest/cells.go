package resultstest

import (
	"strconv"
	"testing"

	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Cell is a row of a hand-made cells table. Metrics not named in
// values are 1; makespan and volume_total come from their own fields.
type Cell struct {
	ID                    string
	Instance              int64
	Replicate             int64
	Load                  float64
	Policy                string
	Failed                bool
	Makespan, VolumeTotal int64
	Values                map[string]float64
}

// CellsSchema is the cells table as the runner writes it: identity
// columns, then every metric of MetricColumns.
func CellsSchema() store.Schema {
	var measures []table.Measure
	for _, m := range grid.MetricColumns() {
		measures = append(measures, table.Measure{Name: m.Name, Integer: m.Integer})
	}
	return table.CellsSchema(measures)
}

// WriteCells writes cells as the cells table of dir.
func WriteCells(t *testing.T, dir string, cells []Cell) {
	t.Helper()
	WriteCellsPart(t, dir, "test", nil, cells)
}

// WriteCellsPart writes cells as one part file of dir's cells table, named
// by tag, with metadata (nil for none) in its footer.
func WriteCellsPart(t *testing.T, dir, tag string, metadata map[string]string, cells []Cell) {
	t.Helper()
	writeCells(t, dir, CellsSchema(), tag, metadata, cells)
}

// WriteCellsInOrder writes cells as the cells table of dir, its policy
// column stating policies as its categories, as a manifest's run does.
func WriteCellsInOrder(t *testing.T, dir string, policies []string, cells []Cell) {
	t.Helper()
	schema := CellsSchema()
	for i, c := range schema.Columns {
		if c.Name == table.Policy {
			schema.Columns[i].Categories = policies
		}
	}
	writeCells(t, dir, schema, "test", nil, cells)
}

func writeCells(t *testing.T, dir string, schema store.Schema, tag string, metadata map[string]string, cells []Cell) {
	t.Helper()
	w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: tag, Metadata: metadata})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		status, errText := store.String("ok"), store.Null()
		if c.Failed {
			status, errText = store.String("failed"), store.String("simulated failure")
		}
		row := store.Row{
			store.String(c.ID), store.String("test"), store.String("log-independent"), store.String("gen"),
			store.Int64(c.Instance), store.Int64(c.Replicate), store.Float64(c.Load), store.String("grid"), store.String(c.Policy),
			store.Int64(7), status, errText, store.Int64(3),
		}
		row = append(row, c.Metrics()...)
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// Metrics returns the cell's metric values in MetricColumns order: null
// for a failed cell, its makespan and volume, 1 for other integers, and
// values or 1 for the floats.
func (c Cell) Metrics() []store.Value {
	var out []store.Value
	for _, m := range grid.MetricColumns() {
		switch {
		case c.Failed:
			out = append(out, store.Null())
		case m.Name == "makespan":
			out = append(out, store.Int64(c.Makespan))
		case m.Name == "volume_total":
			out = append(out, store.Int64(c.VolumeTotal))
		case m.Integer:
			out = append(out, store.Int64(1))
		default:
			v, ok := c.Values[m.Name]
			if !ok {
				v = 1
			}
			out = append(out, store.Float64(v))
		}
	}
	return out
}

// SmallRun is a hand-made run of two loads and three policies:
//
//	load 1.0, instances 0-3: slr_max pslr 2 3 4 5, srtf 3 3 6 9, lrtf 1 4 3 6
//	load 1.2, instances 0-1: slr_max pslr 2.5 3.5, srtf 4 3
//	load 1.2, instance 2: pslr ok, srtf failed (so pslr is unpaired)
//	load 1.2, instance 3: srtf only (unpaired)
//
// slr_mean is slr_max / 2; cumulative completion is 500 at each cell's own
// makespan, which is 10 for pslr, 12 for srtf and 11 for lrtf, with a
// volume of 100.
func SmallRun() []Cell {
	var cells []Cell
	add := func(policy string, load float64, instance int64, slrMax float64) {
		makespan := map[string]int64{"pslr": 10, "srtf": 12, "lrtf": 11}[policy]
		cells = append(cells, Cell{
			ID: policy + "-" + strconv.FormatFloat(load, 'f', 1, 64) + "-" + string(rune('0'+instance)), Instance: instance, Load: load,
			Policy: policy, Makespan: makespan, VolumeTotal: 100,
			Values: map[string]float64{"slr_max": slrMax, "slr_mean": slrMax / 2, "cumulative_completion": 500},
		})
	}
	for i, v := range []float64{2, 3, 4, 5} {
		add("pslr", 1.0, int64(i), v)
	}
	for i, v := range []float64{3, 3, 6, 9} {
		add("srtf", 1.0, int64(i), v)
	}
	for i, v := range []float64{1, 4, 3, 6} {
		add("lrtf", 1.0, int64(i), v)
	}
	add("pslr", 1.2, 0, 2.5)
	add("pslr", 1.2, 1, 3.5)
	add("srtf", 1.2, 0, 4)
	add("srtf", 1.2, 1, 3)
	add("pslr", 1.2, 2, 3)
	cells = append(cells, Cell{ID: "srtf-1.2-2", Instance: 2, Load: 1.2, Policy: "srtf", Failed: true})
	add("srtf", 1.2, 3, 8)
	return cells
}

// SmallRunDir writes SmallRun as the cells table of a new temporary
// directory and returns it.
func SmallRunDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	WriteCells(t, dir, SmallRun())
	return dir
}

// replicatedRun is SmallRun as replicate 0 and again as replicate 1,
// where srtf's slr_max at load 1.0 is 1 3 6 9 instead of 3 3 6 9: pslr
// (2 3 4 5) is at least as good in 3 of 4 pairs (75%) there, 4 of 4
// (100%) in replicate 0. It returns the directory.
func ReplicatedRunDir(t *testing.T) string {
	t.Helper()
	cells := SmallRun()
	for _, c := range SmallRun() {
		c.ID += "-r1"
		c.Replicate = 1
		if c.Policy == "srtf" && c.Load == 1 && c.Instance == 0 {
			c.Values["slr_max"] = 1
			c.Values["slr_mean"] = 0.5
		}
		cells = append(cells, c)
	}
	dir := t.TempDir()
	WriteCells(t, dir, cells)
	return dir
}
