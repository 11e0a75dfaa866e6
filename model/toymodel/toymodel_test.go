package toymodel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
)

// byHand is a toy cell scheduled by hand (job k lasts (k+1) x scale
// seconds; a job takes the machine free first, the lowest on a tie):
// where each job ran, by job index, as machine@start, then its makespan,
// sum of ends and jobs.
type byHand struct {
	policy                 string
	jobs, machines, scale  int
	runs                   string
	makespan, sum, howMany int64
}

// TestSimulate checks the list schedule against cells scheduled by hand.
func TestSimulate(t *testing.T) {
	for _, c := range []byHand{
		// j2 (3 s) and j1 (2 s) start at 0 on m0 and m1; j0 (1 s) takes
		// m1, free at 2: ends 3, 2, 3.
		{LongestFirst, 3, 2, 1, "[m1@2 m1@0 m0@0]", 3, 8, 3},
		// 2, 4 and 6 s on m0, m1, m2 at 0; j3 (8 s) on m0, free first at
		// 2: ends 2, 4, 6, 10.
		{ShortestFirst, 4, 3, 2, "[m0@0 m1@0 m2@0 m0@2]", 10, 22, 4},
		// 4, 3, 2 s on m0, m1, m2 at 0; j0 (1 s) on m2, free first at 2:
		// ends 3, 2, 3, 4.
		{LongestFirst, 4, 3, 1, "[m2@2 m2@0 m1@0 m0@0]", 4, 12, 4},
	} {
		name := fmt.Sprintf("%s %d jobs on %d x%d", c.policy, c.jobs, c.machines, c.scale)
		p := prepared{jobs: c.jobs, scale: c.scale, cluster: platform.Cluster{Name: "c1", Cores: c.machines}}
		o, err := p.Simulate(context.Background(), model.Cell{Policy: c.policy})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var runs []string
		for _, r := range o.(outcome).runs {
			runs = append(runs, fmt.Sprintf("m%d@%d", r.machine, r.startSeconds))
		}
		if got := fmt.Sprint(runs); got != c.runs {
			t.Errorf("%s: ran %s; want %s", name, got, c.runs)
		}
		m, _ := o.Measure(model.Record{})
		var values []any
		for _, v := range m.Values {
			values = append(values, v.Any())
		}
		if got, want := fmt.Sprint(values), fmt.Sprint([]int64{c.makespan, c.sum, c.howMany}); got != want {
			t.Errorf("%s: measures %s; want %s", name, got, want)
		}
	}
	if _, err := (prepared{jobs: 1, scale: 1}).Simulate(context.Background(), model.Cell{Policy: "fifo"}); err == nil || !strings.Contains(err.Error(), "valid policies: toy-spt, toy-lpt") {
		t.Errorf("unknown policy: %v", err)
	}
}

// TestGantt: the first schedule of TestSimulate drawn, a bar per job on
// the machine it ran on.
func TestGantt(t *testing.T) {
	p := prepared{jobs: 3, scale: 1, cluster: platform.Cluster{Name: "c1", Cores: 2}}
	o, err := p.Simulate(context.Background(), model.Cell{Policy: LongestFirst})
	if err != nil {
		t.Fatal(err)
	}
	g := o.(model.Charted).Gantt()
	var bars []string
	for _, b := range g.Bars {
		bars = append(bars, fmt.Sprintf("%s on %v %d-%d alone %d", g.Jobs[b.Job].ID, b.ResourceIDs, b.StartTick, b.FinishTick, g.Jobs[b.Job].AloneTicks))
	}
	if got, want := strings.Join(bars, ", "), "j0 on [1] 2-3 alone 1, j1 on [1] 0-2 alone 2, j2 on [0] 0-3 alone 3"; got != want {
		t.Errorf("bars %s; want %s", got, want)
	}
	if g.Groups[0] != (model.GanttGroup{Name: "c1", Resources: 2}) || g.Words.Resource != "machine" {
		t.Errorf("groups %v, words %v; want c1 of 2 machines", g.Groups, g.Words)
	}
}

// TestRefused: bad settings and workload entries name what would do.
func TestRefused(t *testing.T) {
	for section, want := range map[string]string{
		"{scale: 0}":  "scale 0; want a whole number >= 1",
		"{scael: 2}":  `unknown key "scael"; valid keys: scale`,
		"{scale: x2}": "cannot unmarshal",
	} {
		var node yaml.Node
		if err := yaml.Unmarshal([]byte(section), &node); err != nil {
			t.Fatal(err)
		}
		if _, err := (Model{}).ParseSettings(node.Content[0]); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("toy: %s: %v; want %q", section, err, want)
		}
	}
	for set, want := range map[string]string{
		"":                "set: give jobs",
		"{jobs: 0}":       `set: jobs "0"; want a count >= 1`,
		"{jobs: 2, n: 3}": `set: "n": unknown; valid parameters: jobs`,
	} {
		w := model.WorkloadSpec{Generator: Generator}
		if err := yaml.Unmarshal([]byte(set), &w.Set); err != nil {
			t.Fatal(err)
		}
		if _, err := (Model{}).NewSource(&w, model.Env{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("set %s: %v; want %q", set, err, want)
		}
	}
}
