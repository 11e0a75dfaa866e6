package report

import (
	"fmt"

	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/sweep-sched/sweep/analysis"
)

// stretchLow is where the stretch distribution starts: no campaign does
// better than its bound.
const stretchLow = 1.0

// addCampaigns adds the campaign sections to p: the figures of merit of
// each campaign workload and, from samples (the campaigns table), the
// distribution of campaign stretch and the per-user max stretch by profile.
func addCampaigns(p *page, r *analysis.Result, c *campaign.Result, samples []campaign.Sample, files *figureFiles) error {
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
		ch, err := stretchECDF(of)
		if err != nil {
			return fmt.Errorf("stretch distribution of %s: %w", workload, err)
		}
		ch.name = "stretch-distribution-" + workload
		svg, err := files.add(ch)
		if err != nil {
			return fmt.Errorf("stretch distribution of %s: %w", workload, err)
		}
		p.CampaignFigures = append(p.CampaignFigures, figure{
			Title: fmt.Sprintf("Campaign stretch distribution, %s (seed 000 Figs. 5, 6): share of campaigns "+
				"with stretch <= x over the whole range (the paper shows 1 to 4), stretches > %d dropped (counted in the legend)", workload, table.CampaignOutlierStretch),
			SVG: svg, File: ch.name,
		})
		if !hasProfiles(of) {
			continue
		}
		ch, err = userMaxBoxes(of)
		if err != nil {
			return fmt.Errorf("user max stretch of %s: %w", workload, err)
		}
		ch.name = "user-max-stretch-" + workload
		if svg, err = files.add(ch); err != nil {
			return fmt.Errorf("user max stretch of %s: %w", workload, err)
		}
		p.CampaignFigures = append(p.CampaignFigures, figure{
			Title: fmt.Sprintf("Max campaign stretch per user by profile, %s (seed 001 Fig. 2b)", workload),
			SVG:   svg, File: ch.name,
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
// campaign stretches <= table.CampaignOutlierStretch, on a log x axis from 1 to the
// largest kept, so that the whole distribution shows (seed 000's figures
// stop at 4).
func stretchECDF(samples []campaign.Sample) (chart, error) {
	p := newPlot()
	p.X.Label.Text = "campaign stretch (ratio, log scale)"
	p.Y.Label.Text = "share of campaigns with stretch <= x (fraction)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	p.Y.Min, p.Y.Max = 0, 1
	legend := plot.NewLegend()
	highest := 2.0
	for _, s := range samples {
		kept := keptStretches(s.Stretches)
		if len(kept) > 0 {
			highest = max(highest, kept[len(kept)-1]*1.1)
		}
	}
	for _, s := range samples {
		kept := keptStretches(s.Stretches)
		if len(kept) == 0 {
			continue
		}
		line, err := plotter.NewLine(ecdfSteps(kept, highest))
		if err != nil {
			return chart{}, err
		}
		style := styleOf(s.Policy)
		line.Color, line.Dashes, line.Width = style.Color, style.Dashes, vg.Points(1.8)
		p.Add(line)
		dropped := len(s.Stretches) - len(kept)
		legend.Add(fmt.Sprintf("%s (%d campaigns, %d dropped)", s.Policy, len(kept), dropped), line)
	}
	p.X.Min, p.X.Max = stretchLow, highest
	p.Add(plotter.NewGrid())
	return chart{plot: p, legend: &legend}, nil
}

// keptStretches returns sorted (ascending) without its values above
// table.CampaignOutlierStretch.
func keptStretches(sorted []float64) []float64 {
	for len(sorted) > 0 && sorted[len(sorted)-1] > table.CampaignOutlierStretch {
		sorted = sorted[:len(sorted)-1]
	}
	return sorted
}

// ecdfSteps returns the staircase of the empirical distribution function
// of sorted (ascending, non-empty) over [stretchLow, high]: at each
// distinct value x the curve rises to the share of values <= x.
func ecdfSteps(sorted []float64, high float64) plotter.XYs {
	n := float64(len(sorted))
	below := 0
	for below < len(sorted) && sorted[below] < stretchLow {
		below++
	}
	xys := plotter.XYs{{X: stretchLow, Y: float64(below) / n}}
	for i := below; i < len(sorted) && sorted[i] <= high; i++ {
		if i+1 < len(sorted) && sorted[i+1] == sorted[i] {
			continue // the step is at the last of equal values
		}
		share := float64(i+1) / n
		xys = append(xys, plotter.XY{X: sorted[i], Y: xys[len(xys)-1].Y}, plotter.XY{X: sorted[i], Y: share})
	}
	return append(xys, plotter.XY{X: high, Y: xys[len(xys)-1].Y})
}

// userMaxBoxes draws a box per policy and profile of the users' max
// campaign stretches, with the quartiles and whiskers of stats.BoxPlot.
func userMaxBoxes(samples []campaign.Sample) (chart, error) {
	p := newPlot()
	p.Y.Label.Text = "max campaign stretch of a user (ratio)"
	p.X.Label.Text = "policy, user profile (users)"
	var boxes []stats.Box
	var names, policies []string
	for _, s := range samples {
		for _, profile := range s.Profiles() {
			box, err := stats.BoxPlot(s.UserMax[profile])
			if err != nil {
				return chart{}, err
			}
			if profile == "" {
				profile = "no profile"
			}
			boxes = append(boxes, box)
			names = append(names, fmt.Sprintf("%s %s (%d)", s.Policy, profile, box.N))
			policies = append(policies, s.Policy)
		}
	}
	if err := addBoxes(p, boxes, names, policies); err != nil {
		return chart{}, err
	}
	return chart{plot: p}, nil
}
