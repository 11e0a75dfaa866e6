package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
)

// spreadCell is one comparison across replicates.
type spreadCell struct {
	Values, Range, Interval, Paper string
	// InRange and InInterval say whether the paper's value lies in the
	// replicates' range and in the t interval of their mean.
	HasPaper, InRange, InInterval bool
}

type spreadRow struct {
	Policy string
	Cells  []spreadCell
}

// spreadTable is a paper table across the replicates of a run.
type spreadTable struct {
	Title, Metric, Summary string
	Rows                   []spreadRow
}

// spreads builds the across-replicate table of paper table t.
func spreads(r *analysis.Result, t grid.PaperTable, expect analysis.Expectations) spreadTable {
	table := spreadTable{Title: t.Title, Metric: t.Metric}
	var withPaper, inRange, inInterval int
	for _, policy := range r.Policies {
		if policy == r.Settings.Reference {
			continue
		}
		row := spreadRow{Policy: policy}
		for _, load := range r.Loads {
			cell := spreadCell{Values: "-"}
			if s, ok := r.FindSpread(t.Metric, policy, load); ok {
				values := make([]string, len(s.Percents))
				for k, v := range s.Percents {
					values[k] = strconv.FormatFloat(math.Round(10*v)/10, 'f', -1, 64)
				}
				cell.Values = strings.Join(values, " / ")
				cell.Range = span(s.Min, s.Max)
				if !math.IsNaN(s.Low) {
					// A percentage's mean lies in [0, 100] whatever its t
					// interval says.
					cell.Interval = span(max(0, s.Low), min(100, s.High))
				}
				if paper, ok := expect.PaperPercent(t.Metric, policy, load); ok {
					withPaper++
					cell.HasPaper, cell.Paper = true, FormatPercent(paper)
					cell.InRange, cell.InInterval = s.Contains(paper)
					if cell.InRange {
						inRange++
					}
					if cell.InInterval {
						inInterval++
					}
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		table.Rows = append(table.Rows, row)
	}
	if withPaper > 0 {
		table.Summary = fmt.Sprintf("the paper's value lies in the replicates' range in %d of %d cells, in the t interval of their mean in %d of %d",
			inRange, withPaper, inInterval, withPaper)
	}
	return table
}

// span renders an interval of percentages, one number when it is a point.
func span(low, high float64) string {
	if low == high {
		return fmt.Sprintf("%.1f", low)
	}
	return fmt.Sprintf("%.1f-%.1f", low, high)
}
