package sweep

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Every cell of a rigid trace at a load achieves it within 0.5% (the
// issue's bound), whole, in a window of dates and in a window of job
// indices, on the machine of the trace's header; without loads the same
// workloads replay their recorded arrivals (target 0), and their ids are
// other cells' than those at a load.
func TestRigidTraceLoads(t *testing.T) {
	m := loadTestManifest(t, "testdata/rigid-loads.yaml")
	out := t.TempDir()
	if sum := mustRun(t, m, RunOptions{Out: out, Jobs: 1}); sum.Ran != 6 || sum.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 3 workloads x 2 loads = 6, 0", sum.Ran, sum.Failed)
	}
	set, _, err := parquet.ReadColumns(out, table.Cells, []string{table.CellID, table.Workload, table.Load, "offered_load_target", "offered_load_achieved", table.FairJobs})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for r := range set.Rows {
		target, achieved := set.Column("offered_load_target").Float64s[r], set.Column("offered_load_achieved").Float64s[r]
		if load := set.Column(table.Load).Float64s[r]; load != target || !(math.Abs(achieved-target) <= 0.005*target) {
			t.Errorf("%s at load %v: target %v, achieved %v", set.Column(table.Workload).Strings[r], load, target, achieved)
		}
		ids[set.Column(table.CellID).Strings[r]] = true
	}
	names := map[string]bool{}
	for _, c := range m.Cells() {
		names[c.Name()] = true
	}
	for _, want := range []string{"whole-R/whole/L0.5/trace/fcfs-easy", "seq-T/jobs:10..30/L0.9/trace/fcfs-easy", "days-T/1970-01-01T06:00:00Z..1970-01-02/L0.5/trace/fcfs-easy"} {
		if !names[want] {
			t.Errorf("no cell named %s among %v", want, names)
		}
	}
	if len(names) != 6 {
		t.Errorf("%d names for 6 cells", len(names))
	}
	// seq measures jobs 10..29, by index, at every load.
	for r := range set.Rows {
		if set.Column(table.Workload).Strings[r] == "seq-T" && set.Column(table.FairJobs).Int64s[r] != 20 {
			t.Errorf("seq-T measures %d jobs, want the 20 of indices 10..29", set.Column(table.FairJobs).Int64s[r])
		}
	}

	text, err := os.ReadFile("testdata/rigid-loads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := ParseManifest([]byte(deleteLine(string(text), "loads: [0.5, 0.9]\n")), "testdata/rigid-loads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells := recorded.Cells()
	if len(cells) != 3 {
		t.Fatalf("without loads: %d cells, want 3", len(cells))
	}
	for _, c := range cells {
		if c.Load != 0 || ids[c.ID] {
			t.Errorf("without loads: cell %s at load %v, id shared with a loaded cell: %v", c.Name(), c.Load, ids[c.ID])
		}
	}
}

func deleteLine(text, line string) string {
	for i := 0; i+len(line) <= len(text); i++ {
		if text[i:i+len(line)] == line {
			return text[:i] + text[i+len(line):]
		}
	}
	return text
}

// A whole trace is a rigid or a campaign workload by the manifest's
// policies; with both, model: says which, and a model that does not take
// the entry is refused naming those that do.
func TestWholeTraceModel(t *testing.T) {
	base := []byte(`experiment: which
seed: 1
platform: single:16
workloads:
  - {trace: ../../model/rigid/testdata/loads.swf.txt, label: log, estimates: [T]}
policies: [fcfs-easy]
`)
	m, err := ParseManifest(base, "testdata/which.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if md := m.ModelOf(m.Cells()[0]); md.Name() != "rigid" {
		t.Errorf("whole trace under fcfs-easy: model %s, want rigid", md.Name())
	}
	// fcfs is the campaign model's and the rigid model's: with sjf, only
	// the rigid model offers every policy; alone, it does not tell.
	for _, policies := range []string{"[fcfs, sjf]", "[{name: fcfs, params: {backfill: none, head: committed}}, f1]"} {
		shared, err := ParseManifest(bytes.Replace(base, []byte("[fcfs-easy]"), []byte(policies), 1), "testdata/which.yaml")
		if err != nil {
			t.Fatalf("policies %s: %v", policies, err)
		}
		if md := shared.ModelOf(shared.Cells()[0]); md.Name() != "rigid" {
			t.Errorf("whole trace under %s: model %s, want rigid", policies, md.Name())
		}
	}
	checkManifestEdits(t, base, "testdata/which.yaml", []manifestEdit{
		{"a name both models offer", "policies: [fcfs-easy]", "policies: [fcfs]", "the workload could be a campaign or rigid workload and the policies do not tell which; give model: (campaign, rigid)"},
		{"a rigid parameter", "policies: [fcfs-easy]", "policies: [{name: fcfs, params: {backfil: none}}]", `policy "fcfs" takes no parameter "backfil"`},
		{"both models' policies", "policies: [fcfs-easy]", "policies: [fcfs-easy, ostrich]", "the workload could be a campaign or rigid workload and the policies do not tell which; give model: (campaign, rigid)"},
		{"a model that does not take it", "label: log,", "label: log, model: grid,", `model "grid": want one of the models that take this workload: campaign, rigid`},
		{"model campaign", "label: log,", "label: log, model: campaign,", `key "estimates" does not apply to this workload`},
	})
}
