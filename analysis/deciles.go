package analysis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// DecileCount is the number of volume classes of Fig. 7 of seed 004.
const DecileCount = 10

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
	// Rows are ordered by load, policy (in Result.Policies order), decile.
	Rows []DecileRow
	// CellsWithoutJobs are successful cells that have no job rows.
	CellsWithoutJobs []string
	// StrayJobRows counts job rows whose cell is not a successful cell
	// (a failed cell, or one missing from the cells table); they are left
	// out.
	StrayJobRows int
}

// decileStats summarises the SLRs of one decile of one cell.
type decileStats struct {
	jobs      int64
	sum, max  float64
	populated bool
}

// cellDeciles cuts one cell's jobs into deciles of volume: jobs are sorted
// by volume, ties by job index, and the k-th of n (from 0) falls in decile
// floor(10k/n) (0-based), so the deciles hold floor or ceil of n/10 jobs
// each and, for n < 10, some stay empty.
func cellDeciles(job, volume []int64, slr []float64) [DecileCount]decileStats {
	order := make([]int, len(job))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(volume[a], volume[b]), cmp.Compare(job[a], job[b]))
	})
	var deciles [DecileCount]decileStats
	n := len(order)
	for k, i := range order {
		d := &deciles[DecileCount*k/n]
		if !d.populated || slr[i] > d.max {
			d.max = slr[i]
		}
		d.populated = true
		d.jobs++
		d.sum += slr[i]
	}
	return deciles
}

// ReadDeciles reads the jobs table of the results directory dir and
// averages each decile's mean and worst SLR over the successful cells of
// pairing, per load and policy (policies in the given order). It returns
// nil when the run recorded no job rows.
func ReadDeciles(dir string, pairing *Pairing, policies []string) (*Deciles, []store.Problem, error) {
	parts, problems, err := store.ListParts(dir, table.Jobs)
	if err != nil {
		return nil, nil, fmt.Errorf("reading jobs: %w", err)
	}
	if len(parts) == 0 {
		return nil, problems, nil
	}
	set, problems, err := store.ReadColumns(dir, table.Jobs, []string{table.CellID, table.Job, table.JobVolume, table.JobSLR})
	if err != nil {
		return nil, nil, fmt.Errorf("reading jobs: %w", err)
	}
	ids, job, volume, slr := set.Columns[0], set.Columns[1], set.Columns[2], set.Columns[3]
	for _, c := range []struct {
		data *store.ColumnData
		want store.Type
	}{{&ids, store.TypeString}, {&job, store.TypeInt64}, {&volume, store.TypeInt64}, {&slr, store.TypeFloat64}} {
		if set.Rows > 0 && c.data.Type != c.want {
			return nil, nil, fmt.Errorf("reading jobs of %s: column %q is %v; want %v", dir, c.data.Name, c.data.Type, c.want)
		}
	}
	rowsOf := map[string][]int{}
	for r, id := range ids.Strings {
		rowsOf[id] = append(rowsOf[id], r)
	}

	type key struct {
		load   float64
		policy string
	}
	sums := map[key]*[DecileCount]DecileRow{}
	result := &Deciles{}
	known := 0
	for _, g := range pairing.Groups {
		for _, policy := range policies {
			c := g.Cells[policy]
			if c == nil {
				continue
			}
			rows := rowsOf[c.ID]
			if len(rows) == 0 {
				result.CellsWithoutJobs = append(result.CellsWithoutJobs, c.ID)
				continue
			}
			known += len(rows)
			cellJob, cellVolume, cellSLR := make([]int64, len(rows)), make([]int64, len(rows)), make([]float64, len(rows))
			for i, r := range rows {
				cellJob[i], cellVolume[i], cellSLR[i] = job.Int64s[r], volume.Int64s[r], slr.Float64s[r]
			}
			k := key{g.Key.Load, policy}
			acc := sums[k]
			if acc == nil {
				acc = new([DecileCount]DecileRow)
				sums[k] = acc
			}
			for d, stats := range cellDeciles(cellJob, cellVolume, cellSLR) {
				if !stats.populated {
					continue
				}
				acc[d].Jobs += stats.jobs
				acc[d].Cells++
				acc[d].SLRMean += stats.sum / float64(stats.jobs)
				acc[d].SLRMax += stats.max
			}
		}
	}
	result.StrayJobRows = set.Rows - known
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
