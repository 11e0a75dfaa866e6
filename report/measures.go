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

// printWorkloadMeans prints, for each figure drawn per workload, the
// means by load of each workload of a run with several: the paired
// comparison pools them, and a synthetic model's instances and a trace's
// cells can rank the policies differently.
func printWorkloadMeans(r *analysis.Result, p *printer, figures []model.Figure) {
	workloads := r.Workloads()
	if len(workloads) < 2 {
		return
	}
	for _, f := range figures {
		m := r.Column(f.Measure)
		if f.Kind != model.MeanByLoadPerWorkload || m < 0 {
			continue
		}
		for _, w := range workloads {
			p.line("")
			printMeansOf(r, p, fmt.Sprintf("mean %s by load, workload %s (± half-width of the 95%% confidence interval)", measureLabel(r.Columns[m]), w),
				func(policy string, load float64) (stats.MeanInterval, bool) {
					return r.MeanOfWorkload(f.Measure, policy, w, load)
				})
		}
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
		charts, err := measureCharts(r, f, r.Columns[m])
		if err != nil {
			return err
		}
		for _, c := range charts {
			svg, err := files.add(c.chart)
			if err != nil {
				return fmt.Errorf("%s: %w", c.title, err)
			}
			p.MeasureFigures = append(p.MeasureFigures, figure{Title: c.title, SVG: svg, File: c.chart.name})
		}
	}
	return nil
}

// titledChart is a chart with the title the page gives it.
type titledChart struct {
	title string
	chart chart
}

// measureCharts draws figure f of measure.
func measureCharts(r *analysis.Result, f model.Figure, measure table.Measure) ([]titledChart, error) {
	if f.Kind == model.BoxByPolicy {
		title := cmp.Or(f.Title, measure.Name+" by policy")
		ch, err := measureBoxes(r, measure)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", title, err)
		}
		return []titledChart{{title, ch}}, nil
	}
	// The y label leaves the direction to the title: with the log
	// scale's note it would outgrow the axis.
	title := cmp.Or(f.Title, "mean "+measure.Name+" by load ("+measure.Better.String()+"), with 95% confidence intervals")
	label := "mean " + measure.Name
	if measure.Unit != "" {
		label += " (" + measure.Unit + ")"
	}
	name := "measure-" + measure.Name + "-by-load"
	ch, err := meanByLoad(r, measure.Name, label, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", title, err)
	}
	out := []titledChart{{title, ch}}
	workloads := r.Workloads()
	if f.Kind != model.MeanByLoadPerWorkload || len(workloads) < 2 {
		return out, nil
	}
	for i, w := range workloads {
		mean := func(policy string, load float64) (stats.MeanInterval, bool) {
			return r.MeanOfWorkload(measure.Name, policy, w, load)
		}
		ch, err := meanByLoadOf(r, mean, label, fmt.Sprintf("%s-w%02d", name, i+1))
		wTitle := fmt.Sprintf("%s: workload %s", title, w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", wTitle, err)
		}
		out = append(out, titledChart{wTitle, ch})
	}
	return out, nil
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
