package report

import (
	"fmt"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
)

// testCell is one comparison of a tests table: both p-values and the
// effect size.
type testCell struct {
	T, W, Ratio, RatioInterval string
	// Disagree says the two tests reach different conclusions.
	Disagree bool
}

type testRow struct {
	Policy string
	Cells  []testCell
}

// testTable is the tests of the comparisons of one paper table.
type testTable struct {
	Title, Metric, Summary string
	Rows                   []testRow
}

// rankTests builds the tests table of paper table t.
func rankTests(r *analysis.Result, t grid.PaperTable) testTable {
	table := testTable{Title: t.Title, Metric: t.Metric}
	var compared, disagree int
	for _, policy := range r.Policies {
		if policy == r.Settings.Reference {
			continue
		}
		row := testRow{Policy: policy}
		for _, load := range r.Loads {
			cell := testCell{T: "-", W: "-", Ratio: "-"}
			w, ok := r.FindRankTest(t.Metric, policy, load)
			tt, okT := r.FindTTest(t.Metric, policy, load)
			if ok && okT {
				compared++
				cell.T = FormatP(tt.EffectiveP())
				cell.W = FormatP(w.EffectiveP())
				cell.Disagree = w.DisagreesWithTTest()
				if cell.Disagree {
					disagree++
				}
				if w.HasEffect {
					cell.Ratio = FormatRatio(w.Effect.Estimate)
					cell.RatioInterval = FormatRatio(w.Effect.Low) + "-" + FormatRatio(w.Effect.High)
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		table.Rows = append(table.Rows, row)
	}
	table.Summary = fmt.Sprintf("the two tests disagree on significance in %d of %d cells", disagree, compared)
	return table
}
