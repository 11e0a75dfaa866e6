package sweep

import (
	"os"
	"testing"
)

// The manifest mistakes of issue 35's "Messages that mislead", each with
// the message that names it: before, `month:` said that `estimates` does
// not apply, `format: batsm` spoke of an empty generator, a Batsim JSON
// without format said "no jobs", `record: {job: true}` named a Go type,
// `instances: two` named no field, and no message offered a "did you
// mean".
func TestMisleadingMessages(t *testing.T) {
	batsim, err := os.ReadFile("testdata/batsim.yaml")
	if err != nil {
		t.Fatal(err)
	}
	months, err := os.ReadFile("testdata/fairshare-tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	small, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	checkManifestEdits(t, months, "testdata/bad.yaml", []manifestEdit{
		{"month for months", "months: {from", "month: {from",
			`bad.yaml: line 10: workloads[0]: unknown key "month" (did you mean months?); valid keys: label, generator, instances, set, trace,`},
		{"mistyped policy", "policies: [fcfs-easy]", "policies: [fcfs-esy]",
			`line 12: policies: unknown policy "fcfs-esy" (did you mean fcfs-easy?); valid policies:`},
		{"mistyped top-level key", "platform: single:4", "platfrom: single:4",
			`line 6: platfrom: unknown key (did you mean platform?); valid top-level keys:`},
	})
	checkManifestEdits(t, batsim, "testdata/bad.yaml", []manifestEdit{
		{"format batsm", "format: batsim", "format: batsm",
			`bad.yaml: line 9: workloads[0]: format "batsm": unknown (did you mean batsim?); valid formats: batsim, csv (an SWF log, the default, takes no format key)`},
		{"Batsim JSON without format", "    format: batsim\n", "",
			`small.json:1: a JSON document, not an SWF log; a Batsim workload is read with format: batsim`},
		{"record job", "record: {jobs: true}", "record: {job: true}",
			`line 12: record: unknown key "job" (did you mean jobs?); valid keys: jobs, campaigns, users`},
		{"record not a bool", "record: {jobs: true}", "record: {jobs: yes please}",
			`line 12: record: jobs: "yes please"; want true or false`},
		{"mistyped workload key", "format: batsim", "fromat: batsim",
			`bad.yaml: line 9: workloads[0]: unknown key "fromat" (did you mean format?)`},
	})
	checkManifestEdits(t, small, "testdata/bad.yaml", []manifestEdit{
		{"instances two", "instances: 2\n    set: {jobs: 40", "instances: two\n    set: {jobs: 40",
			`bad.yaml: line 7: workloads: instances: "two"; want a whole number >= 1`},
		{"mistyped generator", "burkimsher2013/fan-chain", "burkimsher2013/fan-chian",
			`generator "burkimsher2013/fan-chian": unknown (did you mean burkimsher2013/fan-chain?)`},
		// Sizes drawn by a distribution without a floor can be smaller
		// than a job's tasks: every cell of the instance would fail at run
		// time, so the settings are refused before (fan-chain's largest
		// job: 3 blocks x (5 x 15 + 2) = 231 tasks).
		{"infeasible generator settings", "set: {jobs: 40, total: 20000000}", "set: {jobs: 40, total: 400, job-dist: uniform}",
			`line 6: workloads[0]: preset burkimsher2013/fan-chain: job-dist=uniform can draw a job of fewer ticks than its tasks (up to 231); jobs of several tasks need job-dist=uunifast-discard with job-min >= 231`},
	})
}
