package swf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// traceHead returns the first 300 lines of the shared LPC-EGEE log, byte
// for byte (zcat | head -300): 71 header comment lines, then 229 jobs.
// Traces are read from ../shared/traces, never copied into the repository.
func traceHead(tb testing.TB) ([]byte, error) {
	tb.Helper()
	r := openTrace(tb, Options{})
	r.Close()
	f, err := os.Open(lpcTrace)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var head bytes.Buffer
	lines := bufio.NewScanner(zr)
	for n := 0; n < 300 && lines.Scan(); n++ {
		head.Write(lines.Bytes())
		head.WriteByte('\n')
	}
	return head.Bytes(), lines.Err()
}

// traceHeadFile writes traceHead to a temporary file and returns its path.
func traceHeadFile(tb testing.TB) string {
	tb.Helper()
	head, err := traceHead(tb)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "lpc-egee-head300.swf")
	if err := os.WriteFile(path, head, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// headWant holds what the default rules must make of traceHead, counted
// independently with
//
//	zcat LPC-EGEE-2004-1.2-cln.swf.gz | head -300 | grep -v '^;' | awk '{ if ($11==5 && $4<=0) c++;
//	  else if ($4==0) z++; else { k++; if ($9>0 && $4>$9) o++ } }'
//
// which gives c=5 cancelled before running, z=50 run time 0, k=174 kept,
// o=2 run above requested time (lines 177 and 185).
var headWant = struct {
	lines, comments, jobs, cancelledNoRun, runZero, overRequest int
}{300, 71, 174, 5, 50, 2}

func readAllFrom(t *testing.T, r *Reader) []Job {
	t.Helper()
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	return jobs
}

func TestReadLPCEGEEHead(t *testing.T) {
	plain, err := traceHead(t)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()

	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", plain}, {"gzip", gz.Bytes()}} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(tc.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			jobs := readAllFrom(t, r)
			rep := r.Report()
			checks := []struct {
				what      string
				got, want int
			}{
				{"lines", rep.Lines, headWant.lines},
				{"comment lines", rep.CommentLines, headWant.comments},
				{"blank lines", rep.BlankLines, 0},
				{"jobs", rep.Jobs, headWant.jobs},
				{"len(jobs)", len(jobs), headWant.jobs},
				{"cancelled before running", rep.Count(ReasonCancelledNoRun), headWant.cancelledNoRun},
				{"run time 0", rep.Count(ReasonRunZero), headWant.runZero},
				{"run above request", rep.Count(ReasonRunOverRequest), headWant.overRequest},
				{"dropped", rep.Dropped(), headWant.cancelledNoRun + headWant.runZero},
				{"submit decreasing", rep.Count(ReasonSubmitDecreasing), 0},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
				}
			}

			// Line 72: "  9933  3585977       4      16 1      2       0 1   7200     -1 1  1  1 -1 2 1 -1 -1"
			first := Job{Number: 9933, SubmitSeconds: 3585977, WaitSeconds: 4, RunSeconds: 16, AllocatedProcs: 1,
				AverageCPUSeconds: 2, UsedMemoryKB: 0, RequestedProcs: 1, RequestedSeconds: 7200, RequestedMemoryKB: -1,
				Status: StatusCompleted, User: 1, Group: 1, Executable: -1, Queue: 2, Partition: 1, PrecedingJob: -1,
				ThinkTimeSeconds: -1, Line: 72}
			if jobs[0] != first {
				t.Errorf("first job\n got %+v\nwant %+v", jobs[0], first)
			}
			// Line 177: " 10038  3609484       1    7319 1      3 2224964 1   7200     -1 0  3  1 -1 2 1 -1 -1"
			over := Job{Number: 10038, SubmitSeconds: 3609484, WaitSeconds: 1, RunSeconds: 7319, AllocatedProcs: 1,
				AverageCPUSeconds: 3, UsedMemoryKB: 2224964, RequestedProcs: 1, RequestedSeconds: 7200, RequestedMemoryKB: -1,
				Status: StatusFailed, User: 3, Group: 1, Executable: -1, Queue: 2, Partition: 1, PrecedingJob: -1,
				ThinkTimeSeconds: -1, Line: 177, Notes: 1 << ReasonRunOverRequest}
			i := slices.IndexFunc(jobs, func(j Job) bool { return j.Line == 177 })
			if i < 0 || jobs[i] != over {
				t.Errorf("job on line 177: got index %d, want\n%+v", i, over)
			} else if !jobs[i].Notes.Has(ReasonRunOverRequest) || jobs[i].Notes.Has(ReasonRunClamped) {
				t.Errorf("job on line 177 notes %b: want only run above request", jobs[i].Notes)
			}
		})
	}
}

func TestHeaderLPCEGEE(t *testing.T) {
	r, err := Open(traceHeadFile(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	for _, c := range []struct {
		key       string
		got, want int64
	}{
		{"MaxProcs", h.MaxProcs, 140},
		{"MaxNodes", h.MaxNodes, 70}, // "70  (dual)"
		{"MaxJobs", h.MaxJobs, 234889},
		{"MaxRecords", h.MaxRecords, 234889},
		{"UnixStartTime", h.UnixStartTime, 1091615532},
		{"TimeZone", h.TimeZoneOffsetSeconds, 3600}, // "3600\t # DEPRECATED; ..."
		{"len(Note)", int64(len(h.Fields["Note"])), 9},
		{"len(Queue)", int64(len(h.Fields["Queue"])), 6},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.key, c.got, c.want)
		}
	}
	if h.Version != "2.2" || h.TimeZoneString != "Europe/Paris" || !h.HasTimeZoneOffset {
		t.Errorf("Version %q, TimeZoneString %q, HasTimeZoneOffset %v; want 2.2, Europe/Paris, true",
			h.Version, h.TimeZoneString, h.HasTimeZoneOffset)
	}
	if got, want := h.Fields["Queue"][4], "5   infinite"; got != want {
		t.Errorf("fifth Queue value %q, want %q", got, want)
	}
	// The log states its own start in local time; log second 0 must match.
	start, err := h.Time(0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := start.Format("Mon Jan 02 15:04:05 MST 2006"), h.Fields["StartTime"][0]; got != want {
		t.Errorf("Time(0) = %q, header StartTime %q", got, want)
	}
	if _, ok := h.Fields["http"]; ok {
		t.Errorf("a URL continuation line was taken for a key: %v", h.Fields["http"])
	}
	if rep := r.Report(); rep.Count(ReasonHeaderValue) != 0 {
		t.Errorf("header issues: %v", rep.Issues())
	}
}

func TestSplitHeaderKey(t *testing.T) {
	for _, tc := range []struct {
		text, key, value string
		ok               bool
	}{
		{" MaxProcs: 140", "MaxProcs", "140", true},
		{"  TimeZone: 3600\t # DEPRECATED", "TimeZone", "3600\t # DEPRECATED", true},
		{"Note:", "Note", "", true},
		{"Max_Procs2: 1", "Max_Procs2", "1", true},
		{"             http://www.cs.huji.ac.il/", "", "", false},
		{"   Computational Infrastructure (NPACI).", "", "", false},
		{"    j|       s|      w|", "", "", false},
		{"2Key: x", "", "", false},
		{"Two words: x", "", "", false},
		{": x", "", "", false},
	} {
		key, value, ok := splitHeaderKey(tc.text)
		if key != tc.key || value != tc.value || ok != tc.ok {
			t.Errorf("splitHeaderKey(%q) = %q, %q, %v; want %q, %q, %v", tc.text, key, value, ok, tc.key, tc.value, tc.ok)
		}
	}
}

func TestHeaderBadNumber(t *testing.T) {
	in := "; MaxProcs: lots\n; MaxNodes: 8\n1 0 5 100 2 -1 -1 2 200 -1 1 7 1 -1 -1 -1 -1 -1\n"
	r, err := NewReader(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := r.Report()
	if h := r.Header(); h.MaxProcs != -1 || h.MaxNodes != 8 || h.Fields["MaxProcs"][0] != "lots" {
		t.Errorf("MaxProcs %d MaxNodes %d Fields %v; want -1, 8, [lots]", h.MaxProcs, h.MaxNodes, h.Fields["MaxProcs"])
	}
	if got := rep.Issues(); len(got) != 1 || got[0].Line != 1 || got[0].Reason != ReasonHeaderValue {
		t.Errorf("issues %v; want one header-value issue on line 1", got)
	}
}

// base is a valid job line: job 1 submitted at 0, waits 5 s, runs 100 s
// on 2 processors of 2 requested for 200 s, completed, user 7.
const base = "1 0 5 100 2 -1 -1 2 200 -1 1 7 1 -1 -1 -1 -1 -1"

// withField returns base with SWF field n (1-based) set to v.
func withField(n int, v string) string {
	f := strings.Fields(base)
	f[n-1] = v
	return strings.Join(f, " ")
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		line   string
		opts   Options
		reason Reason
		kept   bool
		check  func(Job) bool // on the kept job
	}{
		{"17 fields", "1 0 5 100 2 -1 -1 2 200 -1 1 7 1 -1 -1 -1 -1", Options{}, ReasonFieldCount, false, nil},
		{"19 fields", base + " 4", Options{}, ReasonFieldCount, false, nil},
		{"letters", withField(4, "1OO"), Options{}, ReasonNotANumber, false, nil},
		{"fraction in integer field", withField(4, "100.5"), Options{}, ReasonNotANumber, false, nil},
		{"int64 overflow", withField(1, "9223372036854775808"), Options{}, ReasonNotANumber, false, nil},
		{"exponent in CPU time", withField(6, "1e3"), Options{}, ReasonNotANumber, false, nil},
		{"NaN CPU time", withField(6, "NaN"), Options{}, ReasonNotANumber, false, nil},
		{"below -1", withField(3, "-2"), Options{}, ReasonBelowMinusOne, false, nil},
		{"CPU time below -1", withField(6, "-1.5"), Options{}, ReasonBelowMinusOne, false, nil},
		{"submit unknown", withField(2, "-1"), Options{}, ReasonSubmitUnknown, false, nil},
		{"cancelled run -1", "1 0 5 -1 0 -1 -1 2 200 -1 5 7 1 -1 -1 -1 -1 -1", Options{}, ReasonCancelledNoRun, false, nil},
		{"cancelled run 0", "1 0 5 0 2 -1 -1 2 200 -1 5 7 1 -1 -1 -1 -1 -1", Options{KeepZeroRun: true}, ReasonCancelledNoRun, false, nil},
		{"cancelled that ran, kept", withField(11, "5"), Options{}, numReasons, true,
			func(j Job) bool { return j.Status == StatusCancelled && j.Notes == 0 }},
		{"cancelled that ran, DropCancelled", withField(11, "5"), Options{DropCancelled: true}, ReasonCancelled, false, nil},
		{"failed, DropFailed", withField(11, "0"), Options{DropFailed: true}, ReasonFailed, false, nil},
		{"run unknown", withField(4, "-1"), Options{}, ReasonRunUnknown, false, nil},
		{"run 0", withField(4, "0"), Options{}, ReasonRunZero, false, nil},
		{"run 0, KeepZeroRun", withField(4, "0"), Options{KeepZeroRun: true}, ReasonRunZeroKept, true,
			func(j Job) bool { return j.RunSeconds == 0 && j.Notes.Has(ReasonRunZeroKept) }},
		{"allocated -1 from requested", withField(5, "-1"), Options{}, ReasonProcsFromRequest, true,
			func(j Job) bool { return j.AllocatedProcs == 2 && j.Notes.Has(ReasonProcsFromRequest) }},
		{"allocated 0 from requested", withField(5, "0"), Options{}, ReasonProcsFromRequest, true,
			func(j Job) bool { return j.AllocatedProcs == 2 }},
		{"processors unknown", "1 0 5 100 -1 -1 -1 -1 200 -1 1 7 1 -1 -1 -1 -1 -1", Options{}, ReasonProcsUnknown, false, nil},
		{"run above request", withField(4, "300"), Options{}, ReasonRunOverRequest, true,
			func(j Job) bool { return j.RunSeconds == 300 && j.Notes.Has(ReasonRunOverRequest) }},
		{"run above request, clamped", withField(4, "300"), Options{ClampRunToRequest: true}, ReasonRunClamped, true,
			func(j Job) bool {
				return j.RunSeconds == 200 && j.LoggedRunSeconds == 300 && !j.Notes.Has(ReasonRunOverRequest)
			}},
		{"request unknown", withField(9, "-1"), Options{}, ReasonRequestUnknown, true,
			func(j Job) bool { return j.RequestedSeconds == -1 && j.RunSeconds == 100 }},
		{"wait unknown", withField(3, "-1"), Options{}, ReasonWaitUnknown, true,
			func(j Job) bool { return j.LogFinishSeconds() == 100 }},
		{"fractional CPU time", withField(6, "0.03"), Options{}, numReasons, true,
			func(j Job) bool { return j.AverageCPUSeconds == 0.03 && j.Notes == 0 }},
		{"user excluded", base, Options{ExcludeUsers: []int64{7}}, ReasonUserFiltered, false, nil},
		{"user not included", base, Options{IncludeUsers: []int64{8, 9}}, ReasonUserFiltered, false, nil},
		{"user included", base, Options{IncludeUsers: []int64{9, 7}}, numReasons, true,
			func(j Job) bool { return j.User == 7 }},
		{"before window", base, Options{Window: LogWindow(1, 10)}, ReasonOutsideWindow, false, nil},
		{"window end excluded", withField(2, "10"), Options{Window: LogWindow(1, 10)}, ReasonOutsideWindow, false, nil},
		{"window start included", withField(2, "1"), Options{Window: LogWindow(1, 10)}, numReasons, true,
			func(j Job) bool { return j.SubmitSeconds == 1 }},
		// A filtered line is not examined further: run 0 is not counted.
		{"filter before quality", withField(4, "0"), Options{ExcludeUsers: []int64{7}}, ReasonUserFiltered, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tc.line+"\n"), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			jobs := readAllFrom(t, r)
			rep := r.Report()
			if kept := len(jobs) == 1; kept != tc.kept {
				t.Fatalf("kept = %v, want %v; report:\n%s", kept, tc.kept, rep.String())
			}
			for reason := range numReasons {
				want := 0
				if reason == tc.reason {
					want = 1
				}
				if got := rep.Count(reason); got != want {
					t.Errorf("Count(%q) = %d, want %d", reason, got, want)
				}
			}
			if tc.kept && !tc.check(jobs[0]) {
				t.Errorf("kept job %+v fails the check", jobs[0])
			}
		})
	}
}

func TestMixedLog(t *testing.T) {
	in := strings.Join([]string{
		"; MaxProcs: 4", // 1
		"",              // 2
		"1 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1", // 3 kept
		"2 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1",       // 4 field count
		"   ", // 5 blank
		"3 8 0 5 1 -1 -1 1 10 -1 1 2 1 -1 -1 -1 -1 -1",      // 6 kept, submit decreasing
		"; a comment among jobs",                            // 7
		"4 x 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1",      // 8 not a number
		"5 9 0 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1",      // 9 run 0
		"6 20 0 50 -1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\r", // 10 kept, procs repaired, over request, CRLF
	}, "\n")
	r, err := NewReader(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var fileOrder []int64
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fileOrder = append(fileOrder, j.Number)
	}
	if want := []int64{1, 3, 6}; !slices.Equal(fileOrder, want) {
		t.Errorf("Next order %v, want %v", fileOrder, want)
	}
	rep := r.Report()
	// 10 lines = 3 jobs + 3 dropped + 0 filtered + 2 comments + 2 blank.
	if rep.Lines != 10 || rep.Jobs != 3 || rep.Dropped() != 3 || rep.Filtered() != 0 || rep.CommentLines != 2 || rep.BlankLines != 2 {
		t.Errorf("report %+v, want 10 lines = 3 jobs + 3 dropped + 2 comment + 2 blank", rep)
	}
	wantIssues := []struct {
		line   int
		reason Reason
	}{
		{4, ReasonFieldCount}, {6, ReasonSubmitDecreasing}, {8, ReasonNotANumber}, {9, ReasonRunZero},
		{10, ReasonProcsFromRequest}, {10, ReasonRunOverRequest},
	}
	issues := rep.Issues()
	if len(issues) != len(wantIssues) {
		t.Fatalf("issues %v, want %d", issues, len(wantIssues))
	}
	for i, w := range wantIssues {
		if issues[i].Line != w.line || issues[i].Reason != w.reason {
			t.Errorf("issue %d = line %d %q, want line %d %q", i, issues[i].Line, issues[i].Reason, w.line, w.reason)
		}
	}
	if got, want := issues[2].Error(), `input:8: field is not a decimal number: field 2 (submit time) "x"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	table := rep.String()
	for _, want := range []string{
		"input: 10 lines = 3 jobs + 3 dropped + 0 filtered + 2 comment + 2 blank",
		"1      dropped   wrong number of fields (want 18)",
		"1      noted     submit time below an earlier job's",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("report table lacks %q:\n%s", want, table)
		}
	}
}

func TestReadAllSortsBySubmit(t *testing.T) {
	in := "1 30 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 20 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"4 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	r, err := NewReader(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := readAllFrom(t, r)
	var order []int64
	for _, j := range jobs {
		order = append(order, j.Number)
	}
	// Submits 30, 10, 20, 10: jobs 2, 3 and 4 are below the running max
	// 30; sorting by submit (10, 10, 20, 30) keeps 2 before 4, as in the file.
	if want := []int64{2, 4, 3, 1}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if got := r.Report(); got.Count(ReasonSubmitDecreasing) != 3 {
		t.Errorf("submit decreasing %d, want 3", got.Count(ReasonSubmitDecreasing))
	}
}

func TestStrict(t *testing.T) {
	in := base + "\n" + withField(4, "abc") + "\n" + base + "\n"
	r, err := NewReader(strings.NewReader(in), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatalf("first job: %v", err)
	}
	_, err = r.Next()
	var issue Issue
	if !errors.As(err, &issue) || issue.Line != 2 || issue.Reason != ReasonNotANumber {
		t.Fatalf("second Next error %v, want a not-a-number Issue on line 2", err)
	}
	if want := `input:2: field is not a decimal number: field 4 (run time) "abc"`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if j, err := r.Next(); err != nil || j.Line != 3 {
		t.Errorf("after the issue: job line %d, error %v; want line 3", j.Line, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
}

func TestLineTooLong(t *testing.T) {
	in := base + "\n" + strings.Repeat("1 ", maxLineBytes) + "\n"
	r, err := NewReader(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	if err == nil || !strings.Contains(err.Error(), "input:2: line longer than") {
		t.Errorf("error %v, want one naming line 2", err)
	}
}

func TestJobStringRoundTrip(t *testing.T) {
	for _, line := range []string{
		"9933 3585977 4 16 1 2 0 1 7200 -1 1 1 1 -1 2 1 -1 -1",
		"13 440070 22 43 32 0.03 -1 32 64800 -1 1 96 -1 -1 3 -1 -1 -1",  // SDSC-BLUE line 13
		"28 584832 6361 311 8 259 -1 8 2400 -1 1 34 7 13665 3 -1 -1 -1", // SDSC-SP2 "259.00"
	} {
		r, err := NewReader(strings.NewReader(line), Options{})
		if err != nil {
			t.Fatal(err)
		}
		j, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := j.String(); got != line {
			t.Errorf("String() = %q, want %q", got, line)
		}
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open("testdata/no-such-file.swf", Options{})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "no-such-file.swf") {
		t.Errorf("error %v, want not-exist naming the file", err)
	}
}

// A report without the wait-time note is the one a reader of the jobs
// that ignores recorded waits shows (the rigid model: issue 35, campaign
// notes on rigid traces); the line balance and the other reasons stay.
func TestReportWithout(t *testing.T) {
	log := "; MaxProcs: 4\n" +
		"1 0 -1 10 2 -1 -1 2 20 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"2 5 0 30 2 -1 -1 2 20 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	r, err := NewReader(strings.NewReader(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	full := r.Report()
	if full.Count(ReasonWaitUnknown) != 1 || full.Count(ReasonRunOverRequest) != 1 {
		t.Fatalf("wait -1 %d, over request %d; want 1, 1:\n%s", full.Count(ReasonWaitUnknown), full.Count(ReasonRunOverRequest), full)
	}
	got := full.Without(ReasonWaitUnknown).String()
	want := "input: 3 lines = 2 jobs + 0 dropped + 0 filtered + 1 comment + 0 blank\n" +
		"count  action  reason                         first lines\n" +
		"1      noted   run time above requested time  3\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
