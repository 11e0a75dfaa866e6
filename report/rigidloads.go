package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store/table"
)

// The rigid model's load measures (model/rigid/measures.go) that the load
// study reads.
const (
	rigidTargetLoad   = "offered_load_target"
	rigidAchievedLoad = "offered_load_achieved"
	rigidBSLDMean     = "bsld_mean"
)

// achievedLoadTolerance is how far, relative to the target, a cell's
// achieved offered load may be before the check flags its load (issue 32:
// within 0.5%).
const achievedLoadTolerance = 0.005

// AchievedLoad is the achieved-load check of one target load: the
// smallest and largest offered load the load rule achieved over the
// successful cells at that load, Off when one of them is further than
// achievedLoadTolerance (relative) from the target.
type AchievedLoad struct {
	Load     float64
	Cells    int
	Min, Max float64
	Off      bool
}

// achievedLoads returns the achieved-load check of every load of r's
// successful cells that has one (cells at their recorded arrivals, load
// 0, have none); nil when r has no achieved-load column.
func achievedLoads(r *analysis.Result) []AchievedLoad {
	col := r.Column(rigidAchievedLoad)
	if col < 0 {
		return nil
	}
	byLoad := map[float64]*AchievedLoad{}
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			a := c.Values[col]
			if c.Load <= 0 || math.IsNaN(a) {
				continue
			}
			row := byLoad[c.Load]
			if row == nil {
				row = &AchievedLoad{Load: c.Load, Min: a, Max: a}
				byLoad[c.Load] = row
			}
			row.Cells++
			row.Min, row.Max = min(row.Min, a), max(row.Max, a)
		}
	}
	var out []AchievedLoad
	for _, row := range byLoad {
		off := func(a float64) bool { return math.Abs(a-row.Load) > achievedLoadTolerance*row.Load }
		row.Off = off(row.Min) || off(row.Max)
		out = append(out, *row)
	}
	slices.SortFunc(out, func(a, b AchievedLoad) int { return cmp.Compare(a.Load, b.Load) })
	return out
}

// printAchievedLoads prints the achieved-load check.
func printAchievedLoads(p *printer, rows []AchievedLoad) {
	if len(rows) == 0 {
		return
	}
	p.line("")
	p.line("Achieved offered load per target load (min-max over the cells; OFF: a cell more than %g%% from the target)", 100*achievedLoadTolerance)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "load\tcells\tmin\tmax\tcheck\t")
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%s\t\n", FormatLoad(row.Load), row.Cells, row.Min, row.Max, achievedCheck(row))
	}
	tw.Flush()
	p.lines(b.String())
}

// achievedCheck says whether a load's cells are within the tolerance.
func achievedCheck(row AchievedLoad) string {
	if row.Off {
		return "OFF"
	}
	return "ok"
}

// isRigidMonth reports whether a cell is a trace month of seed 003's
// study (its month column, yyyymm, positive), which the fair-share
// tables read and the paired comparison leaves out: every month of a
// trace, variant and platform shares one pair key.
func isRigidMonth(c *analysis.Cell, columns []table.Measure) bool {
	i := slices.IndexFunc(columns, func(m table.Measure) bool { return m.Name == table.FairMonth })
	return i >= 0 && c.Values[i] > 0
}

// achievedLoadRow is a row of the page's achieved-load table.
type achievedLoadRow struct {
	Load     string
	Cells    int
	Min, Max string
	Check    string
	Off      bool
}
