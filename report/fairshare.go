package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strconv"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/rigid"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// topUsersPlotted is how many of a month's highest-demand users the
// per-user dev bars show.
const topUsersPlotted = 5

// fairSharePolicies are the policies drawn in the dev bars, in the
// paper's order with the baseline last.
var fairSharePolicies = []string{"relshare", "tradeoff-fs", "fcfs-easy"}

// WriteFairShare renders the report of a fair-share run (seed 003) as
// DIR/report/index.html: the tables of `sweep analyze` and, when the run
// recorded the users table, each month's dev of its highest-demand users
// under every policy.
func WriteFairShare(dir string, r *rigid.Result, prov *analysis.Provenance) (string, error) {
	var notes bytes.Buffer
	if err := PrintFairShare(&notes, r); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	p := &page{Reference: "relshare", FairShare: true, Notes: notes.String(), NoUserRows: !r.HasUsers()}
	var err error
	if p.Provenance, err = provenanceHTML(prov); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	if r.HasUsers() {
		for _, trace := range r.Traces() {
			for _, month := range r.Months(trace) {
				for _, variant := range []string{"T", "R"} {
					svg, ok, err := devBars(r, trace, month, variant)
					if err != nil {
						return "", fmt.Errorf("building the report: %s %s %s: %w", trace, month, variant, err)
					}
					if ok {
						p.FairShareFigures = append(p.FairShareFigures, figure{Title: fmt.Sprintf("%s %s, variant %s", trace, month, variant), SVG: svg})
					}
				}
			}
		}
	}
	return writePage(dir, p)
}

// devBars draws the dev of a month's highest-demand users, one group of
// bars per user, one bar per policy; ok is false when the month has no
// cell of the variant.
func devBars(r *rigid.Result, trace, month, variant string) (template.HTML, bool, error) {
	users := r.TopUsers(trace, month, topUsersPlotted)
	p := plot.New()
	p.Y.Label.Text = "dev (processor-hours)"
	p.X.Label.Text = "user, by demand"
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = strconv.FormatInt(u, 10)
	}
	const width = 8
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
			return "", false, err
		}
		bars.Color = plotutil.Color(k)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Points(float64(k-1) * width)
		p.Add(bars)
		p.Legend.Add(policy, bars)
		drawn++
	}
	if drawn == 0 {
		return "", false, nil
	}
	p.Legend.Top = true
	p.NominalX(names...)
	svg, err := svgOf(p, 12*vg.Centimeter, 7*vg.Centimeter)
	return svg, err == nil, err
}
