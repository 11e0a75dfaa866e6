// Package studies binds sweep's built-in studies to the models whose cells
// they analyse: the one place that says which paper's analysis `sweep
// analyze` and `sweep report` run for a model's cells. It sits above the
// models and the analyses, which know nothing of each other; a program
// passes its bindings to cli.Main beside its registry.
package studies

import (
	"github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/moldable"
	"github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/report"
)

// Builtin returns the built-in studies bound to their models, in the order
// their sections print: seed 003's fair share (rigid cells), seed 002's
// moldable tasks, seed 004's DAG tables and seeds 000/001's campaigns, the
// last two built on one paired comparison.
func Builtin() []report.Binding {
	return []report.Binding{
		{Model: rigid.Model{}.Name(), Study: report.FairShareStudy{}},
		{Model: moldable.Model{}.Name(), Study: report.MoldableStudy{}},
		{Model: grid.Model{}.Name(), Study: report.GridStudy{}},
		{Model: campaign.Model{}.Name(), Study: report.CampaignStudy{}},
	}
}
