package sweep

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// finishedCells is what a results directory's cells table holds: each
// cell's status, and each cell's name (its place in an experiment) with
// the part metadata of the run that wrote it.
type finishedCells struct {
	status   map[string]string            // by cell id; ok wins over failed
	name     map[string]string            // by cell id
	metadata map[string]map[string]string // by cell id: the metadata of its first part
	problems []parquet.Problem
}

// identityColumns are the cells-table columns a cell's name is made of.
// The replicate (results written before replicates existed lack it: all
// replicate 0) and the month (only period cells have it) are optional.
var identityColumns = []string{table.CellID, table.Status, table.Workload, table.Instance, table.Load, table.Platform, table.Policy}

// readFinished reads the cells table of out part by part, so that parts
// of runs with other measures (another model's, an older version's) are
// read by the columns each has. A part of a child table (jobs, users,
// campaigns...) that cannot be read makes the cells part published with
// it (of the same name) a problem too: its cells run again, and repair
// moves the flush's other parts aside.
func readFinished(out string, children []string) (*finishedCells, error) {
	parts, problems, err := parquet.ListParts(out, table.Cells)
	if err != nil {
		return nil, fmt.Errorf("reading finished cells in %s: %w", out, err)
	}
	childProblems, err := tableProblems(out, children)
	if err != nil {
		return nil, err
	}
	badFlush := map[string]parquet.Problem{}
	for _, p := range childProblems {
		badFlush[filepath.Base(p.Path)] = p
	}
	f := &finishedCells{status: map[string]string{}, name: map[string]string{}, metadata: map[string]map[string]string{},
		problems: append(problems, childProblems...)}
	for _, part := range parts {
		if p, ok := badFlush[filepath.Base(part.Path)]; ok {
			f.problems = append(f.problems, parquet.Problem{Path: part.Path, Err: fmt.Errorf("published with the unreadable %s", p.Path)})
			continue
		}
		columns := slices.Clone(identityColumns)
		for _, optional := range []string{table.Replicate, table.FairMonth} {
			if slices.Contains(part.Columns, optional) {
				columns = append(columns, optional)
			}
		}
		set, err := parquet.ReadPart(part.Path, columns)
		if err != nil {
			// Unreadable since ListParts read its footer: a problem like
			// any other, its cells rerun.
			f.problems = append(f.problems, parquet.Problem{Path: part.Path, Err: err})
			continue
		}
		f.add(set, part.Metadata)
	}
	return f, nil
}

// add takes the rows of one part.
func (f *finishedCells) add(set *parquet.ColumnSet, metadata map[string]string) {
	ids, st := set.Column(table.CellID).Strings, set.Column(table.Status).Strings
	for i, id := range ids {
		if f.status[id] != table.StatusOK {
			f.status[id] = st[i]
		}
		if _, ok := f.name[id]; !ok {
			f.name[id] = rowCell(set, i).Name()
			f.metadata[id] = metadata
		}
	}
}

// rowCell is the identity of row i of a cells part as the manifest's
// cells carry it, so that the name of a finished cell and of the
// manifest's cell in the same place are the same (Cell.Name): a trace
// period's cell is named by its month, which the cells table keeps in
// the month column (yyyymm).
func rowCell(set *parquet.ColumnSet, i int) model.Cell {
	c := model.Cell{
		Workload: set.Column(table.Workload).Strings[i], Instance: int(set.Column(table.Instance).Int64s[i]),
		Load: set.Column(table.Load).Float64s[i], Platform: set.Column(table.Platform).Strings[i], Policy: set.Column(table.Policy).Strings[i],
	}
	if r := set.Column(table.Replicate); r != nil {
		c.Replicate = int(r.Int64s[i])
	}
	if month := set.Column(table.FairMonth); month != nil && !month.IsNull(i) {
		c.Period = model.MonthPeriod(month.Int64s[i])
	}
	return c
}

// checkUnchanged refuses a manifest whose cell has the name of a finished
// cell of another id: the same place in the experiment computed with
// other settings, policy files, inputs or model versions. Cells whose id
// is in the manifest are consistent by their id and not compared.
func (m *Manifest) checkUnchanged(out string, cells []Cell, inManifest map[string]bool, finished *finishedCells) error {
	byName := map[string]string{}
	for id, name := range finished.name {
		if !inManifest[id] {
			byName[name] = id
		}
	}
	for _, c := range cells {
		id, ok := byName[c.Name()]
		if !ok || id == c.ID {
			continue
		}
		differences := append(m.manifestChanges(out), m.metadataChanges(c, finished.metadata[id])...)
		return &ChangedError{Out: out, Cell: c.Name(), Differences: differences, ModelVersions: m.models.Versions()}
	}
	return nil
}

// tableProblems returns the part files of the tables that cannot be read
// (their footers: a truncated file has none).
func tableProblems(out string, tables []string) ([]parquet.Problem, error) {
	var problems []parquet.Problem
	for _, name := range tables {
		_, p, err := parquet.ListParts(out, name)
		if err != nil {
			return nil, fmt.Errorf("checking table %s of %s: %w", name, out, err)
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

// UnreadableParts returns the part files of every table of the results
// directory out (cells, jobs, users, campaigns...) that cannot be read,
// such as a part truncated by a full disk: their rows are missing from
// every reader until a run of the manifest moves them aside and runs
// their cells again.
func UnreadableParts(out string) ([]parquet.Problem, error) {
	children, err := childTablesIn(out)
	if err != nil {
		return nil, err
	}
	return tableProblems(out, append([]string{table.Cells}, children...))
}
