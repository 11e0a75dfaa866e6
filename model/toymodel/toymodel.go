// Package toymodel is a model that exists only for tests. It proves that a
// model in a package of its own runs, analyses, reports and shows through
// the seam (package model) with one registration line,
// registry.Register(toymodel.Model{}), and no edit in the runner, cli,
// analysis or report; and it is small enough that every value it gives
// can be computed by hand in the test that asserts it.
//
// The toy's workload entry is {generator: toy/jobs, set: {jobs: N}}:
// instance i of it is N + i jobs (so instances differ and the paired
// analysis has something to compare), job k lasting (k + 1) x scale
// seconds (scale from the manifest's `toy: {scale: S}` section, default
// 1), all there at time 0 on the m machines of a one-cluster platform
// (single:m). A policy list-schedules them in order of length, shortest
// first (toy-spt) or longest first (toy-lpt): each job starts on the
// machine free first, the lowest-numbered on a tie, as soon as it is free.
//
// A cell measures the last end (toy_makespan), the sum of the ends
// (toy_sum_completion) and the number of jobs (toy_jobs, descriptive). The
// model asks the report for two figures (model.Figured) and its outcomes
// draw themselves as Gantt charts of jobs on machines (model.Charted).
package toymodel

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// Model is the toy model; register it to run the toy's manifests.
type Model struct{}

// The names a manifest gives the toy.
const (
	// Generator is the toy's only workload generator.
	Generator = "toy/jobs"
	// ShortestFirst and LongestFirst are its policies; the first is the
	// paired analysis' reference.
	ShortestFirst = "toy-spt"
	LongestFirst  = "toy-lpt"
)

// Name is the toy's model name, its section's key and its measures' prefix.
func (Model) Name() string    { return "toy" }
func (Model) Doc() string     { return "jobs of 1, 2, ..., n seconds list-scheduled on identical machines" }
func (Model) Version() string { return "1" }
func (Model) Section() string { return "toy" }
func (Model) UsesLoads() bool { return false }
func (Model) Policies() []model.Policy {
	return []model.Policy{{Name: ShortestFirst, Doc: "shortest job first"}, {Name: LongestFirst, Doc: "longest job first"}}
}
func (Model) Generators() []string               { return []string{Generator} }
func (Model) Takes(w *model.WorkloadSpec) bool   { return w.Generator == Generator }
func (Model) Tables(model.Record) []store.Schema { return nil }
func (Model) Measures() []table.Measure {
	return []table.Measure{
		{Name: "toy_makespan", Integer: true, Unit: "seconds", Better: table.LowerIsBetter, Doc: "the last end"},
		{Name: "toy_sum_completion", Integer: true, Unit: "seconds", Better: table.LowerIsBetter, Doc: "the sum of the ends"},
		{Name: "toy_jobs", Integer: true, Unit: "jobs", Doc: "jobs of the instance"},
	}
}

// Figures asks the report for the sum's boxes and the makespan's means,
// and so for no box of the makespan.
func (Model) Figures() []model.Figure {
	return []model.Figure{
		{Kind: model.BoxByPolicy, Measure: "toy_sum_completion"},
		{Kind: model.MeanByLoad, Measure: "toy_makespan", Title: "toy makespan by load"},
	}
}

// settings are the toy's section: every job's length is multiplied by
// scale.
type settings struct{ scale int }

func (s settings) Canonical() string { return fmt.Sprintf("scale=%d", s.scale) }

// ParseSettings reads `toy: {scale: S}`; S defaults to 1.
func (Model) ParseSettings(section *yaml.Node) (model.Settings, error) {
	s := struct {
		Scale int `yaml:"scale"`
	}{Scale: 1}
	if section != nil {
		if err := model.DecodeSection(section, &s, "scale"); err != nil {
			return nil, err
		}
	}
	if s.Scale < 1 {
		return nil, fmt.Errorf("scale %d; want a whole number >= 1", s.Scale)
	}
	return settings{s.Scale}, nil
}

// NewSource reads the entry's `set: {jobs: N}`, the first instance's jobs.
func (Model) NewSource(w *model.WorkloadSpec, _ model.Env) (model.Source, error) {
	if err := w.CheckOptions(); err != nil {
		return nil, err
	}
	jobs := 0
	err := w.ApplySet(func(key, value string) error {
		if key != "jobs" {
			return fmt.Errorf("%q: unknown; valid parameters: jobs", key)
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("jobs %q; want a count >= 1", value)
		}
		jobs = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	if jobs == 0 {
		return nil, fmt.Errorf("set: give jobs, the first instance's count of jobs")
	}
	return source{jobs: jobs}, nil
}

// source is a workload entry: its first instance's count of jobs.
type source struct{ jobs int }

func (s source) Describe(label string, instances int) string {
	return fmt.Sprintf("%s (%d to %d jobs)", label, s.jobs, s.jobs+max(instances, 1)-1)
}
func (source) Report() string      { return "" }
func (source) Allows(string) error { return nil }
func (source) CheckPlatform(name string, p *platform.Platform) error {
	if len(p.Clusters) != 1 {
		return fmt.Errorf("toy jobs want one cluster of machines (single:M), not %s", name)
	}
	return nil
}

// Groups gives each instance its cells; nothing in the toy is drawn at
// random, so the workload seed is the instance alone.
func (s source) Groups(ax model.Axes) [][]model.Cell {
	return model.Instances(ax, "1", fmt.Sprint("toy jobs=", s.jobs), func(_ uint64, _ string, instance int) [2]uint64 {
		return [2]uint64{uint64(instance), 0}
	})
}

func (s source) Prepare(_ context.Context, c model.Cell, env model.Env) (model.Prepared, error) {
	cluster := env.Platforms[c.Platform].Clusters[0]
	return prepared{jobs: s.jobs + c.Instance, scale: env.Settings.(settings).scale, cluster: cluster}, nil
}

// prepared is one instance on one platform.
type prepared struct {
	jobs, scale int
	cluster     platform.Cluster
}

// Simulate list-schedules the instance's jobs under the cell's policy.
func (p prepared) Simulate(_ context.Context, c model.Cell) (model.Outcome, error) {
	order := make([]int, p.jobs) // jobs by index, job k the (k+1)-th shortest
	for k := range order {
		order[k] = k
	}
	switch c.Policy {
	case ShortestFirst:
	case LongestFirst:
		slices.Reverse(order)
	default:
		return nil, fmt.Errorf("toy: policy %q: unknown; valid policies: %s, %s", c.Policy, ShortestFirst, LongestFirst)
	}
	o := outcome{cluster: p.cluster, runs: make([]run, p.jobs)}
	freeAt := make([]int64, p.cluster.Cores)
	for _, k := range order {
		m := slices.Index(freeAt, slices.Min(freeAt))
		o.runs[k] = run{machine: m, startSeconds: freeAt[m], seconds: int64((k + 1) * p.scale)}
		freeAt[m] += o.runs[k].seconds
	}
	return o, nil
}

// outcome is a simulated cell: where and when each job ran, by job index.
type outcome struct {
	cluster platform.Cluster
	runs    []run
}

// run is one job's machine and time.
type run struct {
	machine               int
	startSeconds, seconds int64
}

func (r run) endSeconds() int64 { return r.startSeconds + r.seconds }

func (o outcome) Measure(model.Record) (model.Measured, error) {
	var makespan, sum int64
	for _, r := range o.runs {
		makespan = max(makespan, r.endSeconds())
		sum += r.endSeconds()
	}
	return model.Measured{Values: []store.Value{store.Int64(makespan), store.Int64(sum), store.Int64(int64(len(o.runs)))}}, nil
}

// Gantt draws each job as one bar on the machine it ran on (a tick is a
// second); its time alone is its length, as nothing ever delays a job but
// the queue.
func (o outcome) Gantt() model.Gantt {
	g := model.Gantt{Words: model.GanttWords{Bar: "job", Resource: "machine"},
		Groups: []model.GanttGroup{{Name: o.cluster.Name, Resources: o.cluster.Cores}}}
	for k, r := range o.runs {
		g.Jobs = append(g.Jobs, model.GanttJob{ID: fmt.Sprint("j", k), FinishTick: r.endSeconds(), AloneTicks: r.seconds})
		g.Bars = append(g.Bars, model.GanttBar{Job: k, Resources: 1, StartTick: r.startSeconds, FinishTick: r.endSeconds(), ResourceIDs: []int{r.machine}})
	}
	return g
}
