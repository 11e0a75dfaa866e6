package sweep

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	rigidmodel "github.com/sweep-sched/sweep/model/rigid"

	arigid "github.com/sweep-sched/sweep/analysis/rigid"
	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/report"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/workload/rigid"
)

const kthTrace = "../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

func needKTH(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(kthTrace); err != nil {
		t.Skipf("%s is absent: download it from the Parallel Workloads Archive into ../shared/traces/ to run this", kthTrace)
	}
}

// TestFairShareMonths runs two KTH months x {T, R} x three policies: the
// same rows with -j 1 and -j 2, each cell's numbers those of simulating
// and measuring the month directly, and the users table summing to each
// cell's total |dev|.
func TestFairShareMonths(t *testing.T) {
	needKTH(t)
	m := loadTestManifest(t, "testdata/fairshare.yaml")
	cells := m.Cells()
	if len(cells) != 12 {
		t.Fatalf("%d cells, want 2 months x 2 variants x 3 policies = 12", len(cells))
	}
	if got := cells[0].Name(); got != "kth-T/1997-06/single:100/relshare" {
		t.Errorf("first cell %q, want kth-T/1997-06/single:100/relshare", got)
	}
	one, two := t.TempDir(), t.TempDir()
	if s := mustRun(t, m, RunOptions{Out: one, Jobs: 1}); s.Ran != 12 || s.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 12, 0", s.Ran, s.Failed)
	}
	mustRun(t, m, RunOptions{Out: two, Jobs: 2})
	for _, name := range []string{table.Cells, table.Users} {
		key := cellKey
		if name == table.Users {
			key = jobKey
		}
		a, b := tableOf(t, m, one, name, key), tableOf(t, m, two, name, key)
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%s differ between -j 1 and -j 2", name)
		}
	}

	got, _, err := parquet.ReadColumns(one, table.Cells, []string{table.CellID, table.Workload, table.Policy, table.FairMonth,
		table.FairJobs, table.FairUsers, table.FairTopUser, table.FairTotalAbsDev, table.FairWaitMaxHours})
	if err != nil {
		t.Fatal(err)
	}
	trace, err := rigidtrace.Load(kthTrace, rigidtrace.Options{Procs: 100})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := rigidmodel.Model{}.ParseSettings(m.Sections["fairshare"])
	if err != nil {
		t.Fatal(err)
	}
	settings := parsed.(rigidmodel.Settings)
	totals := map[string]float64{}
	for i := range got.Rows {
		id := got.Column(table.CellID).Strings[i]
		month := got.Column(table.FairMonth).Int64s[i]
		variant := rigid.EstimateExact
		if strings.HasSuffix(got.Column(table.Workload).Strings[i], "-R") {
			variant = rigid.EstimateRequested
		}
		mw, err := trace.Month(rigidtrace.Month{Year: int(month / 100), Month: time.Month(month % 100)})
		if err != nil {
			t.Fatal(err)
		}
		sched, err := backfill.Simulate(context.Background(), &mw.Workload, variant, settings.Policy(got.Column(table.Policy).Strings[i]))
		if err != nil {
			t.Fatal(err)
		}
		want, err := fairness.Measure(&mw.Workload, sched.StartSeconds, sched.EndSeconds)
		if err != nil {
			t.Fatal(err)
		}
		if got.Column(table.FairJobs).Int64s[i] != int64(want.Jobs) || got.Column(table.FairUsers).Int64s[i] != int64(want.Users) ||
			got.Column(table.FairTopUser).Int64s[i] != want.TopUser || got.Column(table.FairTotalAbsDev).Float64s[i] != want.TotalAbsDevProcHours ||
			got.Column(table.FairWaitMaxHours).Float64s[i] != want.MaxWaitSeconds/3600 {
			t.Errorf("cell %s (%d): row differs from the direct simulation", id, month)
		}
		totals[id] = want.TotalAbsDevProcHours
	}
	analyzed, err := arigid.Analyze(one)
	if err != nil {
		t.Fatal(err)
	}
	if len(analyzed.Cells) != 12 {
		t.Fatalf("analysis read %d cells, want 12", len(analyzed.Cells))
	}
	for _, c := range analyzed.Cells {
		if c.TotalAbsDev != totals[c.ID] {
			t.Errorf("analysis: cell %s total |dev| %v, the run wrote %v", c.ID, c.TotalAbsDev, totals[c.ID])
		}
	}
	var printed strings.Builder
	if err := report.PrintFairShare(&printed, analyzed); err != nil {
		t.Fatal(err)
	}
	// Table I of KTH 6/97 and 7/97 beside the paper's values (note,
	// section 6), which they equal.
	words := strings.Join(strings.Fields(printed.String()), " ")
	for _, line := range []string{"1997-06 72 (72) 58 (58) 2697 (2697) 29 (29)", "1997-07 62 (62) 59 (59) 2182 (2182) 67 (67)"} {
		if !strings.Contains(words, line) {
			t.Errorf("analysis output lacks %q:\n%s", line, printed.String())
		}
	}
	// The report draws the running total |dev| of the trace (Tables
	// VI/VII), then the dev bars of each month and variant: 5 figures.
	path, err := report.WriteFairShare(one, analyzed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), "<svg"); n != 5 || !strings.Contains(string(html), "kth 1997-07, variant R") ||
		!strings.Contains(string(html), "kth, Tables VI/VII: running total |dev|") {
		t.Errorf("report has %d figures, want 5 (the running |dev|, 2 months x 2 variants) including kth 1997-07, variant R", n)
	}
	users, _, err := parquet.ReadColumns(one, table.Users, []string{table.CellID, table.UserDev})
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for i := range users.Rows {
		sums[users.Column(table.CellID).Strings[i]] += math.Abs(users.Column(table.UserDev).Float64s[i])
	}
	for id, total := range totals {
		if math.Abs(sums[id]-total) > 1e-6*total {
			t.Errorf("cell %s: users' |dev| sum to %v, the cell says %v", id, sums[id], total)
		}
	}
}

func TestFairShareBadInput(t *testing.T) {
	needKTH(t)
	base, err := os.ReadFile("testdata/fairshare.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edits := []manifestEdit{
		{"month format", "from: 1997-06", "from: 6/97", "months: from: month \"6/97\": want YYYY-MM"},
		{"months reversed", "{from: 1997-06, to: 1997-07}", "{from: 1997-07, to: 1997-06}", "months: from 1997-07 comes after to 1997-06"},
		{"estimate", "[T, R]", "[T, X]", `estimates: estimate variant "X": want T (actual run time), R (requested time) or predicted`},
		{"no estimates", "    estimates: [T, R]\n", "", "estimates: missing; want a list of T"},
		{"dag policy", "[relshare, tradeoff-fs, fcfs-easy]", "[relshare, pslr]", `workload "kth" is a rigid workload, and policy "pslr" is a grid policy; rigid workloads take relshare, tradeoff-fs, fcfs-easy`},
		{"window", "{budget: 2000}", "{window: hourly}", `line 13: fairshare: window "hourly"; want tumbling`},
		{"tw", "{budget: 2000}", "{tw: 2d}", `tw "2d"; want a whole number of seconds as a duration such as 48h, or fcfs-max`},
		{"objective", "{budget: 2000}", "{objective: best}", `objective "best"; want tradeoff or hier`},
		{"budget", "{budget: 2000}", "{budget: -1}", "budget -1; want placements >= 0"},
		{"load at the limit", "platform: single:100", "platform: single:100\nloads: [0.5, 1.0]", "loads: workloads[0] (kth): load 1: a rigid workload's offered load must be > 0 and < 1"},
		{"load zero", "platform: single:100", "platform: single:100\nloads: [0]", "loads: 0; every load ratio must be > 0"},
		{"grid", "platform: single:100", "platform: burkimsher2013", "rigid workloads run on identical processors"},
		{"mixed models", "    estimates: [T, R]\n", "    estimates: [T, R]\n  - generator: burkimsher2013/fan\n    instances: 1\n", "workloads[1] (fan, a grid workload): platform single:100 has no cluster of kind Kind2, which burkimsher2013/fan draws"},
	}
	checkManifestEdits(t, base, "testdata/bad.yaml", edits)
}

// A job wider than the cluster is dropped and counted; a month outside
// the trace and variant R on a log without requested times are manifest
// errors naming the file.
func TestFairShareTinyTrace(t *testing.T) {
	m := loadTestManifest(t, "testdata/fairshare-tiny.yaml")
	out := t.TempDir()
	if sum := mustRun(t, m, RunOptions{Out: out, Jobs: 1}); sum.Ran != 1 || sum.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 1, 0", sum.Ran, sum.Failed)
	}
	set, _, err := parquet.ReadColumns(out, table.Cells, []string{table.Workload, table.FairMonth, table.FairJobs, table.FairDroppedWideJobs})
	if err != nil {
		t.Fatal(err)
	}
	if set.Column(table.Workload).Strings[0] != "tiny-T" || set.Column(table.FairMonth).Int64s[0] != 197001 ||
		set.Column(table.FairJobs).Int64s[0] != 2 || set.Column(table.FairDroppedWideJobs).Int64s[0] != 1 {
		t.Errorf("cell %s month %d: %d jobs, %d dropped; want tiny-T 197001 with 2 jobs and the 8-processor job dropped",
			set.Column(table.Workload).Strings[0], set.Column(table.FairMonth).Int64s[0], set.Column(table.FairJobs).Int64s[0], set.Column(table.FairDroppedWideJobs).Int64s[0])
	}

	base, err := os.ReadFile("testdata/fairshare-tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edits := []manifestEdit{
		{"month outside", "to: 1970-01}", "to: 1970-02}", "line 8: workloads[0]: months: testdata/norequest.swf.txt: month 1970-02 is outside the trace (jobs submitted 1970-01-01 to 1970-01-01 UTC)"},
		{"no requests", "estimates: [T]", "estimates: [T, R]", "line 8: workloads[0]: estimates: testdata/norequest.swf.txt: no job has a requested time (field 9 is -1 or 0 on every line): variant R needs them; use variant T"},
		{"missing trace", "trace: norequest.swf.txt", "trace: nosuch.swf", "trace: open testdata/nosuch.swf"},
		{"instances", "label: tiny", "label: tiny\n    instances: 2", "instances 2: a trace is one workload, its months the cells"},
		{"window", "label: tiny", "label: tiny\n    window: {from: 1970-01-01, to: 1970-01-02}", "window and months exclude each other"},
		{"window of dates outside", "months: {from: 1970-01, to: 1970-01}", "window: {from: 1980-01-01, to: 1980-02-01}", "window: testdata/norequest.swf.txt: window 1980-01-01T00:00:00Z..1980-02-01T00:00:00Z has no job: want dates within the trace (jobs submitted 1970-01-01 to 1970-01-01 UTC)"},
		{"window of jobs outside", "months: {from: 1970-01, to: 1970-01}", "window: {from_job: 0, to_job: 3}", "window: to_job 3: the trace has 2 jobs on single:4's 4 processors; want to_job <= 2"},
		{"window reversed", "months: {from: 1970-01, to: 1970-01}", "window: {from_job: 2, to_job: 1}", "window: from_job 2, to_job 1: want {from: DATE, to: DATE}"},
		{"platform trace without a size", "platform: single:4\nworkloads:\n  - trace: norequest.swf.txt", "platform: trace\nworkloads:\n  - trace: nosize.swf.txt", "platform trace: testdata/nosize.swf.txt: the header gives neither MaxProcs nor MaxNodes, so the machine's size is unknown; give a platform such as single:N"},
	}
	checkManifestEdits(t, base, "testdata/bad.yaml", edits)
}
