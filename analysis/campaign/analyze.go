package campaign

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store/parquet"
)

// Result is the campaign analysis of a run beyond the paired comparison
// of its cells: the figures of merit beside the papers' values, the
// orderings the manifest expects, and the campaign-by-campaign
// comparisons.
type Result struct {
	// Workloads are the campaign workloads (Workloads), in name order.
	Workloads []string
	// Instances holds each workload's number of instances.
	Instances map[string]int
	// Figures and Orderings hold the rows of every workload, in Workloads
	// order (FigureTable, OrderingTable).
	Figures   []FigureRow
	Orderings []OrderingRow
	// Comparisons is nil when the run has no campaign workload or did not
	// record the campaigns table.
	Comparisons *Comparisons
	// Problems are unreadable part files of the campaigns table whose rows
	// were left out.
	Problems []parquet.Problem
}

// Analyze computes the campaign analysis of the results directory dir,
// whose cells r compares, beside the paper values of expect.
func Analyze(dir string, r *analysis.Result, expect analysis.Expectations) (*Result, error) {
	c := &Result{Workloads: Workloads(r), Instances: map[string]int{}}
	for _, w := range c.Workloads {
		c.Instances[w] = Instances(r, w)
		c.Figures = append(c.Figures, FigureTable(r, w, expect)...)
		c.Orderings = append(c.Orderings, OrderingTable(r, w, expect)...)
	}
	if len(c.Workloads) > 0 {
		comparisons, problems, err := Compare(dir, r)
		if err != nil {
			return nil, err
		}
		c.Comparisons, c.Problems = comparisons, problems
	}
	return c, nil
}

// FiguresOf returns the figure rows of workload.
func (c *Result) FiguresOf(workload string) []FigureRow {
	var rows []FigureRow
	for _, f := range c.Figures {
		if f.Workload == workload {
			rows = append(rows, f)
		}
	}
	return rows
}

// OrderingsOf returns the ordering rows of workload.
func (c *Result) OrderingsOf(workload string) []OrderingRow {
	var rows []OrderingRow
	for _, o := range c.Orderings {
		if o.Workload == workload {
			rows = append(rows, o)
		}
	}
	return rows
}
