package sweep

import (
	"slices"
	"time"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

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
	for range len(m.measures()) {
		row = append(row, store.Null())
	}
	return row
}

// models returns the models of the manifest's workloads, in registry
// order.
func (m *Manifest) usedModels() []model.Model {
	var out []model.Model
	for _, md := range m.models.Models() {
		if slices.ContainsFunc(m.sources, func(rs resolvedSource) bool { return rs.model.Name() == md.Name() }) {
			out = append(out, md)
		}
	}
	return out
}

// ModelNames names the models of the manifest's workloads, in registry
// order: the Parquet metadata key sweep.models.
func (m *Manifest) ModelNames() []string {
	var names []string
	for _, md := range m.usedModels() {
		names = append(names, md.Name())
	}
	return names
}

// measures is the union of the measures of the manifest's models, by
// name, in registry order: a model that shares a measure with another
// (the campaign model has every grid metric) fills the same column.
func (m *Manifest) measures() []table.Measure {
	var out []table.Measure
	for _, md := range m.usedModels() {
		for _, ms := range md.Measures() {
			if !slices.ContainsFunc(out, func(o table.Measure) bool { return o.Name == ms.Name }) {
				out = append(out, ms)
			}
		}
	}
	return out
}

// CellsSchema is the cells table: the identity columns of table.CellHead,
// then the measures of the manifest's models; a cell's columns of another
// model's measures are null. The workload, platform and policy columns
// state their categories in the manifest's order (workloads as their
// cells come in Cells, e.g. kth-T before kth-R; platforms and policies as
// listed), so a notebook's tables and figures follow the manifest rather
// than the order of the first part file (see store.Column.Categories).
func (m *Manifest) CellsSchema() store.Schema {
	schema := table.CellsSchema(m.measures())
	var workloads []string
	for _, c := range m.Cells() {
		if !slices.Contains(workloads, c.Workload) {
			workloads = append(workloads, c.Workload)
		}
	}
	order := map[string][]string{table.Workload: workloads, table.Platform: m.Platforms, table.Policy: m.PolicyNames()}
	for i, c := range schema.Columns {
		schema.Columns[i].Categories = order[c.Name]
	}
	return schema
}

// childSchemas are the tables besides cells that the manifest's models
// write, each once.
func (m *Manifest) childSchemas() []store.Schema {
	var out []store.Schema
	for _, md := range m.usedModels() {
		for _, s := range md.Tables(m.Record) {
			if !slices.ContainsFunc(out, func(o store.Schema) bool { return o.Table == s.Table }) {
				out = append(out, s)
			}
		}
	}
	return out
}

// layout places each model's measures in the cells table: layout[model]
// [i] is the column, after the identity, of the model's i-th measure.
func (m *Manifest) layout() map[string][]int {
	all := m.measures()
	out := map[string][]int{}
	for _, md := range m.usedModels() {
		for _, ms := range md.Measures() {
			out[md.Name()] = append(out[md.Name()], slices.IndexFunc(all, func(o table.Measure) bool { return o.Name == ms.Name }))
		}
	}
	return out
}

// cellRow is a finished cell's row: its identity, then its measures in
// their columns, null in the columns of other models.
func cellRow(head store.Row, width int, positions []int, values []store.Value) store.Row {
	row := make(store.Row, len(head)+width)
	copy(row, head)
	for i := len(head); i < len(row); i++ {
		row[i] = store.Null()
	}
	for i, v := range values {
		row[len(head)+positions[i]] = v
	}
	return row
}

// ordered returns a cell's child rows in the order of schemas.
func ordered(schemas []store.Schema, children map[string]store.Child) []store.Child {
	out := make([]store.Child, len(schemas))
	for i, s := range schemas {
		out[i] = children[s.Table]
	}
	return out
}
