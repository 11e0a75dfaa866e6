// Package builtin registers sweep's own models: the one place that lists
// them. A program that adds models of its own starts from Registry and
// registers them after these.
package builtin

import (
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/moldable"
	"github.com/sweep-sched/sweep/model/rigid"
)

// Registry returns a new registry of the built-in models, in the order of
// their columns in a cells table.
func Registry() *model.Registry {
	r, err := model.NewRegistry(grid.Model{}, campaign.Model{}, moldable.Model{}, rigid.Model{})
	if err != nil {
		panic(err) // the built-in models have distinct names, sections and policies
	}
	return r
}
