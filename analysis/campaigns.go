package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/stats"

	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// A ValueColumn is a numeric column of the cells table that the analysis
// compares across policies: a metric of MetricColumns or a campaign
// summary of CampaignColumns.
type ValueColumn struct {
	Name    string
	Integer bool // stored as int64
	Better  table.Direction
}

// valueColumns returns MetricColumns as value columns, followed by
// CampaignColumns when campaign is set: the order of Cell.Values.
func valueColumns(campaign bool) []ValueColumn {
	var columns []ValueColumn
	for _, m := range grid.MetricColumns() {
		columns = append(columns, ValueColumn{Name: m.Name, Integer: m.Integer, Better: m.Better})
	}
	if campaign {
		for _, c := range mcampaign.CampaignColumns() {
			columns = append(columns, ValueColumn{Name: c.Name, Integer: c.Integer, Better: c.Better})
		}
	}
	return columns
}

func columnNames(columns []ValueColumn) []string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	return names
}

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
	Paper   *Expected // nil when the manifest's expect.values gives none
	Matches bool      // ours satisfies Paper (see Expected.Matches)
}

// HasOurs reports whether at least one cell gave a value.
func (f FigureRow) HasOurs() bool { return f.N > 0 }

// CampaignWorkloads returns the labels of the workloads whose successful
// cells carry campaign summaries, in name order.
func (r *Result) CampaignWorkloads() []string {
	var labels []string
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			if c.Campaign && !slices.Contains(labels, c.Workload) {
				labels = append(labels, c.Workload)
			}
		}
	}
	slices.Sort(labels)
	return labels
}

// HasLoads reports whether some successful cell has a load, i.e. is a DAG
// cell that seed 004's tables describe.
func (r *Result) HasLoads() bool {
	return slices.ContainsFunc(r.Loads, func(load float64) bool { return load > 0 })
}

// Instances returns the number of pair groups of workload whose cells
// carry campaign summaries: its instances.
func (r *Result) Instances(workload string) int {
	n := 0
	for _, g := range r.Pairing.Groups {
		if g.Key.Workload == workload && slices.ContainsFunc(mapValues(g.Cells), func(c *Cell) bool { return c.Campaign }) {
			n++
		}
	}
	return n
}

func mapValues(cells map[string]*Cell) []*Cell {
	out := make([]*Cell, 0, len(cells))
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
func (r *Result) FigureTable(workload string, expect Expectations) []FigureRow {
	metrics := make([]string, 0, len(FiguresOfMerit))
	for _, f := range FiguresOfMerit {
		metrics = append(metrics, f.Metric)
	}
	for _, m := range append(expect.valueMetrics(workload), expect.orderingMetrics(workload)...) {
		if !slices.Contains(metrics, m) {
			metrics = append(metrics, m)
		}
	}
	var rows []FigureRow
	for _, metric := range metrics {
		m := slices.IndexFunc(r.Columns, func(c ValueColumn) bool { return c.Name == metric })
		for _, policy := range r.Policies {
			if !r.ranCampaigns(workload, policy) {
				continue
			}
			nan := math.NaN()
			row := FigureRow{Workload: workload, Metric: metric, Policy: policy, MeanInterval: stats.MeanInterval{Mean: nan, Low: nan, High: nan}}
			if m >= 0 {
				var values []float64
				for _, g := range r.Pairing.Groups {
					if c := g.Cells[policy]; c != nil && c.Campaign && c.Workload == workload {
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
func (r *Result) ranCampaigns(workload, policy string) bool {
	for _, g := range r.Pairing.Groups {
		if c := g.Cells[policy]; c != nil && c.Campaign && c.Workload == workload {
			return true
		}
	}
	return false
}

// Figures returns the figure tables of every campaign workload, in
// CampaignWorkloads order.
func (r *Result) Figures(expect Expectations) []FigureRow {
	var rows []FigureRow
	for _, w := range r.CampaignWorkloads() {
		rows = append(rows, r.FigureTable(w, expect)...)
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

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	return keys
}

// CampaignSample is the campaigns of one workload under one policy, from
// the campaigns table of a run that recorded it (record.campaigns).
type CampaignSample struct {
	Workload, Policy string
	// Stretches are the stretches of every campaign of every successful
	// cell, ascending.
	Stretches []float64
	// UserMax holds, by user profile ("" for users without one), the max
	// campaign stretch of each user of each cell, ascending.
	UserMax map[string][]float64
}

// Profiles returns the profiles of s.UserMax in name order.
func (s CampaignSample) Profiles() []string { return sortedKeys(s.UserMax) }

// ReadCampaignSamples reads the campaigns table of the results directory
// dir for the successful campaign cells of r, one sample per workload and
// policy with campaigns, in CampaignWorkloads and then Result.Policies
// order. Rows of other cells (failed, or unknown to the cells table) are
// left out. It returns no sample when the run did not record campaigns;
// part files that cannot be read are returned as problems.
func ReadCampaignSamples(dir string, r *Result) ([]CampaignSample, []store.Problem, error) {
	set, problems, err := store.ReadColumns(dir, table.Campaigns, []string{table.CellID, table.CampaignUser, table.CampaignProfile, table.CampaignStretch})
	if err != nil {
		return nil, nil, fmt.Errorf("reading campaigns: %w", err)
	}
	if set.Rows == 0 {
		return nil, problems, nil
	}
	for _, c := range set.Columns {
		want := store.TypeString
		if c.Name == table.CampaignStretch {
			want = store.TypeFloat64
		}
		if c.Type != want {
			return nil, nil, fmt.Errorf("reading campaigns of %s: column %q is %v; want %v", dir, c.Name, c.Type, want)
		}
	}
	cells := map[string]*Cell{}
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			if c.Campaign {
				cells[c.ID] = c
			}
		}
	}
	type key struct{ workload, policy string }
	type userKey struct{ cell, user string }
	stretches := map[key][]float64{}
	userMax := map[userKey]float64{}
	profileOf := map[userKey]string{}
	ids, users, profiles := set.Columns[0].Strings, set.Columns[1].Strings, set.Columns[2].Strings
	values := set.Columns[3].Float64s
	for i := range set.Rows {
		c := cells[ids[i]]
		if c == nil {
			continue
		}
		k := key{c.Workload, c.Policy}
		stretches[k] = append(stretches[k], values[i])
		if math.IsInf(values[i], 1) {
			continue // no work: no user maximum (see SummarizeCampaigns)
		}
		u := userKey{c.ID, users[i]}
		if old, ok := userMax[u]; !ok || values[i] > old {
			userMax[u] = values[i]
		}
		profileOf[u] = profiles[i]
	}
	var samples []CampaignSample
	for _, workload := range r.CampaignWorkloads() {
		for _, policy := range r.Policies {
			k := key{workload, policy}
			if len(stretches[k]) == 0 {
				continue
			}
			s := CampaignSample{Workload: workload, Policy: policy, Stretches: stretches[k], UserMax: map[string][]float64{}}
			slices.Sort(s.Stretches)
			for u, m := range userMax {
				if c := cells[u.cell]; c.Workload == workload && c.Policy == policy {
					s.UserMax[profileOf[u]] = append(s.UserMax[profileOf[u]], m)
				}
			}
			for _, maxima := range s.UserMax {
				slices.Sort(maxima) // sorting makes the map's order irrelevant
			}
			samples = append(samples, s)
		}
	}
	return samples, problems, nil
}
