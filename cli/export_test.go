package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/enginetest"
	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/policy/batsim"
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

// pybatsimTrace is a hand-made log on 4 processors where pybatsim's
// easyBackfill names other resources than best fit or lowest free would:
// jobs 1-3 start at 0 on 0, 1 and 2-3; job 1 ends at 2, job 2 at 5, and
// its freed resource 1 joins only the free one below it, so pybatsim
// allocates that block from its high end and job 4 (at 6) runs on 1 where
// counting processors would name 0. Job 2 runs its whole request.
const pybatsimTrace = `; UnixStartTime: 0
; MaxProcs: 4
1 0 0 2 1 -1 -1 1 4 -1 1 1 1 -1 1 -1 -1 -1
2 0 0 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
3 0 0 20 2 -1 -1 2 40 -1 1 2 1 -1 1 -1 -1 -1
4 6 0 3 1 -1 -1 1 6 -1 1 2 1 -1 1 -1 -1 -1
`

// TestExportKeepsPybatsimAllocations: `sweep export --format batsim-csv`
// of a pyb-easy cell writes, job for job, the resources pybatsim's
// easyBackfill chose over sweep's Batsim protocol (policy/batsim, which
// records every EXECUTE_JOB's alloc), on the hand-made trace (job 4 on 1,
// where counting would give 0) and, when the log is here and the test is
// not -short, on KTH SP2 1996-11, where before this export only 171 of
// 1,984 rows equalled the real Batsim 4.2.1's allocated_resources (issue
// 35). On KTH its measured jobs are the 1,984 of the real Batsim's run and
// 31 of them are COMPLETED_WALLTIME_REACHED, as Batsim marked them (the 31
// whose log run time exceeds their request).
func TestExportKeepsPybatsimAllocations(t *testing.T) {
	pyb := enginetest.Pybatsim(t)
	dir := t.TempDir()
	hand := filepath.Join(dir, "hand.swf")
	if err := os.WriteFile(hand, []byte(pybatsimTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		trace, month    string
		procs           int
		measured, limit int // measured jobs and those killed at their request; -1: not checked
	}{{hand, "1970-01", 4, 4, 1}}
	if kth, err := filepath.Abs("../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"); err == nil && !testing.Short() && func() bool { _, err := os.Stat(kth); return err == nil }() {
		cases = append(cases, struct {
			trace, month    string
			procs           int
			measured, limit int
		}{kth, "1996-11", 100, 1984, 31})
	} else {
		t.Log("the KTH SP2 log is absent (or -short): the hand-made trace only")
	}
	for _, c := range cases {
		manifest := filepath.Join(dir, "m.yaml")
		text := fmt.Sprintf("experiment: pyb\nseed: 1\nplatform: single:%d\nworkloads:\n  - trace: %s\n    label: t\n    months: {from: %s, to: %s}\n    estimates: [R]\npolicies:\n  - {name: pyb-easy, batsim: [%s, -v, warning, -t, \"60000\", easyBackfill]}\n",
			c.procs, c.trace, c.month, c.month, pyb)
		if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out-"+c.month)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", manifest, "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: run: exit %d: %s", c.month, code, stderr.String())
		}
		stdout.Reset()
		cell := fmt.Sprintf("t-R/%s/single:%d/pyb-easy", c.month, c.procs)
		if code := run(context.Background(), []string{"export", out, cell, "--format", "batsim-csv"}, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: export: exit %d: %s", c.month, code, stderr.String())
		}
		rows, err := csv.NewReader(&stdout).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		chosen := pybatsimChoices(t, c.trace, c.month, c.procs, pyb)
		col := map[string]int{}
		for k, name := range rows[0] {
			col[name] = k
		}
		measured, limit, differFromCounting := 0, 0, 0
		for _, row := range rows[1:] {
			number, _ := strconv.ParseInt(row[col["job_id"]], 10, 64)
			want, ok := chosen[number]
			if !ok {
				t.Fatalf("%s: job %s exported but pybatsim never ran it", c.month, row[col["job_id"]])
			}
			if got := row[col["allocated_resources"]]; got != want.ids {
				t.Errorf("%s: job %d on %q; pybatsim chose %q", c.month, number, got, want.ids)
			}
			if want.ids != want.counted {
				differFromCounting++
			}
			if row[col["workload_name"]] != "w0" {
				t.Errorf("%s: workload_name %q; want w0 (Batsim's name, the one sent to pybatsim)", c.month, row[col["workload_name"]])
			}
			if row[col["phase"]] == "measured" {
				measured++
				if row[col["final_state"]] == "COMPLETED_WALLTIME_REACHED" {
					limit++
				}
			}
			delete(chosen, number)
		}
		if len(chosen) != 0 {
			t.Errorf("%s: %d jobs pybatsim ran are not exported", c.month, len(chosen))
		}
		if measured != c.measured || limit != c.limit {
			t.Errorf("%s: %d measured jobs, %d killed at their request; want %d, %d", c.month, measured, limit, c.measured, c.limit)
		}
		if differFromCounting == 0 {
			t.Errorf("%s: pybatsim chose every job's ids as counting would: the comparison shows nothing", c.month)
		}
		t.Logf("%s: %d jobs exported on pybatsim's ids; %d of them differ from the ids counting would name", c.month, len(rows)-1, differFromCounting)
	}
}

// choice is the resources pybatsim gave a job, and those the export would
// have named had the model only counted processors.
type choice struct{ ids, counted string }

// pybatsimChoices runs pybatsim's easyBackfill over sweep's protocol on
// the trace month and returns, by job number, the resources it chose.
func pybatsimChoices(t *testing.T, trace, month string, procs int, pyb string) map[int64]choice {
	t.Helper()
	tr, err := rigidtrace.Load(trace, rigidtrace.Options{Procs: procs})
	if err != nil {
		t.Fatal(err)
	}
	m, err := rigidtrace.ParseMonth(month)
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(m)
	if err != nil {
		t.Fatal(err)
	}
	w := &mw.Workload
	sched, err := batsim.Simulate(context.Background(), w, batsim.Options{Command: []string{pyb, "-v", "warning", "-t", "60000", "easyBackfill"}})
	if err != nil {
		t.Fatal(err)
	}
	s := &export.Schedule{Name: w.Name, Procs: w.Procs}
	var numbers []int64
	for j := range w.Jobs {
		if sched.StartNanos[j] < 0 {
			continue
		}
		start := (sched.StartNanos[j] + placement.NanosPerSecond - 1) / placement.NanosPerSecond
		s.Jobs = append(s.Jobs, export.Job{Number: w.Jobs[j].Number, SubmitSeconds: w.Jobs[j].SubmitSeconds, StartSeconds: start,
			FinishSeconds: start + w.Jobs[j].RunSeconds, Procs: w.Jobs[j].Procs, RequestedSeconds: -1, User: -1})
		numbers = append(numbers, w.Jobs[j].Number)
	}
	counted, err := export.AssignResources(s)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]choice{}
	k := 0
	for j := range w.Jobs {
		if sched.StartNanos[j] >= 0 {
			out[numbers[k]] = choice{ids: export.IntervalSet(sched.Resources[j]), counted: export.IntervalSet(counted[k])}
			k++
		}
	}
	return out
}

// TestExportMeasured: a trace month (the hand-made log of
// model/rigid's TestExportContiguousAndKilled: jobs 1-3 warm February 1970
// up, job 4 is measured) under fcfs-easy exported with --measured writes
// job 4 alone, on resource 0, the one it held among all four (at 6 s job 3
// holds 2-3, jobs 1 and 2 have ended); every job's phase is in the full
// export. A whole Batsim workload has no warm-up: --measured says so.
func TestExportMeasured(t *testing.T) {
	dir := t.TempDir()
	trace := `; UnixStartTime: 2678397
; MaxProcs: 4
1 0 0 2 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
2 0 0 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
3 0 0 20 2 -1 -1 2 -1 -1 1 2 1 -1 1 -1 -1 -1
4 6 0 9 1 -1 -1 1 3 -1 1 2 1 -1 1 -1 -1 -1
`
	os.WriteFile(filepath.Join(dir, "hand.swf"), []byte(trace), 0o644)
	manifest := filepath.Join(dir, "m.yaml")
	os.WriteFile(manifest, []byte("experiment: m\nseed: 1\nplatform: single:4\nworkloads:\n  - trace: hand.swf\n    label: t\n    months: {from: 1970-02, to: 1970-02}\n    estimates: [R]\npolicies: [fcfs-easy]\n"), 0o644)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", manifest, "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	cell := "t-R/1970-02/single:4/fcfs-easy"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, `,phase
1,w0,,0,1,5,1,COMPLETED_SUCCESSFULLY,0,2,2,0,2,1,0,-1,,warm-up
2,w0,,0,1,5,0,COMPLETED_WALLTIME_REACHED,0,5,5,0,5,1,1,-1,,warm-up
3,w0,,0,2,20,1,COMPLETED_SUCCESSFULLY,0,20,20,0,20,1,2-3,-1,,warm-up
4,w0,,6,1,3,0,COMPLETED_WALLTIME_REACHED,6,3,9,0,3,1,0,-1,,measured
`},
		{[]string{"--measured"}, `,phase
4,w0,,6,1,3,0,COMPLETED_WALLTIME_REACHED,6,3,9,0,3,1,0,-1,,measured
`},
	} {
		stdout.Reset()
		if code := run(context.Background(), append([]string{"export", out, cell, "--format", "batsim-csv"}, tt.args...), &stdout, &stderr); code != 0 {
			t.Fatalf("export %v: exit %d: %s", tt.args, code, stderr.String())
		}
		if want := strings.Join(export.BatsimColumns, ",") + tt.want; stdout.String() != want {
			t.Errorf("export %v:\n%s\nwant\n%s", tt.args, stdout.String(), want)
		}
	}
	whole := filepath.Join(dir, "whole")
	if code := run(context.Background(), []string{"run", "../sweep/testdata/batsim.yaml", "--out", whole}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"export", whole, "small-R/i000/L-/single:8/fcfs-easy", "--measured"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "--measured: schedule") || !strings.Contains(stderr.String(), "every job is measured") {
		t.Errorf("--measured of a whole workload: exit %d, %q; want an error saying every job is measured", code, stderr.String())
	}
}
