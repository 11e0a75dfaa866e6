package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/workload/swf"
)

// TestBatsimWorkloadExport runs a Batsim workload through a manifest and
// checks the schedule by hand. The reader gives (submit floored, run and
// request ceiled, a run past the walltime cut to it, no walltime = the run):
//
//	job 1: submit 0,  run 60, request 100, 4 procs
//	job 7: submit 5,  run 60, request 60,  1 proc
//	job 2: submit 10, run 31, request 31,  8 procs (delay 60 cut at walltime 30.2)
//	job 3: submit 10, run 21, request 21,  2 procs
//
// EASY on 8 processors with requested times: job 1 at 0, job 7 at 5; at 10
// job 2 needs all 8, whose shadow is 100 (job 1's request), so job 3 (2
// procs, done by 31 <= 100) backfills at 10; job 1 ends at 60 and job 7 at
// 65, when job 2 starts. The rigid_jobs rows say so (job 2 waits 55,
// bounded slowdown (55 + 31) / 31), and the schedule exported as SWF and
// read back as a trace has the same jobs with these waits.
func TestBatsimWorkloadExport(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", "../sweep/testdata/batsim.yaml", "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	rows, _, err := parquet.ReadColumns(out, table.RigidJobs, []string{table.RigidJobNumber, table.RigidJobStart, table.RigidJobWait, table.RigidJobBoundedSlowdown})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][3]float64{1: {0, 0, 1}, 7: {5, 0, 1}, 2: {65, 55, 86.0 / 31}, 3: {10, 0, 1}}
	if rows.Rows != len(want) {
		t.Fatalf("%d rigid_jobs rows; want %d", rows.Rows, len(want))
	}
	for i := range rows.Rows {
		n := rows.Columns[0].Int64s[i]
		got := [3]float64{float64(rows.Columns[1].Int64s[i]), float64(rows.Columns[2].Int64s[i]), rows.Columns[3].Float64s[i]}
		if got != want[n] {
			t.Errorf("job %d: start, wait, bounded slowdown %v; want %v", n, got, want[n])
		}
	}
	swfPath := filepath.Join(t.TempDir(), "s.swf")
	cell := "small-R/i000/L-/single:8/fcfs-easy"
	if code := run(context.Background(), []string{"export", out, cell, "--format", "swf", "-o", swfPath}, &stdout, &stderr); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	r, err := swf.Open(swfPath, swf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	waits := map[int64]int64{}
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		waits[j.Number] = j.WaitSeconds
		if w := want[j.Number]; int64(w[1]) != j.WaitSeconds || j.SubmitSeconds+j.WaitSeconds != int64(w[0]) {
			t.Errorf("SWF job %d: submit %d wait %d; want start %v wait %v", j.Number, j.SubmitSeconds, j.WaitSeconds, w[0], w[1])
		}
	}
	if len(waits) != 4 {
		t.Errorf("SWF read back %d jobs; want 4", len(waits))
	}
	for _, format := range []string{"batsim-csv", "json"} {
		stdout.Reset()
		if code := run(context.Background(), []string{"export", out, cell, "--format", format}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "65") {
			t.Errorf("export --format %s: exit %d, %q", format, code, stdout.String())
		}
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"export", out, cell, "--format", "pdf"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `--format "pdf": want one of swf, batsim-csv, json`) {
		t.Errorf("unknown format: exit %d, %q", code, stderr.String())
	}
	if _, err := os.Stat(swfPath); err != nil {
		t.Fatal(err)
	}
}
