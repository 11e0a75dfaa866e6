package sweep

import (
	"os"
	"strings"
	"testing"
)

// TestFieldRules breaks each of checkFields' rules in turn on the small
// manifest (testdata/small.yaml) and checks the error names the line,
// the field and what would be valid.
func TestFieldRules(t *testing.T) {
	base, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const workloads = "workloads:\n  - generator: burkimsher2013/fan-chain\n    instances: 2\n    set: {jobs: 40, total: 20000000}\n" +
		"  - generator: burkimsher2013/log-independent\n    label: logind\n    instances: 2\n    set: {jobs: 300, total: 30000000}\n"
	const record = "record: {jobs: true}"
	edits := []manifestEdit{
		{"experiment name", "experiment: small", "experiment: -small",
			`bad.yaml: line 2: experiment: "-small"; want a name of letters, digits, '.', '_' or '-' (it names results/<experiment>/)`},
		{"negative replicates", "seed: 7", "seed: 7\nreplicates: -2",
			"bad.yaml: line 4: replicates: -2; want a whole number >= 1, or leave it out to run the experiment once"},
		{"no platform", "platform: burkimsher2013\n", "",
			"bad.yaml: platform: missing; want a preset (burkimsher2013, single:N) or a platform file"},
		{"no workloads", workloads, "workloads: []\n",
			"bad.yaml: workloads: missing; want at least one {generator: PRESET, instances: N} (presets: "},
		{"load too large", "[0.9, 1.2]", "[0.9, 2e6]",
			"bad.yaml: line 13: loads: 2e+06; every load ratio must be > 0 (1.0 = work arrives as fast as the platform can run it)"},
		{"load twice", "[0.9, 1.2]", "[0.9, 1.2, 0.9]", "bad.yaml: line 13: loads: 0.9 listed twice"},
		{"no policies", "[pslr, random, fairshare]", "[]", "bad.yaml: policies: missing; valid policies: random, fifo-task, "},
		{"policy without a name", "[pslr, random, fairshare]", "[pslr, {params: {}}]",
			"bad.yaml: line 14: policies: an entry without a name; give name: NAME"},
		{"policy twice", "[pslr, random, fairshare]", "[pslr, random, pslr]", `bad.yaml: line 14: policies: "pslr" listed twice`},
		{"label twice", "label: logind", "label: fan-chain",
			`bad.yaml: line 9: workloads[1]: label "fan-chain" is also workloads[0]'s; give each workload a distinct label`},
		{"empty exclusion", record, record + "\nexclude:\n  - {workload: logind}\n  - {}",
			"bad.yaml: line 16: exclude[1]: empty; name at least one of workload, platform, policy, load"},
		{"exclusion of another workload", record, record + "\nexclude: [{workload: fan-out}]",
			`bad.yaml: line 16: exclude[0]: workload "fan-out" is not a workload label of this manifest`},
		{"exclusion of another policy", record, record + "\nexclude: [{policy: srtf}]",
			`bad.yaml: line 16: exclude[0]: policy "srtf" is not in policies`},
		{"exclusion of another load", record, record + "\nexclude: [{load: 0.5}]",
			"bad.yaml: line 16: exclude[0]: load 0.5 is not in loads"},
		{"exclusion of another platform", record, record + "\nexclude: [{platform: single:4}]",
			`bad.yaml: line 16: exclude[0]: platform "single:4" is not in platforms`},
	}
	checkManifestEdits(t, base, "bad.yaml", edits)

	// An exclusion naming a workload label, a policy, a load and a
	// platform of the manifest is valid, and removes its cells: 2
	// instances x 1 load of logind under pslr.
	text := strings.Replace(string(base), record,
		record+"\nexclude: [{workload: logind, policy: pslr, load: 1.2, platform: burkimsher2013}]", 1)
	m, err := ParseManifest([]byte(text), "good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(m.Cells()); got != 24-2 {
		t.Errorf("%d cells, want 22", got)
	}
}
