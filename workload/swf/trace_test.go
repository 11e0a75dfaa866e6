package swf

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// lpcTrace is the full LPC-EGEE log in the shared trace folder; it is
// never copied into the repository.
const lpcTrace = "../../../shared/traces/LPC-EGEE-2004-1.2-cln.swf.gz"

func openTrace(tb testing.TB, opts Options) *Reader {
	tb.Helper()
	if _, err := os.Stat(lpcTrace); errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s is absent: download LPC-EGEE-2004-1.2-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", lpcTrace)
	}
	r, err := Open(lpcTrace, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// The reference counts below come from an independent pass over the
// trace with awk and Python (zcat | grep -v '^;'; a line is dropped when
// $11==5 && $4<=0, else when $4==0; campaigns by the MAX rule over the
// kept jobs of each user sorted by submit time and job number). The
// archive states 234,889 jobs (MaxJobs); the file has 71 comment lines.
func TestLPCEGEETrace(t *testing.T) {
	r := openTrace(t, Options{})
	defer r.Close()
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rep := r.Report()
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"lines", rep.Lines, 234960},
		{"job lines", rep.Lines - rep.CommentLines - rep.BlankLines, 234889},
		{"comment lines", rep.CommentLines, 71},
		{"cancelled before running", rep.Count(ReasonCancelledNoRun), 14210}, // 14194 with run -1, 16 with run 0
		{"run time 0", rep.Count(ReasonRunZero), 6357},
		{"run time -1 (all cancelled)", rep.Count(ReasonRunUnknown), 0},
		{"jobs", len(jobs), 214322},
		{"run above request", rep.Count(ReasonRunOverRequest), 755},
		{"submit decreasing", rep.Count(ReasonSubmitDecreasing), 0},
		{"processors repaired", rep.Count(ReasonProcsFromRequest), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
	if r.Header().MaxJobs != 234889 {
		t.Errorf("MaxJobs %d, want 234889", r.Header().MaxJobs)
	}
}

// TestLPCEGEEPaperWindow reads the OStrich study period (seed 000: Dec 6
// 2004 - Jan 24 2005, Europe/Paris) both without and with Jan 24. The
// campaigns of the same windows are counted in gen/campaign.
func TestLPCEGEEPaperWindow(t *testing.T) {
	for _, tc := range []struct {
		toDate             string
		lines, jobs, users int
	}{
		{"2005-01-24", 48071, 45464, 36},
		{"2005-01-25", 48984, 46373, 36},
	} {
		t.Run(tc.toDate, func(t *testing.T) {
			r := openTrace(t, Options{Window: DateWindow("2004-12-06", tc.toDate)})
			defer r.Close()
			jobs, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			rep := r.Report()
			inWindow := rep.Lines - rep.CommentLines - rep.BlankLines - rep.Count(ReasonOutsideWindow)
			users := map[int64]bool{}
			for _, j := range jobs {
				users[j.User] = true
			}
			if inWindow != tc.lines || len(jobs) != tc.jobs || len(users) != tc.users {
				t.Errorf("job lines in window %d, jobs %d, users %d; want %d, %d, %d",
					inWindow, len(jobs), len(users), tc.lines, tc.jobs, tc.users)
			}
		})
	}
}

func BenchmarkReadLPCEGEE(b *testing.B) {
	jobs := 0
	for b.Loop() {
		r := openTrace(b, Options{})
		all, err := r.ReadAll()
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
		jobs += len(all)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}
