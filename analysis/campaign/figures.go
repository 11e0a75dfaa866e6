package campaign

import (
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"
)

// A Figure is one of the papers' figures of merit of a campaign study: a
// row of the figures table.
type Figure struct {
	Metric string // a column of CampaignColumns
	Label  string
}

// FiguresOfMerit are the figures of merit of seeds 001 (synthetic users)
// and 000 (the LPC-EGEE trace), in the order the figures table prints
// them (DESIGN.md section 4): the share of campaigns with stretch > 20, the
// mean over short and over long users of their max campaign stretch, and
// seed 000's statistics of the stretches <= 1000 with the share dropped.
var FiguresOfMerit = []Figure{
	{"campaign_stretch_over20_share", "stretch > 20 (share)"},
	{"short_user_max_stretch_mean", "user max stretch, short users"},
	{"long_user_max_stretch_mean", "user max stretch, long users"},
	{"campaign_stretch_trimmed_mean", "mean stretch (<= 1000)"},
	{"campaign_stretch_trimmed100_mean", "mean stretch (<= 100)"},
	{"campaign_stretch_trimmed20_mean", "mean stretch (<= 20)"},
	{"campaign_stretch_trimmed_exact1_share", "stretch exactly 1 (share)"},
	{"campaign_stretch_trimmed_p50", "p50 stretch (<= 1000)"},
	{"campaign_stretch_trimmed_p90", "p90 stretch (<= 1000)"},
	{"campaign_stretch_trimmed_p99", "p99 stretch (<= 1000)"},
	{"campaign_stretch_outlier_share", "stretch > 1000 (share, dropped)"},
}

// figureLabels label the campaign comparisons' statistics that are not
// cells-table columns.
var figureLabels = map[string]string{FlowShorterShare: "flow shorter (share)"}

// FigureRow is one row of figures.parquet: the mean of Metric over the
// instances of Workload under Policy, beside the paper's value.
type FigureRow struct {
	Workload, Metric, Policy string
	// MeanInterval is ours; N is 0 when no cell has a value (then the
	// other fields are meaningless).
	stats.MeanInterval
	Paper   *analysis.Expected // nil when the manifest's expect.values gives none
	Matches bool               // ours satisfies Paper (see analysis.Expected.Matches)
}

// HasOurs reports whether at least one cell gave a value.
func (f FigureRow) HasOurs() bool { return f.N > 0 }

// isCampaign reports whether c carries campaign summaries: its campaigns
// measure is not null.
func isCampaign(r *analysis.Result, c *analysis.Cell) bool {
	m := r.Column(table.CampaignCount)
	return m >= 0 && !math.IsNaN(c.Values[m])
}

// Workloads returns the labels of the workloads whose successful
// cells carry campaign summaries, in name order.
func Workloads(r *analysis.Result) []string {
	var labels []string
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			if isCampaign(r, c) && !slices.Contains(labels, c.Workload) {
				labels = append(labels, c.Workload)
			}
		}
	}
	slices.Sort(labels)
	return labels
}

// Instances returns the number of pair groups of workload whose cells
// carry campaign summaries: its instances.
func Instances(r *analysis.Result, workload string) int {
	n := 0
	for _, g := range r.Pairing.Groups {
		if g.Key.Workload == workload && slices.ContainsFunc(mapValues(g.Cells), func(c *analysis.Cell) bool { return isCampaign(r, c) }) {
			n++
		}
	}
	return n
}

func mapValues(cells map[string]*analysis.Cell) []*analysis.Cell {
	out := make([]*analysis.Cell, 0, len(cells))
	for _, c := range cells {
		out = append(out, c)
	}
	return out
}

// FigureTable returns the figures of merit of workload: for each of
// FiguresOfMerit, then each other metric that expect gives a value or an
// ordering for, one row
// per policy (in Result.Policies order) with a successful cell of workload
// that has a value or a paper value. A policy's value is the mean over its successful campaign cells
// of workload, with the 95% confidence interval when there are two or more.
func FigureTable(r *analysis.Result, workload string, expect analysis.Expectations) []FigureRow {
	metrics := make([]string, 0, len(FiguresOfMerit))
	for _, f := range FiguresOfMerit {
		metrics = append(metrics, f.Metric)
	}
	for _, m := range append(expect.ValueMetrics(workload), expect.OrderingMetrics(workload)...) {
		if !slices.Contains(metrics, m) {
			metrics = append(metrics, m)
		}
	}
	var rows []FigureRow
	for _, metric := range metrics {
		m := r.Column(metric)
		for _, policy := range r.Policies {
			if !ranCampaigns(r, workload, policy) {
				continue
			}
			nan := math.NaN()
			row := FigureRow{Workload: workload, Metric: metric, Policy: policy, MeanInterval: stats.MeanInterval{Mean: nan, Low: nan, High: nan}}
			if m >= 0 {
				var values []float64
				for _, g := range r.Pairing.Groups {
					if c := g.Cells[policy]; c != nil && isCampaign(r, c) && c.Workload == workload {
						values = append(values, c.Values[m])
					}
				}
				if mean, err := stats.MeanCI(values, 0.95); err == nil {
					row.MeanInterval = mean
				}
			}
			if paper, ok := expect.PaperValue(workload, metric, policy); ok {
				row.Paper = &paper
				row.Matches = row.HasOurs() && paper.Matches(metric, row.Mean)
			}
			if row.HasOurs() || row.Paper != nil {
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// ranCampaigns reports whether policy has a successful campaign cell of
// workload.
func ranCampaigns(r *analysis.Result, workload, policy string) bool {
	for _, g := range r.Pairing.Groups {
		if c := g.Cells[policy]; c != nil && isCampaign(r, c) && c.Workload == workload {
			return true
		}
	}
	return false
}

// Figures returns the figure tables of every campaign workload, in
// Workloads order.
func Figures(r *analysis.Result, expect analysis.Expectations) []FigureRow {
	var rows []FigureRow
	for _, w := range Workloads(r) {
		rows = append(rows, FigureTable(r, w, expect)...)
	}
	return rows
}

// FigureLabel returns the label of metric in FiguresOfMerit, or the metric
// name.
func FigureLabel(metric string) string {
	if i := slices.IndexFunc(FiguresOfMerit, func(f Figure) bool { return f.Metric == metric }); i >= 0 {
		return FiguresOfMerit[i].Label
	}
	if label, ok := figureLabels[metric]; ok {
		return label
	}
	return metric
}
