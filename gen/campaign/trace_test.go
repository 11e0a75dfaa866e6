package campaign

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/workload/swf"
)

// lpcTrace is the full LPC-EGEE log in the shared trace folder; it is
// never copied into the repository.
const lpcTrace = "../../../shared/traces/LPC-EGEE-2004-1.2-cln.swf.gz"

// TestLPCEGEEPaperWindowCampaigns counts the MAX-rule campaigns of the
// OStrich study period (seed 000: Dec 6 2004 - Jan 24 2005,
// Europe/Paris), both without and with Jan 24. The reference counts come
// from an independent pass over the trace with awk and Python (campaigns
// by the MAX rule over the kept jobs of each user sorted by submit time
// and job number); workload/swf checks the jobs and users of the same
// windows.
func TestLPCEGEEPaperWindowCampaigns(t *testing.T) {
	if _, err := os.Stat(lpcTrace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download LPC-EGEE-2004-1.2-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", lpcTrace)
	}
	for _, tc := range []struct {
		toDate      string
		jobs, camps int
	}{
		{"2005-01-24", 45464, 14013},
		{"2005-01-25", 46373, 14501},
	} {
		t.Run(tc.toDate, func(t *testing.T) {
			r, err := swf.Open(lpcTrace, swf.Options{Window: swf.DateWindow("2004-12-06", tc.toDate)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			jobs, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if campaigns := Detect(jobs); len(jobs) != tc.jobs || len(campaigns) != tc.camps {
				t.Errorf("jobs %d, campaigns %d; want %d, %d", len(jobs), len(campaigns), tc.jobs, tc.camps)
			}
		})
	}
}
