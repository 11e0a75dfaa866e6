package grid

import "github.com/sweep-sched/sweep/analysis"

// PaperTable is one of seed 004's dominance tables.
type PaperTable struct {
	Title  string
	Metric string
}

// PaperTables are seed 004's Tables 3 and 4.
var PaperTables = []PaperTable{
	{Title: "Table 3: dominance over worst-case SLR", Metric: "slr_max"},
	{Title: "Table 4: dominance over mean SLR", Metric: "slr_mean"},
}

// DominanceCell is one cell of a dominance table, ours beside the paper's.
type DominanceCell struct {
	Load  float64
	Ours  *analysis.DominanceRow // nil when no pair was compared
	Paper float64
	// HasPaper says whether the manifest gives the paper's value;
	// PaperSignificant is meaningful only then.
	HasPaper         bool
	PaperSignificant bool
}

// Agrees reports whether the paper's value lies inside the Wilson 95%
// interval of ours (bounds included): a difference that sampling alone
// could produce. A fixed tolerance would be too lax at 99%, where the
// interval is a few points wide, and too strict near 50%, where it is
// about 16 points wide over 150 pairs.
func (c DominanceCell) Agrees() bool {
	return c.Ours != nil && c.HasPaper && c.Ours.Low <= c.Paper && c.Paper <= c.Ours.High
}

// SameSignificance reports whether ours and the paper agree on significance.
func (c DominanceCell) SameSignificance() bool {
	return c.Ours != nil && c.HasPaper && c.Ours.Significant == c.PaperSignificant
}

// DominanceGrid returns the cells of a paper table, by policy (every
// policy except the reference, in r.Policies order) and load.
func DominanceGrid(r *analysis.Result, metric string, expect analysis.Expectations) (policies []string, grid [][]DominanceCell) {
	for _, policy := range r.Policies {
		if policy == r.Settings.Reference {
			continue
		}
		policies = append(policies, policy)
		row := make([]DominanceCell, len(r.Loads))
		for j, load := range r.Loads {
			cell := DominanceCell{Load: load}
			if ours, ok := r.FindDominance(metric, policy, load); ok {
				cell.Ours = &ours
			}
			cell.Paper, cell.HasPaper = expect.PaperPercent(metric, policy, load)
			cell.PaperSignificant, _ = expect.PaperSignificant(metric, policy, load)
			row[j] = cell
		}
		grid = append(grid, row)
	}
	return policies, grid
}
