package grid

import (
	"math"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store/table"
)

// WorstCell is the cell where a policy did worst on a metric.
type WorstCell struct {
	Policy string
	Cell   *analysis.Cell
	Value  float64
}

// WorstCells returns, for every policy in r.Policies order, its
// successful cell with the worst value of metric (the largest for a
// lower-is-better metric, the smallest otherwise; the first in pair-group
// order on a tie), or nothing for a policy without a value. It returns
// nil for a metric that is not a ranked value column.
func WorstCells(r *analysis.Result, metric string) []WorstCell {
	m := r.Column(metric)
	if m < 0 || r.Columns[m].Better == table.Descriptive {
		return nil
	}
	lowerIsBetter := r.Columns[m].Better == table.LowerIsBetter
	var worst []WorstCell
	for _, policy := range r.Policies {
		var w *WorstCell
		for _, g := range r.Pairing.Groups {
			c := g.Cells[policy]
			if c == nil || math.IsNaN(c.Values[m]) {
				continue
			}
			v := c.Values[m]
			if w == nil || lowerIsBetter && v > w.Value || !lowerIsBetter && v < w.Value {
				w = &WorstCell{Policy: policy, Cell: c, Value: v}
			}
		}
		if w != nil {
			worst = append(worst, *w)
		}
	}
	return worst
}
