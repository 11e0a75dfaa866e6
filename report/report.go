package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/sweep-sched/sweep/analysis"
)

// Dir is the report's directory under the results directory.
const Dir = "report"

// boxFigures are seed 004's box plots, one box per policy over every cell
// of the run (all loads and workloads pooled, as the paper's figures have
// one box per policy).
var boxFigures = []struct{ title, name, metric, label string }{
	{"Fig. 6: standard deviation of SLR by policy", "fig06-slr-sd", "slr_sd", "SD of SLR (ratio)"},
	{"Fig. 8: worst-case SLR by policy", "fig08-slr-max", "slr_max", "worst-case SLR (ratio)"},
	{"Fig. 10: average utilisation by policy", "fig10-utilisation", "utilisation", "utilisation (fraction of core-ticks)"},
	{"Fig. 11: cumulative completion by policy", "fig11-cumulative-completion", "cumulative_completion", "cumulative completion (tick × core-ticks)"},
	{"Fig. 12: peak in-flight jobs by policy", "fig12-peak-in-flight", "peak_in_flight", "peak in-flight jobs (jobs)"},
}

// figure is a titled inline SVG; File names its SVG and PDF files under
// report/figures/ ("" for none).
type figure struct {
	Title, File string
	SVG         template.HTML
	// Half says the figure takes half the page's width, two to a row.
	Half bool
}

// tableCell is one cell of a dominance table on the page.
type tableCell struct {
	Ours, Interval, Paper, Diff string
	OursNS, PaperNS             bool
	// Compared says both values exist; Far then says the paper's value
	// lies outside our interval.
	Compared, Far bool
}

type tableRow struct {
	Policy string
	Cells  []tableCell
}

type dominanceTable struct {
	Title, Metric, Summary string
	Rows                   []tableRow
}

type meanRow struct {
	Policy string
	Cells  []string
}

// figureCell is one policy's cell of a figures-of-merit row.
type figureCell struct {
	Ours, Paper, Mark string
	Miss              bool // a paper value that ours does not satisfy
}

type figureRow struct {
	Label, Metric string
	Cells         []figureCell
}

// figureTable is the figures of merit of one campaign workload.
type figureTable struct {
	Workload  string
	Instances int
	Policies  []string
	Rows      []figureRow
	Summary   string
}

type page struct {
	// Provenance is the block that opens the page.
	Provenance template.HTML
	// DAG says whether the run has DAG cells (with a load), which seed
	// 004's tables and figures describe.
	DAG       bool
	Reference string
	Alpha     float64
	Holm      bool
	Resamples int
	Loads     []string
	Notes     string
	Tables    []dominanceTable
	Tests     []testTable
	// Replicates is the number of replicates; Spreads has the paper
	// tables across them when there are two or more.
	Replicates int
	Spreads    []spreadTable
	Means      []meanRow
	Figures    []figure
	DecileLoad string

	// Gantts link each policy's worst cell to its Gantt chart.
	Gantts []GanttLink

	FigureTables []figureTable
	// CampaignFigures are the campaign plots; NoCampaignRows says that the
	// run has campaign cells but did not record the campaigns table.
	CampaignFigures []figure
	NoCampaignRows  bool

	// MeasureFigures are the box plots of the measures of a model
	// without a study (Paired.Measures).
	MeasureFigures []figure
	// AchievedLoads is the rigid study's achieved-load check.
	AchievedLoads []achievedLoadRow
	// NodeTables and NodeFigures are the rigid study's cells on
	// platforms of nodes: utilisation per resource, waits and slowdowns
	// per partition.
	NodeTables  []textTable
	NodeFigures []figure

	// FairShare says the run is of fair-share cells (seed 003), whose
	// FairShareFigures are per-user dev bars; NoUserRows says that it did
	// not record the users table.
	FairShare        bool
	FairShareFigures []figure
	NoUserRows       bool

	// Claims are the papers' claims with their status: a summary line on
	// the first screen and one table per study.
	Claims claimsHTML
}

// Write renders the report of r as DIR/report/index.html and returns its
// path; the campaign plots read DIR's campaigns table; gantts, when given,
// are listed with links to their charts. The page is built in a temporary
// file and renamed into place.
func Write(dir string, run Paired, gantts ...GanttLink) (string, error) {
	return WriteTo(dir, dir, run, gantts...)
}

// WriteTo is Write with the report in OUT/report: the results directory
// dir may be read-only.
func WriteTo(dir, out string, run Paired, gantts ...GanttLink) (string, error) {
	files, err := newFigureFiles(out)
	if err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	p, err := build(run, files)
	if err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	p.Gantts = gantts
	if p.Claims, err = renderClaims(run.Claims); err != nil {
		return "", err
	}
	if p.Provenance, err = provenanceHTML(run.Provenance); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	if c := run.Campaign; c != nil && len(c.Workloads) > 0 {
		r := run.Comparison
		samples, problems, err := campaign.ReadSamples(dir, r)
		if err != nil {
			return "", fmt.Errorf("building the report: %w", err)
		}
		for _, problem := range problems {
			p.Notes += fmt.Sprintf("skipped unreadable part file %s\n", problem.Error())
		}
		if err := addCampaigns(p, r, c, samples, files); err != nil {
			return "", fmt.Errorf("building the report: %w", err)
		}
		counts, err := workloadUsers(dir)
		if err != nil {
			return "", fmt.Errorf("building the report: %w", err)
		}
		if err := addUserCountFigures(p, r, c, counts, files); err != nil {
			return "", fmt.Errorf("building the report: %w", err)
		}
	}
	return writePage(out, run.File, p)
}

// IndexFile is the name of a report's page, and of a mixed run's first.
const IndexFile = "index.html"

// writePage renders p as DIR/report/FILE, index.html when file is empty.
func writePage(dir, file string, p *page) (string, error) {
	return writeHTML(dir, file, pageTemplate, p)
}

// writeHTML renders data with tmpl as DIR/report/FILE, index.html when
// file is empty.
func writeHTML(dir, file string, tmpl *template.Template, data any) (string, error) {
	var html bytes.Buffer
	if err := tmpl.Execute(&html, data); err != nil {
		return "", fmt.Errorf("rendering the report: %w", err)
	}
	reportDir := filepath.Join(dir, Dir)
	if err := os.MkdirAll(reportDir, 0o755); err != nil {
		return "", fmt.Errorf("writing the report: %w", err)
	}
	temp, err := parquet.CreateTemp(reportDir, ".index-")
	if err != nil {
		return "", fmt.Errorf("writing the report: %w", err)
	}
	defer os.Remove(temp.Name()) // fails harmlessly once renamed
	_, err = temp.Write(html.Bytes())
	err = errors.Join(err, temp.Close())
	path := filepath.Join(reportDir, cmp.Or(file, IndexFile))
	if err == nil {
		err = os.Rename(temp.Name(), path)
	}
	if err != nil {
		return "", fmt.Errorf("writing the report: %w", err)
	}
	return path, nil
}

func build(run Paired, files *figureFiles) (*page, error) {
	r, expect := run.Comparison, run.Expect
	p := &page{Reference: r.Settings.Reference, Alpha: r.Settings.Alpha, Holm: r.Settings.Adjust == analysis.AdjustHolm,
		Resamples: stats.BootstrapResamples}
	var notes bytes.Buffer
	if err := Print(&notes, run); err != nil {
		return nil, err
	}
	p.Notes = notes.String()
	for _, row := range run.AchievedLoads {
		p.AchievedLoads = append(p.AchievedLoads, achievedLoadRow{Load: FormatLoad(row.Load), Cells: row.Cells,
			Min: fmt.Sprintf("%.4f", row.Min), Max: fmt.Sprintf("%.4f", row.Max), Check: achievedCheck(row), Off: row.Off})
	}
	if len(run.Measures) > 0 {
		if err := addMeasureFigures(p, r, run.Figures, files); err != nil {
			return nil, err
		}
	}
	if run.Nodes != nil {
		p.NodeTables = nodeTables(r, run.Nodes)
		if err := addNodeFigures(p, r, run.Nodes, files); err != nil {
			return nil, err
		}
	}
	p.DAG = run.Grid != nil
	if !p.DAG {
		return p, nil
	}
	for _, load := range r.Loads {
		p.Loads = append(p.Loads, FormatLoad(load))
	}
	for _, t := range grid.PaperTables {
		p.Tables = append(p.Tables, dominance(r, t, expect))
		p.Tests = append(p.Tests, rankTests(r, t))
		if len(r.Replicates) > 1 {
			p.Spreads = append(p.Spreads, spreads(r, t, expect))
		}
	}
	p.Replicates = len(r.Replicates)
	for _, policy := range r.Policies {
		row := meanRow{Policy: policy}
		for _, load := range r.Loads {
			cell := "-"
			if m, ok := r.FindByLoad("slr_max", policy, load); ok {
				cell = FormatMean(m.Mean, (m.High-m.Low)/2)
			}
			row.Cells = append(row.Cells, cell)
		}
		p.Means = append(p.Means, row)
	}

	for _, f := range boxFigures {
		ch, err := boxPlot(r, f.name, f.metric, f.label)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.title, err)
		}
		if err := p.addFigure(files, f.title, ch); err != nil {
			return nil, err
		}
	}
	ch, err := meanByLoad(r, "slr_max", "mean worst-case SLR (ratio)", "fig09-mean-worst-case-slr-by-load")
	if err != nil {
		return nil, fmt.Errorf("Fig. 9: %w", err)
	}
	title := "Fig. 9: mean worst-case SLR by load, with 95% confidence intervals (the table above)"
	if _, log := ch.plot.Y.Scale.(plot.LogScale); log {
		title += "; log scale, intervals reaching below the axis are cut at it"
	}
	if err := p.addFigure(files, title, ch); err != nil {
		return nil, err
	}
	if d := run.Grid.Deciles; d != nil && len(r.Loads) > 0 {
		highest := r.Loads[len(r.Loads)-1]
		p.DecileLoad = FormatLoad(highest)
		ch, err := decilePlot(r, d, highest)
		if err != nil {
			return nil, fmt.Errorf("Fig. 7: %w", err)
		}
		if err := p.addFigure(files, "Fig. 7: mean SLR by decile of job volume at load "+p.DecileLoad, ch); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addFigure renders ch, writes its files and adds it to the page's
// figures.
func (p *page) addFigure(files *figureFiles, title string, ch chart) error {
	svg, err := files.add(ch)
	if err != nil {
		return fmt.Errorf("%s: %w", title, err)
	}
	p.Figures = append(p.Figures, figure{Title: title, SVG: svg, File: ch.name})
	return nil
}

func dominance(r *analysis.Result, t grid.PaperTable, expect analysis.Expectations) dominanceTable {
	policies, cells := grid.DominanceGrid(r, t.Metric, expect)
	table := dominanceTable{Title: t.Title, Metric: t.Metric}
	var agree, withPaper int
	for i, policy := range policies {
		row := tableRow{Policy: policy}
		for _, c := range cells[i] {
			cell := tableCell{Ours: "-", Paper: "-", Diff: ""}
			if c.Ours != nil {
				cell.Ours = fmt.Sprintf("%.1f", c.Ours.Percent)
				cell.Interval = fmt.Sprintf("%.1f-%.1f", c.Ours.Low, c.Ours.High)
				cell.OursNS = !c.Ours.Significant
			}
			if c.HasPaper {
				withPaper++
				cell.Paper = FormatPercent(c.Paper)
				cell.PaperNS = !c.PaperSignificant
				if c.Ours != nil {
					cell.Diff = fmt.Sprintf("%+.1f", c.Ours.Percent-c.Paper)
					cell.Compared, cell.Far = true, !c.Agrees()
				}
				if c.Agrees() {
					agree++
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		table.Rows = append(table.Rows, row)
	}
	if withPaper > 0 {
		table.Summary = fmt.Sprintf("the paper's value lies inside our 95%% interval in %d of %d cells", agree, withPaper)
	}
	return table
}

// boxPlot draws one box per policy from the pooled box-plot summaries, so
// the figure shows exactly the quartiles and whiskers of boxplot.parquet
// (gonum's own box plot uses other quartiles).
func boxPlot(r *analysis.Result, name, metric, label string) (chart, error) {
	p := newPlot()
	p.Y.Label.Text = label
	p.X.Label.Text = "policy (every cell of every load and workload)"
	var boxes []stats.Box
	var names []string
	for _, box := range r.Boxes {
		if box.Metric == metric && box.Pooled {
			boxes = append(boxes, box.Box)
			names = append(names, box.Policy)
		}
	}
	if err := addBoxes(p, boxes, names, names); err != nil {
		return chart{}, err
	}
	readableTicks(&p.Y)
	return chart{name: name, plot: p}, nil
}

// addBoxes adds one box per summary, named on the x axis and drawn in its
// policy's colour, and switches to a log scale when the values are wide
// apart; the whiskers and outliers show the whole distribution.
func addBoxes(p *plot.Plot, boxes []stats.Box, names, policies []string) error {
	lowest, highest := math.Inf(1), math.Inf(-1)
	for i, box := range boxes {
		lowest, highest = min(lowest, box.Min), max(highest, box.Max)
		// The values are the outliers, then the whisker ends; the box
		// statistics are then set from the summary.
		values := append(append(plotter.Values{}, box.Outliers...), box.WhiskerLow, box.WhiskerHigh)
		b, err := plotter.NewBoxPlot(vg.Points(22), float64(i), values)
		if err != nil {
			return err
		}
		b.Median, b.Quartile1, b.Quartile3 = box.Median, box.Q1, box.Q3
		b.AdjLow, b.AdjHigh, b.Min, b.Max = box.WhiskerLow, box.WhiskerHigh, box.Min, box.Max
		b.Outside = b.Outside[:0]
		for i := range box.Outliers {
			b.Outside = append(b.Outside, i)
		}
		style := styleOf(policies[i])
		b.BoxStyle.Color, b.WhiskerStyle.Color, b.MedianStyle.Color = style.Color, style.Color, style.Color
		b.MedianStyle.Width = vg.Points(2)
		b.GlyphStyle.Color, b.GlyphStyle.Shape = style.Color, style.Shape
		p.Add(b)
	}
	p.NominalX(names...)
	logScaleIfWide(p, lowest, highest)
	return nil
}

// meanByLoad draws one line per policy of the mean of metric by load (Fig.
// 9: worst-case SLR) on a y axis labelled label, as the chart called name,
// with the 95% confidence interval of the table beside it as bars; the
// policies are spread a little along x so that equal means stay visible.
// Means spanning decades take a log axis, on which an interval reaching
// below the axis is cut there (the caption says so).
func meanByLoad(r *analysis.Result, metric, label, name string) (chart, error) {
	return meanByLoadOf(r, func(policy string, load float64) (stats.MeanInterval, bool) {
		row, ok := r.FindByLoad(metric, policy, load)
		return row.MeanInterval, ok
	}, label, name)
}

// meanByLoadOf draws the means that mean returns for each policy and
// load of r, as meanByLoad does ByLoad's.
func meanByLoadOf(r *analysis.Result, mean func(policy string, load float64) (stats.MeanInterval, bool), label, name string) (chart, error) {
	p := newPlot()
	p.X.Label.Text = "load ratio (offered work / platform capacity)"
	p.Y.Label.Text = label
	legend := plot.NewLegend()
	lowestMean, highestMean, highest := math.Inf(1), math.Inf(-1), math.Inf(-1)
	spread := spreadStep(r.Loads) / float64(2*max(1, len(r.Policies)))
	series := make([]errorPoints, len(r.Policies))
	for i, policy := range r.Policies {
		for _, load := range r.Loads {
			if m, ok := mean(policy, load); ok {
				low, high := m.Mean, m.Mean
				if !math.IsNaN(m.Low) && !math.IsNaN(m.High) {
					low, high = m.Low, m.High
				}
				x := load + (float64(i)-float64(len(r.Policies)-1)/2)*spread
				series[i].XYs = append(series[i].XYs, plotter.XY{X: x, Y: m.Mean})
				series[i].YErrors = append(series[i].YErrors, struct{ Low, High float64 }{m.Mean - low, high - m.Mean})
				lowestMean, highestMean, highest = min(lowestMean, m.Mean), max(highestMean, m.Mean), max(highest, high)
			}
		}
	}
	logScaleIfWide(p, lowestMean, highestMean)
	if _, log := p.Y.Scale.(plot.LogScale); log {
		p.Y.Max = highest * 1.5
		for i := range series {
			for k, xy := range series[i].XYs {
				if xy.Y-series[i].YErrors[k].Low < p.Y.Min {
					series[i].YErrors[k].Low = xy.Y - p.Y.Min
				}
			}
		}
	}
	for i, policy := range r.Policies {
		if err := addRange(p, &legend, policy, styleOf(policy), series[i]); err != nil {
			return chart{}, err
		}
	}
	p.X.Tick.Marker = constantTicks(r.Loads)
	if len(r.Loads) == 1 {
		// The policies' spread would fill the axis: keep it a cluster
		// about its one load.
		p.X.Min, p.X.Max = r.Loads[0]-0.5, r.Loads[0]+0.5
	}
	return chart{name: name, plot: p, legend: &legend}, nil
}

// spreadStep returns the smallest gap between consecutive xs (1 for
// fewer than two).
func spreadStep(xs []float64) float64 {
	step := math.Inf(1)
	for i := 1; i < len(xs); i++ {
		step = min(step, xs[i]-xs[i-1])
	}
	if math.IsInf(step, 1) || step <= 0 {
		return 1
	}
	return step
}

// logScaleIfWide switches the y axis to a log scale when the values span
// more than two decades and are all positive, so one policy's extremes do
// not flatten the others; the axis label says so.
func logScaleIfWide(p *plot.Plot, lowest, highest float64) {
	if !(lowest > 0) || highest/lowest <= 100 {
		return
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	p.Y.Min, p.Y.Max = lowest/1.5, highest*1.5
	p.Y.Label.Text += " (log scale)"
}

// constantTicks labels exactly the given x values.
func constantTicks(xs []float64) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)}
	}
	return ticks
}

// decilePlot draws Fig. 7: mean SLR per decile at load, log y-axis, the
// policies spread a little along x so that equal values stay visible.
func decilePlot(r *analysis.Result, d *grid.Deciles, load float64) (chart, error) {
	p := newPlot()
	p.X.Label.Text = "decile of job volume (1 = smallest jobs)"
	p.Y.Label.Text = "mean SLR (ratio, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	legend := plot.NewLegend()
	lowest, highest := math.Inf(1), math.Inf(-1)
	for i, policy := range r.Policies {
		var xys plotter.XYs
		offset := (float64(i) - float64(len(r.Policies)-1)/2) * 0.06
		for _, row := range d.Rows {
			// A log axis cannot show 0; SLR is at least 1 for valid jobs.
			if row.Load == load && row.Policy == policy && row.SLRMean > 0 {
				xys = append(xys, plotter.XY{X: float64(row.Decile) + offset, Y: row.SLRMean})
				lowest, highest = min(lowest, row.SLRMean), max(highest, row.SLRMean)
			}
		}
		if err := addLine(p, &legend, policy, styleOf(policy), xys); err != nil {
			return chart{}, err
		}
	}
	if math.IsInf(lowest, 1) {
		return chart{}, fmt.Errorf("no positive mean SLR at load %v", load)
	}
	// A margin of a factor 1.5 keeps the lines off the frame and gives a
	// range even when every value is equal (gonum's log ticks need one).
	p.Y.Min, p.Y.Max = lowest/1.5, highest*1.5
	p.X.Min, p.X.Max = 0.5, table.DecileCount+0.5
	deciles := make([]float64, table.DecileCount)
	for i := range deciles {
		deciles[i] = float64(i + 1)
	}
	p.X.Tick.Marker = constantTicks(deciles)
	return chart{name: "fig07-mean-slr-by-volume-decile-load-" + FormatLoad(load), plot: p, legend: &legend}, nil
}

// addLine adds a series' line with points in its style, and its entry in
// legend; an empty line is skipped.
func addLine(p *plot.Plot, legend *plot.Legend, name string, style seriesStyle, xys plotter.XYs) error {
	if len(xys) == 0 {
		return nil
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	line.Color, line.Dashes, line.Width = style.Color, style.Dashes, vg.Points(1.5)
	points.Color, points.Shape, points.Radius = style.Color, style.Shape, vg.Points(3.5)
	p.Add(line, points)
	legend.Add(name, line, points)
	return nil
}
