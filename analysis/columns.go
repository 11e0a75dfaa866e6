package analysis

import (
	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/store/table"
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
