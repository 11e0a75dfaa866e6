package grid

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store"
)

// decileSchema is the SLR of each job-volume decile per load and policy
// (seed 004 Fig. 7), averaged over the cells; load is null for cells
// without one.
var decileSchema = store.Schema{Table: "deciles", Columns: []store.Column{
	{Name: "load", Type: store.TypeFloat64, Nullable: true}, {Name: "policy", Type: store.TypeString},
	{Name: "decile", Type: store.TypeInt64}, {Name: "jobs", Type: store.TypeInt64},
	{Name: "slr_mean", Type: store.TypeFloat64}, {Name: "slr_max", Type: store.TypeFloat64},
}}

// Tables returns the grid tables: deciles.
func (g *Result) Tables() []analysis.Table {
	var deciles []store.Row
	if g.Deciles != nil {
		for _, d := range g.Deciles.Rows {
			deciles = append(deciles, store.Row{
				analysis.LoadValue(d.Load), store.String(d.Policy), store.Int64(int64(d.Decile)),
				store.Int64(d.Jobs), store.Float64(d.SLRMean), store.Float64(d.SLRMax),
			})
		}
	}
	return []analysis.Table{{Schema: decileSchema, Rows: deciles}}
}
