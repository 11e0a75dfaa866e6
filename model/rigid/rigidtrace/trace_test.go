package rigidtrace

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// kthTrace is the KTH SP2 log of seed 003 in the shared trace folder; it
// is never copied into the repository.
const kthTrace = "../../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

func readKTH(tb testing.TB) *Trace {
	tb.Helper()
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s is absent: download KTH-SP2-1996-2.1-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", kthTrace)
	}
	tr, err := Load(kthTrace, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

func mustMonth(tb testing.TB, s string) Month {
	tb.Helper()
	m, err := ParseMonth(s)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// The fixture's lines are hand-made so that each rule of the note's
// section 1 fires once; the expected jobs follow from those rules.
func TestTraceRules(t *testing.T) {
	tr, err := Load("testdata/months.swf.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Report
	if tr.Procs != 32 {
		t.Errorf("Procs = %d, want the header's 32", tr.Procs)
	}
	checks := []struct {
		name      string
		got, want int
	}{
		{"reader jobs", rep.Read.Jobs, 9},
		{"run 0 dropped", rep.Read.Count(swf.ReasonRunZero), 1},
		{"run -1 dropped", rep.Read.Count(swf.ReasonRunUnknown), 1},
		{"processors unknown dropped", rep.Read.Count(swf.ReasonProcsUnknown), 1},
		{"processors repaired", rep.Read.Count(swf.ReasonProcsFromRequest), 1},
		{"run clamped", rep.Read.Count(swf.ReasonRunClamped), 1},
		{"wider than the cluster", rep.ProcsAboveCluster, 1},
		{"request from run", rep.RequestFromRun, 1},
		{"rigid jobs", rep.Jobs(), 8},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	if !slices.Equal(rep.ProcsAboveClusterLines, []int{12}) || !slices.Equal(rep.RequestFromRunLines, []int{9}) {
		t.Errorf("located lines: above cluster %v (want [12]), request from run %v (want [9])", rep.ProcsAboveClusterLines, rep.RequestFromRunLines)
	}
	if s := rep.String(); !regexp.MustCompile(`1 +dropped +processors above the cluster's +12\n`).MatchString(s) {
		t.Errorf("report does not list the wide job:\n%s", s)
	}

	mw, err := tr.Month(mustMonth(t, "1996-10"))
	if err != nil {
		t.Fatal(err)
	}
	want := []rigid.Job{
		{Number: 2, User: 2, SubmitSeconds: 400000, Procs: 8, RunSeconds: 3600, RequestedSeconds: 7200},
		{Number: 3, User: 1, SubmitSeconds: 950399, Procs: 2, RunSeconds: 50, RequestedSeconds: 100},
		{Number: 5, User: 3, SubmitSeconds: 960000, Procs: 16, RunSeconds: 500, RequestedSeconds: 1000},
		{Number: 6, User: 3, SubmitSeconds: 960000, Procs: 4, RunSeconds: 700, RequestedSeconds: 700},
		{Number: 7, User: 1, SubmitSeconds: 970000, Procs: 2, RunSeconds: 600, RequestedSeconds: 600, LoggedRunSeconds: 900}, // clamped from the logged 900 s
		{Number: 10, User: 5, SubmitSeconds: 3628799, Procs: 1, RunSeconds: 10, RequestedSeconds: 10},
		{Number: 11, User: 2, SubmitSeconds: 3628800, Procs: 1, RunSeconds: 10, RequestedSeconds: 10},
	}
	if !slices.Equal(mw.Workload.Jobs, want) {
		t.Errorf("month 1996-10 jobs:\n got %+v\nwant %+v", mw.Workload.Jobs, want)
	}
	if mw.WarmUpJobs != 2 || mw.MeasuredJobs != 4 || mw.CoolDownJobs != 1 {
		t.Errorf("warm-up, measured, cool-down = %d, %d, %d; want 2, 4, 1", mw.WarmUpJobs, mw.MeasuredJobs, mw.CoolDownJobs)
	}
	if mw.Workload.MeasureFromSeconds != 950400 || mw.Workload.MeasureToSeconds != 3628800 {
		t.Errorf("measured window [%d, %d), want [950400, 3628800): October 1996 in UTC", mw.Workload.MeasureFromSeconds, mw.Workload.MeasureToSeconds)
	}
	if err := mw.Workload.Validate(); err != nil {
		t.Error(err)
	}
	if err := tr.CheckRequestedTimes(); err != nil {
		t.Error(err)
	}

	// On 8 processors the 16-processor job 5 (line 10) is dropped too.
	small, err := tr.ForCluster(8)
	if err != nil {
		t.Fatal(err)
	}
	if small.Procs != 8 || small.Report.ProcsAboveCluster != 2 || !slices.Equal(small.Report.ProcsAboveClusterLines, []int{12, 10}) || len(small.Jobs) != 7 {
		t.Errorf("ForCluster(8): %d processors, %d dropped at lines %v, %d jobs; want 8, 2 at [12 10], 7",
			small.Procs, small.Report.ProcsAboveCluster, small.Report.ProcsAboveClusterLines, len(small.Jobs))
	}
	if len(tr.Jobs) != 8 || tr.Report.ProcsAboveCluster != 1 {
		t.Error("ForCluster changed the trace it was called on")
	}
}

func TestTraceErrors(t *testing.T) {
	tr, err := Load("testdata/months.swf.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Month(mustMonth(t, "1996-12"))
	if err == nil || !strings.Contains(err.Error(), "month 1996-12 is outside the trace (jobs submitted 1996-09-21 to 1996-11-01 UTC)") {
		t.Errorf("month outside the trace: %v", err)
	}
	if _, err := ParseMonth("10/96"); err == nil || !strings.Contains(err.Error(), "want YYYY-MM") {
		t.Errorf("ParseMonth(10/96): %v", err)
	}
	noRequest := "; UnixStartTime: 0\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
	tr, err = Read(strings.NewReader(noRequest), "norequest.swf.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.CheckRequestedTimes(); err == nil || !strings.Contains(err.Error(), "norequest.swf.txt: no job has a requested time (field 9") {
		t.Errorf("CheckRequestedTimes: %v", err)
	}
	_, err = Read(strings.NewReader("1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"), "nomax.swf", Options{})
	if err == nil || !strings.Contains(err.Error(), "nomax.swf: header has no MaxProcs") {
		t.Errorf("log without MaxProcs: %v", err)
	}
}

// The (jobs, users) of the ten KTH months are the note's section 6,
// computed under the rules of section 1 in UTC months.
func TestKTHMonths(t *testing.T) {
	tr := readKTH(t)
	want := []struct {
		month       string
		jobs, users int
	}{
		{"1996-10", 2404, 68}, {"1996-11", 1984, 66}, {"1996-12", 2305, 69},
		{"1997-01", 2939, 65}, {"1997-02", 2916, 75}, {"1997-03", 2081, 69},
		{"1997-04", 2860, 83}, {"1997-05", 4080, 80}, {"1997-06", 2697, 58},
		{"1997-07", 2182, 59},
	}
	for _, w := range want {
		mw, err := tr.Month(mustMonth(t, w.month))
		if err != nil {
			t.Fatal(err)
		}
		users := map[int64]bool{}
		for i := range mw.Workload.Jobs {
			if mw.Workload.Measured(i) {
				users[mw.Workload.Jobs[i].User] = true
			}
		}
		if mw.MeasuredJobs != w.jobs || len(users) != w.users {
			t.Errorf("KTH %s: %d jobs, %d users; want %d, %d", w.month, mw.MeasuredJobs, len(users), w.jobs, w.users)
		}
		if err := mw.Workload.Validate(); err != nil {
			t.Error(err)
		}
	}
	t.Logf("KTH report:\n%s", tr.Report)
	if _, err := tr.Month(Month{1998, time.January}); err == nil {
		t.Error("KTH 1998-01 should be outside the trace")
	}
}

// BenchmarkLoadSDSCBlue reads the largest trace of the fair-share study
// (243,314 lines) as sweep run does, before its first cell: serial time
// of that run.
func BenchmarkLoadSDSCBlue(b *testing.B) {
	const path = "../../../../shared/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		b.Skipf("%s is absent: download SDSC-BLUE-2000-4.2-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", path)
	}
	for b.Loop() {
		if _, err := Load(path, Options{Procs: 1152}); err != nil {
			b.Fatal(err)
		}
	}
}
