// Package builtin registers sweep's own models: the one place that lists
// them. A program that adds policies of its own passes the models that
// carry them (rigid.Model{Own: ...}, grid.Model{Own: ...}) to Registry;
// one that adds models registers them on the registry it returns.
package builtin

import (
	"fmt"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/moldable"
	"github.com/sweep-sched/sweep/model/rigid"
)

// Registry returns a new registry of the built-in models, in the order of
// their columns in a cells table; each model given replaces the built-in
// model of its name, such as a rigid.Model with the researcher's own
// policies. It panics if a model given has no built-in namesake or two
// policies share a name: a program's own registry is fixed at build time.
func Registry(replace ...model.Model) *model.Registry {
	models := []model.Model{grid.Model{}, campaign.Model{}, moldable.Model{}, rigid.Model{}}
	for _, m := range replace {
		found := false
		for i, b := range models {
			if b.Name() == m.Name() {
				models[i], found = m, true
			}
		}
		if !found {
			panic(fmt.Sprintf("builtin.Registry: model %q is not built in; register it on the registry returned", m.Name()))
		}
	}
	r, err := model.NewRegistry(models...)
	if err != nil {
		panic(fmt.Sprintf("builtin.Registry: %v", err))
	}
	return r
}
