package campaign

import (
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
)

// An OrderingRow is one ordering of expect.orderings checked against our
// figures: a row of orderings.parquet.
type OrderingRow struct {
	Workload, Metric string
	analysis.Ordering
	// LeftMean and RightMean are the figure's means over instances under
	// Left and Right (FigureTable); NaN without a value.
	LeftMean, RightMean float64
	Holds               bool
}

// OrderingTable returns the orderings that expect gives for workload (its
// own and those of analysis.AnyWorkload), in metric name order, each checked
// against the figure's means (FigureTable, which lists every metric with
// an ordering).
func OrderingTable(r *analysis.Result, workload string, expect analysis.Expectations) []OrderingRow {
	var rows []OrderingRow
	var figures []FigureRow
	for _, label := range []string{workload, analysis.AnyWorkload} {
		for _, metric := range sortedKeys(expect.Orderings[label]) {
			if figures == nil {
				figures = FigureTable(r, workload, expect)
			}
			mean := func(policy string) float64 {
				if i := slices.IndexFunc(figures, func(f FigureRow) bool { return f.Metric == metric && f.Policy == policy }); i >= 0 && figures[i].HasOurs() {
					return figures[i].Mean
				}
				return math.NaN()
			}
			for _, o := range expect.Orderings[label][metric] {
				row := OrderingRow{Workload: workload, Metric: metric, Ordering: o, LeftMean: mean(o.Left), RightMean: mean(o.Right)}
				row.Holds = o.Holds(row.LeftMean, row.RightMean)
				rows = append(rows, row)
			}
		}
	}
	return rows
}
