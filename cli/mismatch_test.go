package cli

import (
	"path/filepath"
	"testing"
)

// TestPlanTimeMismatches: a workload that cannot run on the manifest's
// platform, or a policy that cannot run the workload, is refused by plan
// and run before any cell runs: exit 2, the message names the manifest
// field, the workload and what would be valid, and nothing is written.
func TestPlanTimeMismatches(t *testing.T) {
	trace, err := filepath.Abs("../sweep/testdata/norequest.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	const grid = "experiment: x\nseed: 1\nworkloads:\n  - {generator: burkimsher2013/fan, instances: 1, set: {jobs: 5, total: \"50000000\"}}\nloads: [1.0]\n"
	tests := []struct {
		name, manifest, want string
	}{
		{"task kinds the platform lacks",
			grid + "platform: single:16\npolicies: [pslr]\n",
			`workloads[0] (fan, a grid workload): platform single:16 has no cluster of kind Kind2, which burkimsher2013/fan draws (kind2-prob 0.2); give a platform with Kind1 and Kind2 clusters such as burkimsher2013, or set kind2-prob: 0`},
		{"tasks wider than every cluster",
			"experiment: x\nseed: 1\nworkloads:\n  - {generator: burkimsher2013/fan, instances: 1, set: {jobs: 5, total: \"50000000\", kind2-prob: \"0\"}}\nloads: [1.0]\nplatform: single:16\npolicies: [pslr]\n",
			`platform single:16: the widest Kind1 cluster has 16 cores but burkimsher2013/fan draws tasks of up to 20 cores (cores 1,5,10,15,20); give a wider platform or set cores`},
		{"moldable workload on a grid platform",
			"experiment: x\nseed: 1\nplatform: burkimsher2013\nworkloads:\n  - {generator: dutot2004/mixed, instances: 1, set: {tasks: 5}}\npolicies: [DEMT]\n",
			`workloads[0] (mixed, a moldable workload): moldable workloads run on one cluster of m identical processors, m = the generator's processors (200): want platform single:200, not burkimsher2013`},
		{"rigid workload on a grid platform",
			"experiment: x\nseed: 1\nplatform: burkimsher2013\nworkloads:\n  - {trace: " + trace + ", months: {from: 1970-01, to: 1970-01}, estimates: [T]}\npolicies: [fcfs-easy]\n",
			`(norequest, a rigid workload): rigid workloads run on identical processors: want a one-cluster platform such as single:64, not burkimsher2013`},
		{"a policy of another model",
			grid + "platform: burkimsher2013\npolicies: [pslr, ostrich]\n",
			`policies: workload "fan" is a grid workload, and policy "ostrich" is a campaign policy; grid workloads take random, fifo-task, fifo-job, fairshare, lrtf, srtf, pslr (or exclude the pair)`},
		{"a parameter the policy does not take",
			grid + "platform: burkimsher2013\npolicies: [pslr, {name: srtf, params: {window: 5}}]\n",
			`policies: policy "srtf" takes no parameters; got "window"`},
	}
	for _, tt := range tests {
		checkRefusedByPlanAndRun(t, tt.name, tt.manifest, tt.want)
	}
}
