package grid

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/internal/deciles"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// DecileRow is one row of deciles.parquet: the jobs of one volume decile
// (1 = smallest jobs, 10 = largest) under Policy at Load, averaged over the
// cells that have jobs in that decile.
type DecileRow struct {
	Load    float64
	Policy  string
	Decile  int   // 1..DecileCount
	Jobs    int64 // jobs in this decile, summed over the cells
	Cells   int   // cells averaged
	SLRMean float64
	SLRMax  float64 // mean over the cells of the decile's worst SLR
}

// Deciles is the per-decile SLR of a run, from its jobs table.
type Deciles struct {
	// Rows are ordered by load, policy (in analysis.Result.Policies order), decile.
	Rows []DecileRow
	// CellsWithoutJobs are successful cells that have no job rows.
	CellsWithoutJobs []string
	// StrayJobRows counts job rows whose cell is not a successful cell
	// (a failed cell, or one missing from the cells table); they are left
	// out.
	StrayJobRows int
}

// ReadDeciles averages each volume decile's mean and worst SLR over the
// successful cells of pairing, per load and policy (policies in the given
// order), from the volume_deciles table of the results directory dir. A
// run written before that table existed is read from its jobs table
// instead, one part file at a time, so memory does not grow with the
// number of job rows. It returns nil when the run has neither table.
func ReadDeciles(dir string, pairing *analysis.Pairing, policies []string) (*Deciles, []parquet.Problem, error) {
	perCell, rows, problems, err := readVolumeDeciles(dir)
	if err != nil {
		return nil, nil, err
	}
	if perCell == nil {
		if perCell, rows, problems, err = decilesFromJobs(dir); err != nil || perCell == nil {
			return nil, problems, err
		}
	}
	type key struct {
		load   float64
		policy string
	}
	sums := map[key]*[table.DecileCount]DecileRow{}
	result := &Deciles{}
	known := 0
	for _, g := range pairing.Groups {
		for _, policy := range policies {
			c := g.Cells[policy]
			if c == nil {
				continue
			}
			cell, ok := perCell[c.ID]
			if !ok {
				result.CellsWithoutJobs = append(result.CellsWithoutJobs, c.ID)
				continue
			}
			known += cell.rows
			k := key{g.Key.Load, policy}
			acc := sums[k]
			if acc == nil {
				acc = new([table.DecileCount]DecileRow)
				sums[k] = acc
			}
			for _, d := range cell.deciles {
				row := &acc[d.Decile-1]
				row.Jobs += d.Jobs
				row.Cells++
				row.SLRMean += d.SLRSum / float64(d.Jobs)
				row.SLRMax += d.SLRMax
			}
		}
	}
	result.StrayJobRows = rows - known
	slices.Sort(result.CellsWithoutJobs)
	var loads []float64
	for _, g := range pairing.Groups {
		if len(loads) == 0 || loads[len(loads)-1] != g.Key.Load {
			loads = append(loads, g.Key.Load)
		}
	}
	for _, load := range loads {
		for _, policy := range policies {
			acc := sums[key{load, policy}]
			if acc == nil {
				continue
			}
			for d, row := range acc {
				if row.Cells == 0 {
					continue
				}
				row.Load, row.Policy, row.Decile = load, policy, d+1
				row.SLRMean /= float64(row.Cells)
				row.SLRMax /= float64(row.Cells)
				result.Rows = append(result.Rows, row)
			}
		}
	}
	return result, problems, nil
}

// cellDeciles are one cell's volume deciles and the number of job rows
// they summarise.
type cellDeciles struct {
	deciles []deciles.Decile
	rows    int
}

// readVolumeDeciles reads the volume_deciles table by cell; nil when the
// run has none. Of a cell written twice (a requeued shard), the first
// rows are kept; its numbers are the same in both by determinism.
func readVolumeDeciles(dir string) (map[string]*cellDeciles, int, []parquet.Problem, error) {
	parts, problems, err := parquet.ListParts(dir, table.VolumeDeciles)
	if err != nil || len(parts) == 0 {
		return nil, 0, problems, err
	}
	names := []string{table.CellID, table.Decile, table.DecileJobs, table.DecileSLRSum, table.DecileSLRMax}
	set, problems, err := parquet.ReadColumns(dir, table.VolumeDeciles, names)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("reading volume deciles: %w", err)
	}
	if err := checkTypes(dir, set, store.TypeString, store.TypeInt64, store.TypeInt64, store.TypeFloat64, store.TypeFloat64); err != nil {
		return nil, 0, nil, err
	}
	ids, decile, jobs, sum, worst := set.Columns[0].Strings, set.Columns[1].Int64s, set.Columns[2].Int64s, set.Columns[3].Float64s, set.Columns[4].Float64s
	perCell := map[string]*cellDeciles{}
	settled := map[string]bool{} // cells whose rows a previous part holds
	rows := 0
	for _, part := range set.Parts {
		seen := map[string]bool{}
		for r := rows; r < rows+int(part.Rows); r++ {
			if settled[ids[r]] {
				continue
			}
			seen[ids[r]] = true
			c := perCell[ids[r]]
			if c == nil {
				c = &cellDeciles{}
				perCell[ids[r]] = c
			}
			d := deciles.Decile{Decile: int(decile[r]), Jobs: jobs[r], SLRSum: sum[r], SLRMax: worst[r]}
			if d.Decile < 1 || d.Decile > table.DecileCount || d.Jobs < 1 {
				return nil, 0, nil, fmt.Errorf("reading volume deciles of %s: cell %s: decile %d with %d jobs; want 1..%d with >= 1 job", dir, ids[r], d.Decile, d.Jobs, table.DecileCount)
			}
			c.deciles = append(c.deciles, d)
			c.rows += int(d.Jobs)
		}
		for id := range seen {
			settled[id] = true
		}
		rows += int(part.Rows)
	}
	jobRows := 0
	for _, c := range perCell {
		jobRows += c.rows
	}
	return perCell, jobRows, problems, nil
}

// decilesFromJobs computes every cell's volume deciles from the jobs table,
// one part file at a time (a cell's job rows are published in one part).
// It returns nil when the run recorded no job rows.
func decilesFromJobs(dir string) (map[string]*cellDeciles, int, []parquet.Problem, error) {
	parts, problems, err := parquet.ListParts(dir, table.Jobs)
	if err != nil || len(parts) == 0 {
		return nil, 0, problems, err
	}
	names := []string{table.CellID, table.Job, table.JobVolume, table.JobSLR}
	perCell := map[string]*cellDeciles{}
	rows := 0
	for _, part := range parts {
		set, err := parquet.ReadPart(part.Path, names)
		if err != nil {
			problems = append(problems, parquet.Problem{Path: part.Path, Err: err})
			continue
		}
		if err := checkTypes(dir, set, store.TypeString, store.TypeInt64, store.TypeInt64, store.TypeFloat64); err != nil {
			return nil, 0, nil, err
		}
		rows += set.Rows
		ids, job, volume, slr := set.Columns[0].Strings, set.Columns[1].Int64s, set.Columns[2].Int64s, set.Columns[3].Float64s
		byCell := map[string][]int{}
		var order []string
		for r, id := range ids {
			if _, ok := byCell[id]; !ok {
				order = append(order, id)
			}
			byCell[id] = append(byCell[id], r)
		}
		for _, id := range order {
			if perCell[id] != nil {
				continue // written twice: the first copy counts
			}
			// deciles.Order breaks ties by position: order the rows by job
			// index so positions are job indices.
			rs := byCell[id]
			slices.SortFunc(rs, func(a, b int) int { return cmp.Compare(job[a], job[b]) })
			order := deciles.Order(rs, func(r *int) int64 { return volume[*r] })
			summary := deciles.Summarize(order, rs, func(r *int) float64 { return slr[*r] })
			perCell[id] = &cellDeciles{deciles: summary, rows: len(rs)}
		}
	}
	return perCell, rows, problems, nil
}

// checkTypes checks that the columns of set have the wanted types.
func checkTypes(dir string, set *parquet.ColumnSet, want ...store.Type) error {
	for i, w := range want {
		if c := set.Columns[i]; set.Rows > 0 && c.Type != w {
			return fmt.Errorf("reading %s: column %q is %v; want %v", dir, c.Name, c.Type, w)
		}
	}
	return nil
}
