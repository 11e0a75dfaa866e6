// Package resultstest writes hand-made results directories for the tests
// of the analysis and report packages: a small DAG run of two loads and
// three policies, a campaign run with its campaigns table, job rows.
package resultstest

import (
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
)

// Models are the models whose cells the fixtures write: the grid's and
// the campaign model's, for analysis.MeasuresOf.
func Models() []model.Model { return []model.Model{grid.Model{}, campaign.Model{}} }
