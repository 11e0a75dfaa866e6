package report

import (
	"fmt"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"
)

// ranked returns the measures of r that have a better direction.
func ranked(r *analysis.Result) []table.Measure {
	var out []table.Measure
	for _, m := range r.Columns {
		if m.Better != table.Descriptive {
			out = append(out, m)
		}
	}
	return out
}

// measureLabel names a measure with its unit and direction, e.g.
// "makespan (ticks, lower is better)".
func measureLabel(m table.Measure) string {
	if m.Unit == "" {
		return fmt.Sprintf("%s (%s)", m.Name, m.Better)
	}
	return fmt.Sprintf("%s (%s, %s)", m.Name, m.Unit, m.Better)
}

// printMeasures prints, for each ranked measure of a model without a
// study, its dominance table (with any paper values of the manifest) and
// its means by load.
func printMeasures(r *analysis.Result, p *printer, expect analysis.Expectations) {
	for _, m := range ranked(r) {
		title := "Dominance"
		if m.Doc != "" {
			title += " over " + m.Doc
		}
		p.line("")
		printDominance(r, p, grid.PaperTable{Title: title, Metric: m.Name}, expect)
		p.line("")
		printMeans(r, p, fmt.Sprintf("mean %s by load (± half-width of the 95%% confidence interval)", measureLabel(m)), m.Name)
	}
}

// addMeasureFigures adds a box plot per policy of each ranked measure: over
// every cell when the run has several loads, else over the one load's.
func addMeasureFigures(p *page, r *analysis.Result, files *figureFiles) error {
	pooled := len(r.Loads) > 1
	for _, m := range ranked(r) {
		pl := newPlot()
		pl.Y.Label.Text = measureLabel(m)
		pl.X.Label.Text = "policy (every cell of every load and workload)"
		var boxes []stats.Box
		var names []string
		for _, box := range r.Boxes {
			if box.Metric == m.Name && box.Pooled == pooled {
				boxes = append(boxes, box.Box)
				names = append(names, box.Policy)
			}
		}
		if err := addBoxes(pl, boxes, names, names); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		readableTicks(&pl.Y)
		title := m.Name + " by policy"
		svg, err := files.add(chart{name: "measure-" + m.Name, plot: pl})
		if err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		p.MeasureFigures = append(p.MeasureFigures, figure{Title: title, SVG: svg, File: "measure-" + m.Name})
	}
	return nil
}
