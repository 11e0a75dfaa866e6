package campaign

import (
	"bytes"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/workload/swf"
)

// FuzzDetect checks the MAX rule's invariants on whatever jobs the SWF
// reader returns: campaigns ordered by user and never overlapping within
// a user, every job in exactly one campaign of its own user. It seeds
// from the reader's synthetic log and hand-made lines.
func FuzzDetect(f *testing.F) {
	tiny, err := os.ReadFile("../../workload/swf/testdata/tiny.swf.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny, false)
	f.Add(tiny, true)
	f.Add([]byte("; MaxProcs: 4\n1 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 12 0 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n3 15 -1 5 1 -1 -1 1 10 -1 1 2 1 -1 -1 -1 -1 -1\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, keepZeroRun bool) {
		r, err := swf.NewReader(bytes.NewReader(data), swf.Options{KeepZeroRun: keepZeroRun})
		if err != nil {
			return // not gzip after the magic bytes, or a line too long
		}
		jobs, err := r.ReadAll()
		if err != nil {
			return // a broken gzip stream
		}
		checkCampaigns(t, jobs)
	})
}

func checkCampaigns(t *testing.T, jobs []swf.Job) {
	t.Helper()
	seen := make([]bool, len(jobs))
	var last *Campaign
	campaigns := Detect(jobs)
	for ci := range campaigns {
		c := &campaigns[ci]
		if last != nil && (c.User < last.User || c.User == last.User && c.SubmitSeconds < last.LogFinishSeconds) {
			t.Fatalf("campaign %+v after %+v: out of order or overlapping", c, last)
		}
		for _, i := range c.JobIndices {
			if seen[i] || jobs[i].User != c.User {
				t.Fatalf("job index %d twice or in another user's campaign", i)
			}
			seen[i] = true
		}
		last = c
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("job index %d in no campaign", i)
		}
	}
}
