package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/rigid"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// topUsersPlotted is how many of a month's highest-demand users the
// per-user dev bars show.
const topUsersPlotted = 5

// fairSharePolicies are the policies drawn in the dev bars, in the
// paper's order with the baseline last.
var fairSharePolicies = []string{rigid.RelShare, rigid.TradeoffFS, rigid.FCFSEasy}

// WriteFairShare renders the report of a fair-share run (seed 003) as
// DIR/report/index.html: the tables of `sweep analyze` and, when the run
// recorded the users table, each month's dev of its highest-demand users
// under every policy.
func WriteFairShare(dir string, r *rigid.Result, claims []fidelity.Claim, prov *analysis.Provenance) (string, error) {
	return writeFairShare(dir, IndexFile, r, claims, prov)
}

// writeFairShare is WriteFairShare into DIR/report/FILE.
func writeFairShare(dir, file string, r *rigid.Result, claims []fidelity.Claim, prov *analysis.Provenance) (string, error) {
	var notes bytes.Buffer
	if err := PrintFairShare(&notes, r); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	p := &page{Reference: rigid.RelShare, FairShare: true, Notes: notes.String(), NoUserRows: !r.HasUsers()}
	var err error
	if p.Claims, err = renderClaims(claims); err != nil {
		return "", err
	}
	if p.Provenance, err = provenanceHTML(prov); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	files, err := newFigureFiles(dir)
	if err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	for _, trace := range r.Traces() {
		ch, ok, err := runningDev(r, trace)
		if err != nil {
			return "", fmt.Errorf("building the report: running |dev| of %s: %w", trace, err)
		}
		if !ok {
			continue
		}
		svg, err := files.add(ch)
		if err != nil {
			return "", fmt.Errorf("building the report: running |dev| of %s: %w", trace, err)
		}
		p.FairShareFigures = append(p.FairShareFigures, figure{Title: fmt.Sprintf("%s, Tables VI/VII: running total |dev| over the months "+
			"(lines: ours; rings: the paper's running sums)", trace), SVG: svg, File: ch.name})
	}
	if r.HasUsers() {
		for _, trace := range r.Traces() {
			low, high := devRange(r, trace)
			for _, month := range r.Months(trace) {
				for _, variant := range []string{"T", "R"} {
					ch, ok, err := devBars(r, trace, month, variant, low, high)
					if err != nil {
						return "", fmt.Errorf("building the report: %s %s %s: %w", trace, month, variant, err)
					}
					if !ok {
						continue
					}
					svg, err := files.add(ch)
					if err != nil {
						return "", fmt.Errorf("building the report: %s %s %s: %w", trace, month, variant, err)
					}
					p.FairShareFigures = append(p.FairShareFigures, figure{Title: fmt.Sprintf("%s %s, variant %s: dev of the month's %d highest-demand users (one scale per trace)", trace, month, variant, topUsersPlotted), SVG: svg, File: ch.name, Half: true})
				}
			}
		}
	}
	return writePage(dir, file, p)
}

// runningDev draws the running sum over the months of each policy and
// variant's total |dev| (Tables VI, VII), with the paper's running sums;
// ok is false when the trace has no cell.
func runningDev(r *rigid.Result, trace string) (chart, bool, error) {
	months := r.Months(trace)
	p := newPlot()
	p.X.Label.Text = "month"
	p.Y.Label.Text = "running total |dev| (processor-hours)"
	legend := plot.NewLegend()
	cols := append(rigid.PaperColumns[:], struct{ Policy, Variant string }{rigid.FCFSEasy, "T"}, struct{ Policy, Variant string }{rigid.FCFSEasy, "R"})
	drawn := false
	for k, col := range cols {
		var ours, paper plotter.XYs
		running := 0.0
		for i, month := range months {
			if c := r.Cell(trace, month, col.Variant, col.Policy); c != nil && !c.Failed {
				running += c.TotalAbsDev
				ours = append(ours, plotter.XY{X: float64(i), Y: running})
			}
			if pm := rigid.PaperFor(trace, month); pm != nil && k < len(rigid.PaperColumns) {
				paper = append(paper, plotter.XY{X: float64(i), Y: pm.RunningAbsDev[k]})
			}
		}
		style := styleOf(col.Policy)
		if col.Variant == "R" {
			style.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		} else {
			style.Dashes = nil
		}
		if err := addLine(p, &legend, col.Policy+" "+col.Variant, style, ours); err != nil {
			return chart{}, false, err
		}
		drawn = drawn || len(ours) > 0
		if len(paper) > 0 {
			points, err := plotter.NewScatter(paper)
			if err != nil {
				return chart{}, false, err
			}
			points.Color, points.Shape, points.Radius = style.Color, draw.RingGlyph{}, vg.Points(5)
			p.Add(points)
			legend.Add("paper "+col.Policy+" "+col.Variant, points)
		}
	}
	if !drawn {
		return chart{}, false, nil
	}
	ticks := make(plot.ConstantTicks, len(months))
	for i, m := range months {
		ticks[i] = plot.Tick{Value: float64(i), Label: m}
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = -0.3, float64(len(months))-0.7
	p.Y.Min = 0
	readableTicks(&p.Y)
	return chart{name: "running-dev-" + trace, plot: p, legend: &legend}, true, nil
}

// devRange returns the smallest and largest dev of the top users of
// every month and variant of trace, so that its bar charts share a scale.
func devRange(r *rigid.Result, trace string) (low, high float64) {
	for _, month := range r.Months(trace) {
		for _, u := range r.TopUsers(trace, month, topUsersPlotted) {
			for _, variant := range []string{"T", "R"} {
				for _, policy := range fairSharePolicies {
					if d := r.Dev(trace, month, variant, policy, u); !math.IsNaN(d) {
						low, high = min(low, d), max(high, d)
					}
				}
			}
		}
	}
	return low, high
}

// devBars draws the dev of a month's highest-demand users, one group of
// bars per user, one bar per policy, on the y range [low, high] shared by
// the trace's charts; ok is false when the month has no cell of the
// variant.
func devBars(r *rigid.Result, trace, month, variant string, low, high float64) (chart, bool, error) {
	users := r.TopUsers(trace, month, topUsersPlotted)
	p := newPlot()
	p.Y.Label.Text = "dev (processor-hours)"
	p.X.Label.Text = "user id, by demand (highest first)"
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = strconv.FormatInt(u, 10)
	}
	legend := plot.NewLegend()
	const width = 14
	drawn := 0
	for k, policy := range fairSharePolicies {
		values := make(plotter.Values, len(users))
		hasValue := false
		for i, u := range users {
			values[i] = r.Dev(trace, month, variant, policy, u)
			if math.IsNaN(values[i]) {
				values[i] = 0
			} else {
				hasValue = true
			}
		}
		if !hasValue {
			continue
		}
		bars, err := plotter.NewBarChart(values, vg.Points(width))
		if err != nil {
			return chart{}, false, err
		}
		bars.Color = styleOf(policy).Color
		bars.LineStyle.Width = 0
		bars.Offset = vg.Points(float64(k-1) * width)
		p.Add(bars)
		legend.Add(policy, bars)
		drawn++
	}
	if drawn == 0 {
		return chart{}, false, nil
	}
	p.NominalX(names...)
	margin := 0.05 * (high - low)
	p.Y.Min, p.Y.Max = low-margin, high+margin
	readableTicks(&p.Y)
	return chart{name: fmt.Sprintf("dev-%s-%s-%s", trace, month, variant), plot: p, legend: &legend,
		width: pageWidth/2 - 5*vg.Millimeter, height: 8 * vg.Centimeter}, true, nil
}
