package rigid

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"gopkg.in/yaml.v3"
)

// nodeCells resolves a workload entry on the platform file plat and
// simulates its first group's cells under policy.
func nodeCells(t *testing.T, entry, plat, policy string) ([]*Outcome, error) {
	t.Helper()
	var w model.WorkloadSpec
	if err := yaml.Unmarshal([]byte(entry), &w); err != nil {
		t.Fatal(err)
	}
	p, err := platform.Parse(plat)
	if err != nil {
		t.Fatal(err)
	}
	s := settings(t, "")
	env := model.Env{Path: func(p string) string { return p }, Platforms: map[string]*platform.Platform{"p": p}, Settings: s}
	src, err := Model{}.NewSource(&w, env)
	if err != nil {
		return nil, err
	}
	if err := src.CheckPlatform("p", p); err != nil {
		return nil, err
	}
	return firstGroupCells(t, src, model.Axes{Experiment: "x", Label: "w", Platforms: []string{"p"}, Instances: 1,
		Policies: []string{policy}, Settings: s, Env: env}), nil
}

// firstGroupCells simulates every cell of the first group of src's cells
// on ax.
func firstGroupCells(t *testing.T, src model.Source, ax model.Axes) []*Outcome {
	t.Helper()
	groups := src.Groups(ax)
	prep, err := src.Prepare(context.Background(), groups[0][0], ax.Env)
	if err != nil {
		t.Fatal(err)
	}
	var out []*Outcome
	for _, c := range groups[0] {
		o, err := prep.Simulate(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.(*Outcome))
	}
	return out
}

// The CSV job list of workload/jobcsv's testdata on issue 34's platform,
// through the model (the runner's validator checks the schedule): four
// jobs (1 on two CPU nodes, 2 on the GPU node, 3 pooled, 4 anywhere),
// all fitting, all started, on their partitions.
func TestCSVOnNodes(t *testing.T) {
	out, err := nodeCells(t, "{trace: ../../workload/jobcsv/testdata/jobs.csv, format: csv}", "../../platform/testdata/cpu-gpu.yaml", PolicyFCFSEasy)
	if err != nil {
		t.Fatal(err)
	}
	o := out[0]
	if len(o.Workload.Jobs) != 4 || o.DroppedWide != 0 || o.Workload.Machine == nil {
		t.Fatalf("%d jobs, %d dropped", len(o.Workload.Jobs), o.DroppedWide)
	}
	parts := map[int64]string{}
	for j, job := range o.Workload.Jobs {
		parts[job.Number] = o.partitionOf(o.Schedule.Nodes[j])
	}
	if parts[1] != "cpu" || parts[2] != "gpu" || parts[3] != "gpu" {
		// Job 1 holds both CPU nodes' cores until 3600, so job 3 (6
		// pooled cores, any partition) goes to the GPU node at 30.
		t.Errorf("partitions %v", parts)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	data, _ := os.ReadFile("../../workload/jobcsv/testdata/jobs.csv")
	os.WriteFile(bad, []byte(strings.Replace(string(data), ",gpu,", ",accel,", 1)), 0o644)
	if _, err := nodeCells(t, "{trace: "+bad+", format: csv}", "../../platform/testdata/cpu-gpu.yaml", PolicyFCFSEasy); err == nil ||
		!strings.Contains(err.Error(), `job 2: partition "accel": the platform has cpu, gpu`) {
		t.Errorf("unknown partition: %v", err)
	}
	if _, err := nodeCells(t, "{trace: ../../workload/jobcsv/testdata/jobs.csv, format: csv}", "single:16", PolicyFCFSEasy); err == nil ||
		!strings.Contains(err.Error(), "want a platform of nodes") {
		t.Errorf("on processors: %v", err)
	}
}

// lublin1999 on a platform of nodes: every job gets a request that fits
// (NodeRequests clamps), the schedule is checked by the runner's
// validator, and some jobs ran on the GPU partition.
func TestGeneratedOnNodes(t *testing.T) {
	out, err := nodeCells(t, "{generator: lublin1999, set: {jobs: 300}}", "../../experiments/platforms/gpu-cluster.yaml", "sjf")
	if err != nil {
		t.Fatal(err)
	}
	o := out[0]
	gpu := 0
	for j := range o.Workload.Jobs {
		if o.Workload.Requests[j].GPUsPerNode > 0 {
			gpu++
		}
	}
	if len(o.Workload.Jobs) != 300 || gpu == 0 || gpu == 300 {
		t.Errorf("%d jobs, %d on GPUs", len(o.Workload.Jobs), gpu)
	}
	if _, err := nodeCells(t, "{generator: lublin1999, set: {jobs: 30, gpu-jobs: 0.5}}", "single:64", "sjf"); err == nil ||
		!strings.Contains(err.Error(), "are for platforms of nodes") {
		t.Errorf("node parameters on processors: %v", err)
	}
}
