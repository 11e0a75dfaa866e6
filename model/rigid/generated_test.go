package rigid

import (
	"context"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/gen/grid"
	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// TestGeneratedEstimates: the estimates list of a generated workload,
// default included, and what each entry tells the scheduler.
func TestGeneratedEstimates(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  []generatedEstimate
		err   string
	}{
		{nil, []generatedEstimate{{"tsafrir2005", rigid.EstimateRequested}}, ""},
		{[]string{"T", "tsafrir2005"}, []generatedEstimate{{"T", rigid.EstimateExact}, {"tsafrir2005", rigid.EstimateRequested}}, ""},
		{[]string{"R"}, nil, "estimates: R is a log's requested times, and a generated job has none of its own: want tsafrir2005"},
		{[]string{"T", "T"}, nil, "estimates: T listed twice"},
		{[]string{"tsafrir"}, nil, `estimates: "tsafrir": want tsafrir2005 (the Tsafrir-Etsion-Feitelson estimates; the default) or T`},
	} {
		got, err := parseGeneratedEstimates(tt.names)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v; want %q", tt.names, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Fatalf("%v: %v, %v; want %v", tt.names, got, err, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%v: entry %d is %v; want %v", tt.names, i, got[i], tt.want[i])
			}
		}
	}
}

// TestGeneratorSet: set takes jobs, the Lublin parameters and the Tsafrir
// ones, each checked against its domain, and names every parameter for an
// unknown one.
func TestGeneratorSet(t *testing.T) {
	g := newGeneratorSpec()
	for _, kv := range [][2]string{{"jobs", "500"}, {"serial-prob-batch", "0.3"}, {"max-estimate", "64800"}} {
		if err := g.set(kv[0], kv[1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	if g.jobs != 500 || g.lublin.Batch.SerialProb != 0.3 || g.estimates.MaxEstimateSeconds != 64800 {
		t.Errorf("set gave jobs %d, serial-prob-batch %v, max-estimate %d; want 500, 0.3, 64800", g.jobs, g.lublin.Batch.SerialProb, g.estimates.MaxEstimateSeconds)
	}
	if got, want := g.changed(), "jobs=500 serial-prob-batch=0.3 max-estimate=64800"; got != want {
		t.Errorf("changed %q; want %q", got, want)
	}
	for _, tt := range [][3]string{
		{"jobs", "0", `lublin1999: parameter jobs="0": want a job count in 1..10000000`},
		{"serial-prob-batch", "1.5", `lublin1999: parameter serial-prob-batch="1.5": want a probability in [0, 1]`},
		{"max-estimate", "60", `tsafrir2005: parameter max-estimate="60": want whole seconds, at least 3600`},
		{"procs", "128", `lublin1999: unknown parameter "procs"; valid parameters: jobs, a1, `},
	} {
		if err := g.set(tt[0], tt[1]); err == nil || !strings.Contains(err.Error(), tt[2]) {
			t.Errorf("%s=%s: error %v; want %q", tt[0], tt[1], err, tt[2])
		}
	}
	if err := g.check(64); err != nil {
		t.Errorf("defaults on 64 processors: %v", err)
	}
	if err := g.set("uhi-batch", "8"); err != nil {
		t.Fatal(err)
	}
	if err := g.check(128); err == nil || !strings.Contains(err.Error(), "uhi-batch = 8: want at most log2(128 processors) = 7") {
		t.Errorf("uhi-batch 8 on 128 processors: error %v; want one naming uhi-batch and log2(128)", err)
	}
}

// TestGeneratedCellsPaired: the cells of one instance (both estimate
// variants, both platforms, both policies) share its seed, which is
// grid.InstanceSeed of the root seed, the Lublin parameters with the job
// count, and the instance; the instances differ; and the jobs each cell
// runs are those gen/rigid draws from that seed, with the Tsafrir
// estimates from the seed of the estimate parameters.
func TestGeneratedCellsPaired(t *testing.T) {
	spec := &model.WorkloadSpec{}
	if err := yaml.Unmarshal([]byte("{generator: lublin1999, instances: 2, set: {jobs: 300}, estimates: [tsafrir2005, T]}"), spec); err != nil {
		t.Fatal(err)
	}
	if !(Model{}).Takes(spec) {
		t.Fatal("the rigid model does not take generator lublin1999")
	}
	src, err := Model{}.NewSource(spec, model.Env{})
	if err != nil {
		t.Fatal(err)
	}
	platforms := map[string]*platform.Platform{}
	for _, name := range []string{"single:64", "single:128"} {
		p, err := platform.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		platforms[name] = p
		if err := src.CheckPlatform(name, p); err != nil {
			t.Fatal(err)
		}
	}
	settings, err := Model{}.ParseSettings(nil)
	if err != nil {
		t.Fatal(err)
	}
	env := model.Env{Platforms: platforms, Settings: settings}
	ax := model.Axes{Experiment: "x", Seed: 5, RootSeed: 5, Label: "lublin", Generator: genrigid.LublinName, Instances: 2,
		Platforms: []string{"single:64", "single:128"}, Policies: []string{PolicyFCFSEasy, PolicyRelShare}, Settings: settings, Env: env}
	groups := src.Groups(ax)
	if len(groups) != 2 || len(groups[0]) != 8 || len(groups[1]) != 8 {
		t.Fatalf("groups %d of %d, %d cells; want 2 instances of 2 estimates x 2 platforms x 2 policies", len(groups), len(groups[0]), len(groups[1]))
	}
	canon := genrigid.DefaultParams().Canonical() + " jobs=300"
	for inst, g := range groups {
		want := grid.InstanceSeed(5, canon, inst)
		for _, c := range g {
			if c.WorkloadSeed != want || c.Instance != inst {
				t.Errorf("cell %s: seed %v, instance %d; want %v, %d", c.Name(), c.WorkloadSeed, c.Instance, want, inst)
			}
		}
	}
	if groups[0][0].WorkloadSeed == groups[1][0].WorkloadSeed {
		t.Errorf("instances 0 and 1 share a seed")
	}
	if got := groups[0][0].Name(); got != "lublin-tsafrir2005/i000/L-/single:64/fcfs-easy" {
		t.Errorf("first cell %q; want lublin-tsafrir2005/i000/L-/single:64/fcfs-easy", got)
	}

	c := groups[1][7] // instance 1, T, single:128, relshare
	prep, err := src.Prepare(context.Background(), c, env)
	if err != nil {
		t.Fatal(err)
	}
	out, err := prep.Simulate(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	o := out.(*Outcome)
	w, _, err := genrigid.Lublin(genrigid.DefaultParams(), 128, 300, grid.InstanceSeed(5, canon, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := genrigid.Tsafrir(w.Jobs, genrigid.DefaultEstimateParams(), grid.InstanceSeed(5, canon+" "+genrigid.DefaultEstimateParams().Canonical(), 1)); err != nil {
		t.Fatal(err)
	}
	if o.Variant != rigid.EstimateExact || len(o.Workload.Jobs) != 300 || o.Workload.Procs != 128 {
		t.Fatalf("outcome variant %v, %d jobs on %d; want T, 300 jobs on 128", o.Variant, len(o.Workload.Jobs), o.Workload.Procs)
	}
	for i := range w.Jobs {
		if o.Workload.Jobs[i] != w.Jobs[i] {
			t.Fatalf("job %d: the cell ran %+v; gen/rigid draws %+v", i, o.Workload.Jobs[i], w.Jobs[i])
		}
	}
	if !strings.HasPrefix(o.Workload.Name, "lublin1999 instance 1, root seed 5: 300 jobs on 128 processors, jobs=300; estimates T") {
		t.Errorf("workload name %q", o.Workload.Name)
	}
}
