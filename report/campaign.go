package report

import (
	"fmt"
	"html/template"

	"github.com/sweep-sched/sweep/analysis/campaign"
	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/stats"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/sweep-sched/sweep/analysis"
)

// stretchRange is the x range of the stretch distribution, as in seed 000
// Figs. 5 and 6 ("stretch values ranging from 1 to 4").
const stretchLow, stretchHigh = 1.0, 4.0

// addCampaigns adds the campaign sections to p: the figures of merit of
// each campaign workload and, from samples (the campaigns table), the
// distribution of campaign stretch and the per-user max stretch by profile.
func addCampaigns(p *page, r *analysis.Result, c *campaign.Result, samples []campaign.Sample) error {
	for _, workload := range c.Workloads {
		p.FigureTables = append(p.FigureTables, figuresOfMerit(r, c, workload))
	}
	if len(samples) == 0 {
		p.NoCampaignRows = true
		return nil
	}
	for _, workload := range c.Workloads {
		var of []campaign.Sample
		for _, s := range samples {
			if s.Workload == workload {
				of = append(of, s)
			}
		}
		if len(of) == 0 {
			continue
		}
		svg, err := stretchECDF(of)
		if err != nil {
			return fmt.Errorf("stretch distribution of %s: %w", workload, err)
		}
		p.CampaignFigures = append(p.CampaignFigures, figure{
			Title: fmt.Sprintf("Campaign stretch distribution, %s (seed 000 Figs. 5, 6): share of campaigns "+
				"with stretch <= x, stretches > %d dropped", workload, mcampaign.OutlierStretch),
			SVG: svg,
		})
		if !hasProfiles(of) {
			continue
		}
		svg, err = userMaxBoxes(of)
		if err != nil {
			return fmt.Errorf("user max stretch of %s: %w", workload, err)
		}
		p.CampaignFigures = append(p.CampaignFigures, figure{
			Title: fmt.Sprintf("Max campaign stretch per user by profile, %s (seed 001 Fig. 2b)", workload),
			SVG:   svg,
		})
	}
	return nil
}

// figuresOfMerit renders the figures table of workload.
func figuresOfMerit(r *analysis.Result, c *campaign.Result, workload string) figureTable {
	rows := c.FiguresOf(workload)
	t := figureTable{Workload: workload, Instances: c.Instances[workload]}
	for _, policy := range r.Policies {
		for _, row := range rows {
			if row.Policy == policy {
				t.Policies = append(t.Policies, policy)
				break
			}
		}
	}
	var withPaper, matching int
	for _, row := range rows {
		if len(t.Rows) == 0 || t.Rows[len(t.Rows)-1].Metric != row.Metric {
			t.Rows = append(t.Rows, figureRow{Label: campaign.FigureLabel(row.Metric), Metric: row.Metric,
				Cells: make([]figureCell, len(t.Policies))})
			for i := range t.Policies {
				t.Rows[len(t.Rows)-1].Cells[i] = figureCell{Ours: "-"}
			}
		}
		cell := figureCell{Ours: FormatFigure(row), Mark: MatchMark(row)}
		if row.Paper != nil {
			cell.Paper = row.Paper.String()
			cell.Miss = cell.Mark == "no"
			if row.HasOurs() {
				withPaper++
			}
			if row.Matches {
				matching++
			}
		}
		for i, policy := range t.Policies {
			if policy == row.Policy {
				t.Rows[len(t.Rows)-1].Cells[i] = cell
			}
		}
	}
	if withPaper > 0 {
		t.Summary = fmt.Sprintf("%d of %d paper values reproduced", matching, withPaper)
	}
	return t
}

func hasProfiles(samples []campaign.Sample) bool {
	for _, s := range samples {
		for _, profile := range s.Profiles() {
			if profile != "" {
				return true
			}
		}
	}
	return false
}

// stretchECDF draws one empirical distribution function per policy of the
// campaign stretches <= CampaignOutlierStretch, over [1, 4]; the curve's
// height at 4 is the share of those campaigns with stretch <= 4.
func stretchECDF(samples []campaign.Sample) (template.HTML, error) {
	p := plot.New()
	p.X.Label.Text = "campaign stretch"
	p.Y.Label.Text = "share of campaigns with stretch <= x"
	p.X.Min, p.X.Max = stretchLow, stretchHigh
	p.Y.Min, p.Y.Max = 0, 1
	// The curves rise to the top right, so the bottom right is free.
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.XOffs, p.Legend.YOffs = -2*vg.Millimeter, 2*vg.Millimeter
	for i, s := range samples {
		kept := s.Stretches
		for len(kept) > 0 && kept[len(kept)-1] > mcampaign.OutlierStretch {
			kept = kept[:len(kept)-1]
		}
		if len(kept) == 0 {
			continue
		}
		line, err := plotter.NewLine(ecdfSteps(kept))
		if err != nil {
			return "", err
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i)
		line.Width = vg.Points(1.5)
		p.Add(line)
		dropped := len(s.Stretches) - len(kept)
		p.Legend.Add(fmt.Sprintf("%s (%d campaigns, %d dropped)", s.Policy, len(kept), dropped), line)
	}
	p.Add(plotter.NewGrid())
	return svgOf(p, 16*vg.Centimeter, 10*vg.Centimeter)
}

// ecdfSteps returns the staircase of the empirical distribution function
// of sorted (ascending, non-empty) over [stretchLow, stretchHigh]: at each
// distinct value x the curve rises to the share of values <= x.
func ecdfSteps(sorted []float64) plotter.XYs {
	n := float64(len(sorted))
	below := 0
	for below < len(sorted) && sorted[below] < stretchLow {
		below++
	}
	xys := plotter.XYs{{X: stretchLow, Y: float64(below) / n}}
	for i := below; i < len(sorted) && sorted[i] <= stretchHigh; i++ {
		if i+1 < len(sorted) && sorted[i+1] == sorted[i] {
			continue // the step is at the last of equal values
		}
		share := float64(i+1) / n
		xys = append(xys, plotter.XY{X: sorted[i], Y: xys[len(xys)-1].Y}, plotter.XY{X: sorted[i], Y: share})
	}
	return append(xys, plotter.XY{X: stretchHigh, Y: xys[len(xys)-1].Y})
}

// userMaxBoxes draws a box per policy and profile of the users' max
// campaign stretches, with the quartiles and whiskers of stats.BoxPlot.
func userMaxBoxes(samples []campaign.Sample) (template.HTML, error) {
	p := plot.New()
	p.Y.Label.Text = "max campaign stretch of a user"
	var boxes []stats.Box
	var names []string
	for _, s := range samples {
		for _, profile := range s.Profiles() {
			box, err := stats.BoxPlot(s.UserMax[profile])
			if err != nil {
				return "", err
			}
			if profile == "" {
				profile = "no profile"
			}
			boxes = append(boxes, box)
			names = append(names, fmt.Sprintf("%s %s (%d)", s.Policy, profile, box.N))
		}
	}
	if err := addBoxes(p, boxes, names); err != nil {
		return "", err
	}
	return svgOf(p, vg.Length(max(16, 3*len(boxes)))*vg.Centimeter, 10*vg.Centimeter)
}
