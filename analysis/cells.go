package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// ErrNoCells is returned by ReadCells when the results directory holds no
// cell rows.
var ErrNoCells = errors.New("no cell rows")

// Cell is one row of a run's cells table.
type Cell struct {
	ID       string
	Workload string // workload label, e.g. "log-independent"
	// Generator is the generator preset's name.
	Generator string
	Instance  int64
	// Replicate is the cell's replicate (0 in results written before
	// replicates existed).
	Replicate int64
	// Load is 0 when the table's load is null: campaign workloads run in
	// closed loop and have no load (DAG loads are positive).
	Load     float64
	Platform string
	Policy   string
	Failed   bool
	Error    string
	// Values holds the measures of the comparison (Result.Columns), integer
	// columns converted, NaN where the table has a null.
	Values []float64
	// Base and Weight are the cell's Measures.Rebase base and weight,
	// exact.
	Base, Weight int64
}

// PairKey identifies the cells that differ only by policy, and so are
// paired in the t-tests and dominance counts.
type PairKey struct {
	Workload  string
	Generator string
	Instance  int64
	Replicate int64
	// Load is 0 when the table's load is null: campaign workloads run in
	// closed loop and have no load (DAG loads are positive).
	Load     float64
	Platform string
}

// Key returns the cell's pair key.
func (c *Cell) Key() PairKey {
	return PairKey{Workload: c.Workload, Generator: c.Generator, Instance: c.Instance, Replicate: c.Replicate, Load: c.Load, Platform: c.Platform}
}

func comparePairKeys(a, b PairKey) int {
	return cmp.Or(
		cmp.Compare(a.Load, b.Load),
		cmp.Compare(a.Replicate, b.Replicate),
		cmp.Compare(a.Workload, b.Workload),
		cmp.Compare(a.Generator, b.Generator),
		cmp.Compare(a.Instance, b.Instance),
		cmp.Compare(a.Platform, b.Platform),
	)
}

// cellColumns are the identifying columns of the cells table that the
// analysis reads, before the metrics.
var cellColumns = []string{table.CellID, table.Workload, table.Generator, table.Instance, table.Load, table.Platform, table.Policy, table.Status, table.Error}

// ReadCells reads the cells table of the results directory dir, in cell
// id order (whatever the number of workers that wrote it, so that sums
// over the cells keep their bits), with the columns of measures that every
// part file has, which it returns. Part files that cannot be read are
// returned as problems and contribute no cells. It returns ErrNoCells
// (wrapped) when there is no row, and an error naming the cell when a
// status is neither "ok" nor "failed" or an ok cell lacks the base or
// weight of measures.Rebase (a row null in the re-based measure and its
// base is another model's). A row null in every measure is another
// model's cell (a rigid or moldable workload in a mixed run), left out.
// The replicate column is read part by part (see readReplicates), since a
// directory may mix parts written before replicates existed with newer
// ones.
func ReadCells(dir string, measures Measures) ([]Cell, []table.Measure, []parquet.Problem, error) {
	present, err := parquet.CommonColumns(dir, table.Cells)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading cells: %w", err)
	}
	var metrics []table.Measure
	for _, m := range measures.Columns {
		if len(present) == 0 || slices.Contains(present, m.Name) {
			metrics = append(metrics, m)
		}
	}
	set, problems, err := parquet.ReadColumns(dir, table.Cells, append(slices.Clone(cellColumns), columnNames(metrics)...))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading cells: %w", err)
	}
	if set.Rows == 0 {
		return nil, nil, problems, fmt.Errorf("reading cells of %s: %w", dir, ErrNoCells)
	}
	if err := set.SortRows(table.CellID); err != nil {
		return nil, nil, nil, fmt.Errorf("reading cells of %s: %w", dir, err)
	}
	cells, err := cellsOf(dir, set, metrics, measures.Rebase)
	if err != nil {
		return nil, nil, nil, err
	}
	replicates, err := readReplicates(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	for i := range cells {
		cells[i].Replicate = replicates[cells[i].ID]
	}
	return oneRowPerCell(cells), metrics, problems, nil
}

// cellsOf returns the cells of the rows of set with the measures metrics.
func cellsOf(dir string, set *parquet.ColumnSet, metrics []table.Measure, rebase *model.Rebase) ([]Cell, error) {
	col := func(name string, want store.Type) (*parquet.ColumnData, error) {
		c := set.Column(name)
		if c.Type != want {
			return nil, fmt.Errorf("reading cells of %s: column %q is %v; want %v", dir, name, c.Type, want)
		}
		return c, nil
	}
	var columnErr error
	str := func(name string) []string {
		c, err := col(name, store.TypeString)
		columnErr = cmp.Or(columnErr, err)
		if err != nil {
			return nil
		}
		return c.Strings
	}
	ids, workloads, generators := str(table.CellID), str(table.Workload), str(table.Generator)
	platforms, policies, statuses, errorTexts := str(table.Platform), str(table.Policy), str(table.Status), str(table.Error)
	instances, err := col(table.Instance, store.TypeInt64)
	columnErr = cmp.Or(columnErr, err)
	loads, err := col(table.Load, store.TypeFloat64)
	columnErr = cmp.Or(columnErr, err)
	metricData := make([]*parquet.ColumnData, len(metrics))
	for i, m := range metrics {
		want := store.TypeFloat64
		if m.Integer {
			want = store.TypeInt64
		}
		metricData[i], err = col(m.Name, want)
		columnErr = cmp.Or(columnErr, err)
	}
	if columnErr != nil {
		return nil, columnErr
	}
	var base, weight, measure *parquet.ColumnData
	if rebase != nil {
		measure = set.Column(rebase.Measure)
		if base, weight = set.Column(rebase.Base), set.Column(rebase.Weight); base == nil || weight == nil {
			return nil, fmt.Errorf("reading cells of %s: no column %q or %q to re-base %s", dir, rebase.Base, rebase.Weight, rebase.Measure)
		}
	}

	cells := make([]Cell, 0, set.Rows)
	for r := range set.Rows {
		if statuses[r] == table.StatusOK && allNull(metricData, r) {
			continue // another model's cell: its own analysis reads it
		}
		cells = append(cells, Cell{
			ID: ids[r], Workload: workloads[r], Generator: generators[r], Instance: instances.Int64s[r],
			Load: loads.Float64s[r], Platform: platforms[r], Policy: policies[r], Error: errorTexts[r],
			Values: valuesAt(metricData, r),
		})
		c := &cells[len(cells)-1]
		switch statuses[r] {
		case table.StatusOK:
		case table.StatusFailed:
			c.Failed = true
		default:
			return nil, fmt.Errorf("reading cells of %s: cell %s: status %q; want ok or failed", dir, c.ID, statuses[r])
		}
		if rebase == nil {
			continue
		}
		if measure != nil && measure.IsNull(r) && (base.IsNull(r) || weight.IsNull(r)) {
			continue // another model's cell, compared on other measures
		}
		if !c.Failed && (base.IsNull(r) || weight.IsNull(r)) {
			return nil, fmt.Errorf("reading cells of %s: cell %s: status ok but %s or %s is null", dir, c.ID, rebase.Base, rebase.Weight)
		}
		c.Base, c.Weight = base.Int64s[r], weight.Int64s[r]
	}
	return cells, nil
}

// valuesAt returns row r of columns as floats: integers converted, NaN
// for a null.
func valuesAt(columns []*parquet.ColumnData, r int) []float64 {
	values := make([]float64, len(columns))
	for i, data := range columns {
		switch {
		case data.IsNull(r):
			values[i] = math.NaN()
		case data.Type == store.TypeInt64:
			values[i] = float64(data.Int64s[r])
		default:
			values[i] = data.Float64s[r]
		}
	}
	return values
}

// allNull reports whether row r is null in every column.
func allNull(columns []*parquet.ColumnData, r int) bool {
	for _, c := range columns {
		if !c.IsNull(r) {
			return false
		}
	}
	return true
}

// oneRowPerCell keeps one row per cell id, in first-read order. An ok row
// wins over failed ones: `sweep run --retry-failed` appends the retried
// cell's ok row and leaves its old failed row in an older part file. Of
// several rows with the same status the first is kept: a cell written
// twice (a requeued shard) has the same numbers in both, by determinism.
func oneRowPerCell(cells []Cell) []Cell {
	at := make(map[string]int, len(cells))
	out := cells[:0]
	for _, c := range cells {
		i, seen := at[c.ID]
		switch {
		case !seen:
			at[c.ID] = len(out)
			out = append(out, c)
		case out[i].Failed && !c.Failed:
			out[i] = c
		}
	}
	return out
}

// A Group is the successful cells that share a pair key, one per policy.
type Group struct {
	Key   PairKey
	Cells map[string]*Cell // by policy
}

// Pairing is the cells of a run grouped for paired comparison.
type Pairing struct {
	// Groups are ordered by load, workload, generator, instance, platform.
	Groups []Group
	// Failed are the IDs of the failed cells, left out of every group.
	Failed []string
	// Unpaired are the IDs of successful cells that cannot be compared
	// with the reference: cells of another policy whose group lacks the
	// reference, and reference cells alone in their group.
	Unpaired []string
}

// PairCells groups the successful cells by pair key. The measure of
// rebase (in column rebaseColumn of Cell.Values; nil for none), stored at
// each cell's own base, is re-based in place to baseTicks when it is given,
// otherwise to the largest base of the cell's group, so every policy of a
// group is measured at one base (the grid's cumulative completion,
// DESIGN.md section 3). It returns an error naming both cells when two
// successful cells share a pair key and a policy.
func PairCells(cells []Cell, reference string, baseTicks *int64, rebase *model.Rebase, rebaseColumn int) (*Pairing, error) {
	byKey := map[PairKey]*Group{}
	var keys []PairKey
	pairing := &Pairing{}
	for i := range cells {
		c := &cells[i]
		if c.Failed {
			pairing.Failed = append(pairing.Failed, c.ID)
			continue
		}
		g := byKey[c.Key()]
		if g == nil {
			g = &Group{Key: c.Key(), Cells: map[string]*Cell{}}
			byKey[c.Key()] = g
			keys = append(keys, c.Key())
		}
		if other := g.Cells[c.Policy]; other != nil {
			return nil, fmt.Errorf("pairing cells: %s and %s both have policy %s for %+v; a run has one cell per policy and pair key", other.ID, c.ID, c.Policy, c.Key())
		}
		g.Cells[c.Policy] = c
	}
	slices.SortFunc(keys, comparePairKeys)
	slices.Sort(pairing.Failed)
	for _, key := range keys {
		g := byKey[key]
		base := int64(0)
		for _, c := range g.Cells {
			base = max(base, c.Base)
		}
		if baseTicks != nil {
			base = *baseTicks
		}
		for _, c := range g.Cells {
			if rebase != nil && rebaseColumn >= 0 {
				c.Values[rebaseColumn] = rebase.Func(c.Values[rebaseColumn], c.Base, base, c.Weight)
			}
			_, hasReference := g.Cells[reference]
			if c.Policy != reference && !hasReference || c.Policy == reference && len(g.Cells) == 1 {
				pairing.Unpaired = append(pairing.Unpaired, c.ID)
			}
		}
		pairing.Groups = append(pairing.Groups, *g)
	}
	slices.Sort(pairing.Unpaired)
	return pairing, nil
}

// readReplicates returns the replicate of every cell id of dir's cells
// table that has one: parts written before replicates existed have no
// replicate column, and their cells (absent from the map) are replicate
// 0. Unreadable parts are left out here as in ReadCells.
func readReplicates(dir string) (map[string]int64, error) {
	parts, _, err := parquet.ListParts(dir, table.Cells)
	if err != nil {
		return nil, fmt.Errorf("reading replicates of %s: %w", dir, err)
	}
	replicates := map[string]int64{}
	for _, part := range parts {
		set, err := parquet.ReadPart(part.Path, []string{table.CellID, table.Replicate})
		if err != nil {
			continue // no replicate column, or unreadable (a problem of ReadCells)
		}
		ids, reps := set.Column(table.CellID), set.Column(table.Replicate)
		if ids.Type != store.TypeString || reps.Type != store.TypeInt64 {
			return nil, fmt.Errorf("reading replicates of %s: %s: cell_id %v, replicate %v; want string and int64", dir, part.Path, ids.Type, reps.Type)
		}
		for i, id := range ids.Strings {
			replicates[id] = reps.Int64s[i]
		}
	}
	return replicates, nil
}
