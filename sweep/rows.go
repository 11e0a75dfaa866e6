package sweep

import (
	"fmt"
	"time"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/engine"
	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// typedValue is a column's value as the type the column is stored as.
func typedValue(integer bool, i func() int64, f func() float64) store.Value {
	if integer {
		return store.Int64(i())
	}
	return store.Float64(f())
}

func jobTableRows(c Cell, outcomes []engine.JobOutcome) ([]store.Row, error) {
	rows := make([]store.Row, len(outcomes))
	for j, o := range outcomes {
		jm, err := analysis.ComputeJobMetrics(o)
		if err != nil {
			return nil, fmt.Errorf("job %d metrics: %w", j, err)
		}
		rows[j] = store.Row{
			store.String(c.ID), store.Int64(int64(j)), store.Int64(o.ArrivalTick), store.Int64(o.StartTick),
			store.Int64(o.FinishTick), store.Int64(o.VolumeCoreTicks), store.Int64(o.CriticalPathTicks),
			store.Float64(jm.SLR), store.Float64(jm.Stretch), store.Float64(jm.Speedup), store.Int64(int64(o.Tasks)),
		}
	}
	return rows, nil
}

func campaignTableRows(c Cell, campaigns []analysis.CampaignRow) []store.Row {
	rows := make([]store.Row, len(campaigns))
	for i, r := range campaigns {
		rows[i] = store.Row{
			store.String(c.ID), store.String(r.User), store.String(r.Profile), store.Int64(r.Campaign),
			store.Int64(r.Jobs), store.Int64(r.SubmitTicks), store.Int64(r.CompletionTicks),
			store.Int64(r.WorkTicks), store.Float64(r.Stretch),
		}
	}
	return rows
}

// childRows are a cell's rows in the tables other than cells.
type childRows struct{ jobs, campaigns []store.Row }

// ordered returns the rows in the order of Manifest.childSchemas.
func (r childRows) ordered(m *Manifest) [][]store.Row {
	var out [][]store.Row
	if m.Record.Jobs {
		out = append(out, r.jobs)
	}
	if m.Record.Campaigns {
		out = append(out, r.campaigns)
	}
	return out
}

func cellHead(m *Manifest, c Cell, status, errText string, wall time.Duration) store.Row {
	errValue := store.Null()
	if errText != "" {
		errValue = store.String(errText)
	}
	load := store.Null()
	if c.Load != 0 {
		load = store.Float64(c.Load)
	}
	return store.Row{
		store.String(c.ID), store.String(m.Experiment), store.String(c.Workload), store.String(c.Generator),
		store.Int64(int64(c.Instance)), store.Int64(int64(c.Replicate)), load, store.String(c.Platform), store.String(c.Policy),
		store.Int64(int64(c.WorkloadSeed[0])), store.String(status), errValue, store.Int64(wall.Milliseconds()),
	}
}

func failedRow(m *Manifest, c Cell, err error) store.Row {
	row := cellHead(m, c, table.StatusFailed, err.Error(), 0)
	for range len(m.CellsSchema().Columns) - len(row) {
		row = append(row, store.Null())
	}
	return row
}

// CellsSchema is the cells table: the identity columns of table.CellHead,
// then the metric columns of analysis.MetricColumns and, when the manifest
// has campaign workloads, the campaign summary columns (null for DAG
// cells).
func (m *Manifest) CellsSchema() store.Schema {
	var measures []table.Measure
	for _, c := range analysis.MetricColumns() {
		measures = append(measures, table.Measure{Name: c.Name, Integer: c.Integer})
	}
	if m.hasCampaigns() {
		for _, c := range analysis.CampaignColumns() {
			measures = append(measures, table.Measure{Name: c.Name, Integer: c.Integer})
		}
	}
	return table.CellsSchema(measures)
}

func (m *Manifest) hasCampaigns() bool {
	for _, s := range m.sources {
		if s.campaigns {
			return true
		}
	}
	return false
}

// childSchemas are the tables besides cells that the manifest records.
func (m *Manifest) childSchemas() []store.Schema {
	var out []store.Schema
	if m.Record.Jobs {
		out = append(out, table.JobsSchema())
	}
	if m.Record.Campaigns {
		out = append(out, table.CampaignsSchema())
	}
	return out
}
