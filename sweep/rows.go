package sweep

import (
	"time"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"

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

func jobTableRows(c Cell, outcomes []engine.JobOutcome, measured []grid.JobMetrics) []store.Row {
	// One backing array for the cell's values: a row each would be 10,000
	// allocations for the paper's largest cells, and the garbage collector
	// then competes with the workers for the cores.
	const width = 11
	values := make([]store.Value, 0, width*len(outcomes))
	rows := make([]store.Row, len(outcomes))
	for j, o := range outcomes {
		jm := measured[j]
		first := len(values)
		values = append(values,
			store.String(c.ID), store.Int64(int64(j)), store.Int64(o.ArrivalTick), store.Int64(o.StartTick),
			store.Int64(o.FinishTick), store.Int64(o.VolumeCoreTicks), store.Int64(o.CriticalPathTicks),
			store.Float64(jm.SLR), store.Float64(jm.Stretch), store.Float64(jm.Speedup), store.Int64(int64(o.Tasks)))
		rows[j] = values[first:len(values):len(values)]
	}
	return rows
}

func campaignTableRows(c Cell, campaigns []mcampaign.CampaignRow) []store.Row {
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

// volumeDecileRows are the volume_deciles rows of a DAG cell.
func volumeDecileRows(c Cell, deciles []grid.VolumeDecile) []store.Row {
	rows := make([]store.Row, len(deciles))
	for i, d := range deciles {
		rows[i] = store.Row{store.String(c.ID), store.Int64(int64(d.Decile)), store.Int64(d.Jobs),
			store.Float64(d.SLRSum), store.Float64(d.SLRMax)}
	}
	return rows
}

// childRows are a cell's rows in the tables other than cells.
type childRows struct{ jobs, campaigns, deciles, users []store.Row }

// ordered returns the rows in the order of Manifest.childSchemas.
func (r childRows) ordered(m *Manifest) [][]store.Row {
	var out [][]store.Row
	if m.Record.Jobs {
		out = append(out, r.jobs)
	}
	if m.Record.Campaigns {
		out = append(out, r.campaigns)
	}
	if m.hasDAG() {
		out = append(out, r.deciles)
	}
	if m.Record.Users {
		out = append(out, r.users)
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
// then, when the manifest has DAG or campaign workloads, the metric
// columns of grid.MetricColumns; when it has campaign workloads, the
// campaign summary columns (null for DAG cells); and when it has moldable
// workloads, table.MoldableMeasures (null for the others, whose measures
// are null in moldable cells).
func (m *Manifest) CellsSchema() store.Schema {
	if m.hasRigid() {
		return table.CellsSchema(table.FairShareMeasures())
	}
	var measures []table.Measure
	if m.hasSchedules() {
		for _, c := range grid.MetricColumns() {
			measures = append(measures, table.Measure{Name: c.Name, Integer: c.Integer})
		}
	}
	if m.hasCampaigns() {
		for _, c := range mcampaign.CampaignColumns() {
			measures = append(measures, table.Measure{Name: c.Name, Integer: c.Integer})
		}
	}
	if m.hasMoldable() {
		measures = append(measures, table.MoldableMeasures()...)
	}
	return table.CellsSchema(measures)
}

// hasRigid reports whether the manifest's workloads are trace months of
// rigid jobs; then they all are.
func (m *Manifest) hasRigid() bool {
	return len(m.sources) > 0 && m.sources[0].rigid != nil
}

// hasDAG reports whether the manifest has DAG workloads (seed 004).
func (m *Manifest) hasDAG() bool {
	for _, s := range m.sources {
		if s.kind() == "dag" {
			return true
		}
	}
	return false
}

// hasSchedules reports whether the manifest has DAG or campaign
// workloads, which the engine simulates.
func (m *Manifest) hasSchedules() bool {
	for _, s := range m.sources {
		if k := s.kind(); k == "dag" || k == "campaign" {
			return true
		}
	}
	return false
}

func (m *Manifest) hasMoldable() bool {
	for _, s := range m.sources {
		if s.moldable != nil {
			return true
		}
	}
	return false
}

// appendNulls appends n nulls: the measures of other models.
func appendNulls(row store.Row, n int) store.Row {
	for range n {
		row = append(row, store.Null())
	}
	return row
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
	if m.hasDAG() {
		// Ten rows per DAG cell: Fig. 7 without job rows.
		out = append(out, table.VolumeDecilesSchema())
	}
	if m.Record.Users {
		out = append(out, table.UsersSchema())
	}
	return out
}
