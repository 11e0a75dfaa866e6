package report

import (
	"cmp"
	"fmt"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"
)

// ranked returns the measures among of that r compares and that have a
// better direction.
func ranked(r *analysis.Result, of []table.Measure) []table.Measure {
	var out []table.Measure
	for _, m := range of {
		if i := r.Column(m.Name); i >= 0 && r.Columns[i].Better != table.Descriptive {
			out = append(out, r.Columns[i])
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

// printMeasures prints, for each ranked measure of models without a study,
// its dominance table (with any paper values of the manifest) and its
// means by load.
func printMeasures(r *analysis.Result, p *printer, measures []table.Measure, expect analysis.Expectations) {
	for _, m := range ranked(r, measures) {
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

// addMeasureFigures draws the figures of the measures of models without a
// study (Paired.Figures); a figure of a measure the run lacks is left out.
func addMeasureFigures(p *page, r *analysis.Result, figures []model.Figure, files *figureFiles) error {
	for _, f := range figures {
		m := r.Column(f.Measure)
		if m < 0 {
			continue
		}
		measure := r.Columns[m]
		var ch chart
		var err error
		title := f.Title
		switch f.Kind {
		case model.MeanByLoad:
			// The y label leaves the direction to the title: with the
			// log scale's note it would outgrow the axis.
			title = cmp.Or(title, "mean "+measure.Name+" by load ("+measure.Better.String()+"), with 95% confidence intervals")
			label := "mean " + measure.Name
			if measure.Unit != "" {
				label += " (" + measure.Unit + ")"
			}
			ch, err = meanByLoad(r, measure.Name, label, "measure-"+measure.Name+"-by-load")
		default:
			title = cmp.Or(title, measure.Name+" by policy")
			ch, err = measureBoxes(r, measure)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		svg, err := files.add(ch)
		if err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		p.MeasureFigures = append(p.MeasureFigures, figure{Title: title, SVG: svg, File: ch.name})
	}
	return nil
}

// measureBoxes draws a box per policy of measure: over every cell when
// the run has several loads, else over the one load's.
func measureBoxes(r *analysis.Result, measure table.Measure) (chart, error) {
	pooled := len(r.Loads) > 1
	pl := newPlot()
	pl.Y.Label.Text = measureLabel(measure)
	pl.X.Label.Text = "policy (every cell of every load and workload)"
	var boxes []stats.Box
	var names []string
	for _, box := range r.Boxes {
		if box.Metric == measure.Name && box.Pooled == pooled {
			boxes = append(boxes, box.Box)
			names = append(names, box.Policy)
		}
	}
	if err := addBoxes(pl, boxes, names, names); err != nil {
		return chart{}, err
	}
	readableTicks(&pl.Y)
	return chart{name: "measure-" + measure.Name, plot: pl}, nil
}
