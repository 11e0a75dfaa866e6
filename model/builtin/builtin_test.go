package builtin_test

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/rigid"
)

// A model given to Registry replaces its built-in namesake, in place: its
// own policies are offered after the built-in ones.
func TestRegistryReplaces(t *testing.T) {
	r := builtin.Registry(rigid.Model{Own: []rigid.Policy{{Name: "mine"}}}, grid.Model{Own: []grid.Order{{Name: "small-first"}}})
	var names []string
	for _, md := range r.Models() {
		names = append(names, md.Name())
	}
	if got := strings.Join(names, " "); got != "grid campaign moldable rigid" {
		t.Errorf("models %q, want the built-in order", got)
	}
	if _, md, ok := r.Policy("mine"); !ok || md.Name() != "rigid" {
		t.Errorf("mine: %v %v", md, ok)
	}
	if _, md, ok := r.Policy("small-first"); !ok || md.Name() != "grid" {
		t.Errorf("small-first: %v %v", md, ok)
	}
	// fcfs is two models' policy, named once among the names.
	var owners []string
	for _, md := range r.PolicyModels("fcfs") {
		owners = append(owners, md.Name())
	}
	if got := strings.Join(owners, " "); got != "campaign rigid" {
		t.Errorf("fcfs offered by %q, want campaign rigid", got)
	}
	if got := r.PolicyNames(); got[len(got)-1] != "mine" || strings.Count(" "+strings.Join(got, " ")+" ", " fcfs ") != 1 {
		t.Errorf("policies %v: want mine last", got)
	}
}

func TestRegistryRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		m    model.Model
		want string
	}{
		{"a built-in's name", rigid.Model{Own: []rigid.Policy{{Name: "fcfs"}}}, `model "rigid": policy "fcfs" listed twice`},
		{"twice", grid.Model{Own: []grid.Order{{Name: "pslr"}}}, `model "grid": policy "pslr" listed twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), c.want) {
					t.Errorf("panic %v, want %q", r, c.want)
				}
			}()
			builtin.Registry(c.m)
		})
	}
}
