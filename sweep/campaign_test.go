package sweep

import (
	"os"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// TestCampaignWorkloads runs synthetic campaign instances and a trace
// excerpt: every cell ok with a null load, the campaigns table holding
// exactly the campaigns the cells count, and the same numbers with -j 1
// and -j 2.
func TestCampaignWorkloads(t *testing.T) {
	m := loadTestManifest(t, "testdata/campaigns.yaml")
	if n := len(m.Cells()); n != 7 {
		t.Fatalf("%d cells, want 2 synthetic x 2 policies + 1 trace x 3 policies = 7", n)
	}
	one, two := t.TempDir(), t.TempDir()
	if s := mustRun(t, m, RunOptions{Out: one, Jobs: 1}); s.Ran != 7 || s.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 7, 0", s.Ran, s.Failed)
	}
	mustRun(t, m, RunOptions{Out: two, Jobs: 2})
	for _, name := range []string{"cells", "jobs"} {
		key := cellKey
		if name == "jobs" {
			key = jobKey
		}
		a, b := tableOf(t, m, one, name, key), tableOf(t, m, two, name, key)
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%s differ between -j 1 and -j 2", name)
		}
	}
	cells, _, err := parquet.ReadColumns(one, "cells", []string{"status", "load", "campaigns", "campaign_stretch_mean"})
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for i := 0; i < cells.Rows; i++ {
		if cells.Column("status").Strings[i] != table.StatusOK || !cells.Column("load").IsNull(i) || cells.Column("campaign_stretch_mean").IsNull(i) {
			t.Fatalf("cell %d: status %s, load null %v", i, cells.Column("status").Strings[i], cells.Column("load").IsNull(i))
		}
		want += cells.Column("campaigns").Int64s[i]
	}
	camps, _, err := parquet.ReadColumns(one, "campaigns", []string{"cell_id", "stretch"})
	if err != nil {
		t.Fatal(err)
	}
	if int64(camps.Rows) != want {
		t.Fatalf("campaigns table has %d rows, the cells count %d campaigns", camps.Rows, want)
	}
	for i, s := range camps.Column("stretch").Float64s {
		if !(s >= 1) {
			t.Fatalf("campaign row %d has stretch %v < 1", i, s)
		}
	}
}

func TestCampaignManifestErrors(t *testing.T) {
	base, err := os.ReadFile("testdata/campaigns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edits := []manifestEdit{
		{"dag policy", "[ostrich, fcfs, log]", "[ostrich, pslr, log]", `workload "synth" is a campaign workload, and policy "pslr" is a grid policy; campaign workloads take fcfs, ostrich, log`},
		{"log without trace", "exclude:\n  - {workload: synth, policy: log}\n", "", `workload "synth": policy log replays a recorded schedule and needs a trace workload`},
		{"loads", "platform: single:8", "platform: single:8\nloads: [1.0]", "load ratios apply to open-loop workloads (grid, rigid); leave loads out"},
		{"grid", "platform: single:8", "platform: burkimsher2013", "campaign workloads run on identical processors: want a one-cluster platform"},
		{"missing trace", "trace: ../../workload/swf/testdata/tiny.swf.txt", "trace: nosuch.swf", "trace: open "},
		{"bad profile key", "short-users: 2}", "shorts: 2}", `set:`},
		{"job order", "platform: single:8", "platform: single:8\ncampaign: {job-order: edf}", `line 7: campaign: job-order "edf"; want spt, lpt or fifo`},
		{"stretch base", "platform: single:8", "platform: single:8\ncampaign: {stretch-base: mean}", `stretch-base "mean"; want one of bound, bound-release, alone`},
		{"hold", "platform: single:8", "platform: single:8\ncampaign: {hold: always}", `line 7: campaign: hold "always"; want one of virtual-start, none`},
	}
	checkManifestEdits(t, base, "testdata/bad.yaml", edits)
}

// TestTraceReport: what the SWF reader drops, filters, repairs and notes in
// a trace workload is shown by plan and kept in every part file's
// metadata. tiny.swf.txt has 10 comment lines and 21 job lines; the window
// (Dec 6 2004, Europe/Paris) filters the 2 jobs of Dec 7; job 5 runs 0 s
// (dropped), job 7's allocated processors come from its request
// (repaired), job 9's wait is unknown and job 12 is submitted before job
// 11 (noted): 18 jobs remain.
func TestTraceReport(t *testing.T) {
	m := loadTestManifest(t, "testdata/campaigns.yaml")
	out := t.TempDir()
	p, err := m.Plan(out, Shard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	p.Write(&b)
	want := []string{
		"trace     workload head: ../workload/swf/testdata/tiny.swf.txt: 31 lines = 18 jobs + 1 dropped + 2 filtered + 10 comment + 0 blank",
		"1      dropped   run time 0",
		"2      filtered  submit time outside the window",
		"1      repaired  allocated processors -1 or 0: requested used",
		"1      noted     wait time -1 (campaigns take 0)",
		"1      noted     submit time below an earlier job's",
	}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("plan lacks %q:\n%s", w, b.String())
		}
	}
	m.Policies = []PolicySpec{{Name: "log"}}
	mustRun(t, m, RunOptions{Out: out, Jobs: 1})
	parts, _, err := parquet.ListParts(out, table.Cells)
	if err != nil || len(parts) == 0 {
		t.Fatalf("no cells parts: %v", err)
	}
	for _, part := range parts {
		if got := part.Metadata["sweep.trace_report.head"]; !strings.Contains(got, want[0][len("trace     workload head: "):]) {
			t.Errorf("%s: metadata sweep.trace_report.head = %q", part.Path, got)
		}
	}
}
