package rigid

import (
	"bytes"
	"testing"

	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/workload/swf"
)

// TestSWFRoundTrip writes a generated workload with estimates as SWF
// (export.WriteSWF, each job started at its submit time: a workload, not
// a schedule) and reads it back through workload/swf: the header's
// MaxProcs is the machine, UnixStartTime the start hour, and every job's
// number, submit time, processors, run time, estimate and user survive.
func TestSWFRoundTrip(t *testing.T) {
	p := DefaultParams()
	if err := p.Set("start-hour", "8"); err != nil {
		t.Fatal(err)
	}
	w, _, err := Lublin(p, 256, 2000, [2]uint64{11, 12})
	if err != nil {
		t.Fatal(err)
	}
	if err := Tsafrir(w.Jobs, DefaultEstimateParams(), [2]uint64{11, 12}); err != nil {
		t.Fatal(err)
	}
	s := &export.Schedule{Name: w.Name, Procs: w.Procs, UnixStartSeconds: w.UnixStartSeconds}
	for _, j := range w.Jobs {
		s.Jobs = append(s.Jobs, export.Job{Number: j.Number, SubmitSeconds: j.SubmitSeconds, StartSeconds: j.SubmitSeconds,
			FinishSeconds: j.SubmitSeconds + j.RunSeconds, Procs: j.Procs, RequestedSeconds: j.RequestedSeconds, User: j.User})
	}
	var buf bytes.Buffer
	if err := export.WriteSWF(&buf, s); err != nil {
		t.Fatal(err)
	}
	r, err := swf.NewReader(&buf, swf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.MaxProcs != 256 || h.UnixStartTime != 8*3600 {
		t.Errorf("header MaxProcs %d, UnixStartTime %d; want 256, 28800", h.MaxProcs, h.UnixStartTime)
	}
	back, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(w.Jobs) {
		t.Fatalf("read %d jobs, wrote %d", len(back), len(w.Jobs))
	}
	for i, b := range back {
		j := w.Jobs[i]
		if b.Number != j.Number || b.SubmitSeconds != j.SubmitSeconds || b.AllocatedProcs != int64(j.Procs) ||
			b.RunSeconds != j.RunSeconds || b.RequestedSeconds != j.RequestedSeconds || b.User != j.User {
			t.Fatalf("job %d: wrote %+v, read %+v", i, j, b)
		}
	}
}
