package fidelity

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store"
)

// claimsSchema is analysis/claims.parquet: one row per claim of the
// papers that the run can address. paper and ours are as printed (a
// number, a bound such as "< 1.4", "significant", the evidence of a claim
// of the text); paper_value and ours_value are their numbers, and
// ci95_low, ci95_high our 95% interval (Wilson for a dominance
// percentage, t over instances for a mean, else the campaigns' bootstrap),
// null where there is none. status is holds, does-not-hold, explained or
// not-checkable; reason, section (the anchor in docs/fidelity.md) and
// reproduced_by are null where they do not apply.
var claimsSchema = store.Schema{Table: "claims", Columns: []store.Column{
	{Name: "study", Type: store.TypeString}, {Name: "claim", Type: store.TypeString},
	{Name: "text", Type: store.TypeString},
	{Name: "paper_text", Type: store.TypeString}, {Name: "paper_value", Type: store.TypeFloat64, Nullable: true},
	{Name: "ours_text", Type: store.TypeString}, {Name: "ours_value", Type: store.TypeFloat64, Nullable: true},
	{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
	{Name: "status", Type: store.TypeString},
	{Name: "reason", Type: store.TypeString, Nullable: true}, {Name: "section", Type: store.TypeString, Nullable: true},
	{Name: "reproduced_by", Type: store.TypeString, Nullable: true},
}}

// Table returns claims as the claims table.
func Table(claims []Claim) analysis.Table {
	t := analysis.Table{Schema: claimsSchema}
	text := func(s string) store.Value {
		if s == "" {
			return store.Null()
		}
		return store.String(s)
	}
	for _, c := range claims {
		t.Rows = append(t.Rows, store.Row{
			store.String(c.Study), store.String(c.ID), store.String(c.Text),
			store.String(c.Paper), analysis.NullIfNaN(c.PaperValue),
			store.String(c.Ours), analysis.NullIfNaN(c.OursValue),
			analysis.NullIfNaN(c.Low), analysis.NullIfNaN(c.High),
			store.String(string(c.Status)), text(c.Reason), text(c.Section), text(c.ReproducedBy),
		})
	}
	return t
}
