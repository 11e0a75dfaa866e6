package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// handSchedule: on 4 processors, A (2 procs) runs 0-10, B (2) 2-5, C (4,
// requested 20 s, user 7) 10-12 once A and B are done.
func handSchedule() *export.Schedule {
	return &export.Schedule{Name: "hand", Procs: 4, UnixStartSeconds: 843177600, Jobs: []export.Job{
		{ID: "A", Number: 1, SubmitSeconds: 0, StartSeconds: 0, FinishSeconds: 10, Procs: 2, RequestedSeconds: -1, User: -1},
		{ID: "B", Number: 2, SubmitSeconds: 1, StartSeconds: 2, FinishSeconds: 5, Procs: 2, RequestedSeconds: 4, User: 3},
		{ID: "C", Number: 3, SubmitSeconds: 3, StartSeconds: 10, FinishSeconds: 12, Procs: 4, RequestedSeconds: 20, User: 7},
	}}
}

func TestWriteSWF(t *testing.T) {
	var b bytes.Buffer
	if err := export.WriteSWF(&b, handSchedule()); err != nil {
		t.Fatal(err)
	}
	// Fields: number submit wait run alloc cpu mem reqprocs reqtime reqmem
	// status user group exe queue partition preceding think.
	want := `; Version: 2.2
; Computer: sweep simulation
; Installation: hand
; Note: a simulated schedule written by sweep: wait time, run time and allocated processors are the simulation's, not a log's
; MaxJobs: 3
; MaxRecords: 3
; UnixStartTime: 843177600
; MaxProcs: 4
1 0 0 10 2 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 1 3 2 -1 -1 2 4 -1 1 3 -1 -1 -1 -1 -1 -1
3 3 7 2 4 -1 -1 4 20 -1 1 7 -1 -1 -1 -1 -1 -1
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteBatsimCSV(t *testing.T) {
	var b bytes.Buffer
	if err := export.WriteBatsimCSV(&b, handSchedule()); err != nil {
		t.Fatal(err)
	}
	// A takes 0-1, B the next free 2-3; at 10 both are done and C takes
	// 0-3. Stretch: A 10/10, B (5-1)/3, C (12-3)/2.
	want := strings.Join(export.BatsimColumns, ",") + `
A,hand,,0,2,-1,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,
B,hand,,1,2,4,1,COMPLETED_SUCCESSFULLY,2,3,5,1,4,1.3333333333333333,2-3,-1,
C,hand,,3,4,20,1,COMPLETED_SUCCESSFULLY,10,2,12,7,9,4.5,0-3,-1,
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestBadSchedules(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(s *export.Schedule)
		want string
	}{
		{"start before submit", func(s *export.Schedule) { s.Jobs[2].StartSeconds = 2 }, "job 2 (number 3) field start: 2 is before the submit time 3"},
		{"too wide", func(s *export.Schedule) { s.Jobs[0].Procs = 5 }, "job 0 (number 1) field procs: 5; want 1..4"},
		{"duplicate number", func(s *export.Schedule) { s.Jobs[1].Number = 1 }, "job 1 (number 1) field number: duplicate of job 0"},
		// C starting at 4 would need 4 processors while A and B hold them.
		{"overfull", func(s *export.Schedule) { s.Jobs[2].StartSeconds = 4 }, "job 2 (number 3) starts at 4 s on 4 processors, but only 0 of 4 are free then"},
		{"bad allocation", func(s *export.Schedule) { s.Jobs[1].Allocated = []int{1, 2} }, "job 1 (number 2) is allocated resource 1 at 2 s, which another job holds"},
		// On 3 nodes, A names nodes 0-1, B none, or a node out of range.
		{"no nodes", func(s *export.Schedule) { s.Nodes, s.Jobs[0].NodeIDs = 3, []int{0, 1} }, "job 1 (number 2) field nodes: none; want the nodes the job ran on"},
		{"node out of range", func(s *export.Schedule) {
			s.Nodes = 3
			for i := range s.Jobs {
				s.Jobs[i].NodeIDs = []int{i + 1}
			}
		}, "job 2 (number 3) field nodes: [3]; want distinct ids 0..2, ascending"},
	} {
		s := handSchedule()
		tc.edit(s)
		err := export.WriteBatsimCSV(&bytes.Buffer{}, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if got := export.IntervalSet([]int{8, 0, 2, 1, 3, 10, 11}); got != "0-3 8 10-11" {
		t.Errorf("IntervalSet = %q, want 0-3 8 10-11", got)
	}
}

// TestKilledAtRequestAndPhases: B of the hand schedule was killed at its
// requested time, and the schedule is a window's, A warming up, B measured,
// C cooling down, Batsim's workload w0. SWF: B's status is 0 (failed: SWF
// has no time-limit status) and a note counts the phases; jobs.csv: B has
// success 0, COMPLETED_WALLTIME_REACHED (Batsim's words for a delay job
// that reaches its walltime), workload_name w0, and a last column phase.
func TestKilledAtRequestAndPhases(t *testing.T) {
	s := handSchedule()
	s.BatsimWorkload = "w0"
	s.Jobs[1].ReachedRequest = true
	for i, p := range []string{export.PhaseWarmUp, export.PhaseMeasured, export.PhaseCoolDown} {
		s.Jobs[i].Phase = p
	}
	var b bytes.Buffer
	if err := export.WriteSWF(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; Note: 1 warm-up jobs, 1 measured jobs, 1 cool-down jobs", "\n2 1 1 3 2 -1 -1 2 4 -1 0 3 -1 -1 -1 -1 -1 -1\n", "\n1 0 0 10 2 -1 -1 2 -1 -1 1 -1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("SWF lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := export.WriteBatsimCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(export.BatsimColumns, ",") + `,phase
A,w0,,0,2,-1,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,,warm-up
B,w0,,1,2,4,0,COMPLETED_WALLTIME_REACHED,2,3,5,1,4,1.3333333333333333,2-3,-1,,measured
C,w0,,3,4,20,1,COMPLETED_SUCCESSFULLY,10,2,12,7,9,4.5,0-3,-1,,cool-down
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestMeasuredKeepsPlaces: on 4 processors W (warm-up, 1 processor,
// 0-10) holds processor 0 when M (measured, 2 processors) starts at 5:
// Fit gives M the first two of the free run 1-3. Exported alone, M would
// take 0-1; Placed then Measured keeps 1-2, and M's number by position, 2.
func TestMeasuredKeepsPlaces(t *testing.T) {
	s := &export.Schedule{Name: "window", BatsimWorkload: "w0", Procs: 4, Jobs: []export.Job{
		{Number: 7, SubmitSeconds: 0, StartSeconds: 0, FinishSeconds: 10, Procs: 1, RequestedSeconds: 10, User: 1, Phase: export.PhaseWarmUp},
		{Number: 0, SubmitSeconds: 5, StartSeconds: 5, FinishSeconds: 8, Procs: 2, RequestedSeconds: 9, User: 1, Phase: export.PhaseMeasured},
	}}
	placed, err := s.Placed()
	if err != nil {
		t.Fatal(err)
	}
	m, err := placed.Measured()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Jobs) != 1 || m.Jobs[0].Number != 2 || !slices.Equal(m.Jobs[0].Allocated, []int{1, 2}) {
		t.Fatalf("measured jobs %+v; want job 2 on 1-2", m.Jobs)
	}
	if s.Jobs[1].Allocated != nil {
		t.Error("Placed changed the schedule it was given")
	}
	whole := handSchedule()
	if _, err := whole.Measured(); err == nil || !strings.Contains(err.Error(), "every job is measured") {
		t.Errorf("Measured of a schedule without phases: %v; want an error saying every job is measured", err)
	}
}

// TestAssignResourcesBestFit: the ids of counted jobs are those the Gantt
// chart draws (engine/placement.Fit), not the lowest free ones. On 6
// processors X (1, 0-20) takes 0, Y (1, 0-2) 1, Z (1, 0-20) 2; at 3 V (2
// processors) finds 1 and 3-5 free and takes the run 3-4 (lowest-free
// would give 1 and 3); at 4 U (1) finds 1 and 5, both runs of 1, and
// takes the lower, 1. A job that names its resources keeps them: T on 5 at
// 4 (instead of U).
func TestAssignResourcesBestFit(t *testing.T) {
	job := func(start, finish int64, procs int) export.Job {
		return export.Job{SubmitSeconds: 0, StartSeconds: start, FinishSeconds: finish, Procs: procs, RequestedSeconds: -1, User: -1}
	}
	s := &export.Schedule{Name: "fit", Procs: 6, Jobs: []export.Job{job(0, 20, 1), job(0, 2, 1), job(0, 20, 1), job(3, 8, 2), job(4, 9, 1)}}
	alloc, err := export.AssignResources(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0}, {1}, {2}, {3, 4}, {1}}; !slices.EqualFunc(alloc, want, slices.Equal) {
		t.Errorf("ids %v; want %v", alloc, want)
	}
	s.Jobs[4].Allocated = []int{5}
	if alloc, err = export.AssignResources(s); err != nil || !slices.Equal(alloc[4], []int{5}) {
		t.Errorf("named job: ids %v, %v; want [5]", alloc, err)
	}
}

const kthTrace = "../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// easyMonth simulates October 1996 of the KTH SP2 log (or of our
// synthetic months.swf.txt when the log is absent) under FCFS-EASY with
// the requested times, and returns the trace and the schedule of the jobs
// that started, with their positions in the trace month.
func easyMonth(t *testing.T) (*rigid.Workload, *export.Schedule, []int) {
	t.Helper()
	path := kthTrace
	if _, err := os.Stat(path); err != nil {
		t.Logf("%s is absent; using the synthetic model/rigid/rigidtrace/testdata/months.swf.txt", path)
		path = "../model/rigid/rigidtrace/testdata/months.swf.txt"
	}
	tr, err := rigidtrace.Load(path, rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	month, err := tr.Month(rigidtrace.Month{Year: 1996, Month: 10})
	if err != nil {
		t.Fatal(err)
	}
	w := &month.Workload
	sched, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested, backfill.FCFSEasy())
	if err != nil {
		t.Fatal(err)
	}
	s := &export.Schedule{Name: w.Name, Procs: w.Procs, UnixStartSeconds: w.UnixStartSeconds}
	var traceJob []int
	for i, j := range w.Jobs {
		if sched.StartSeconds[i] < 0 {
			continue
		}
		traceJob = append(traceJob, i)
		s.Jobs = append(s.Jobs, export.Job{Number: j.Number, SubmitSeconds: j.SubmitSeconds,
			StartSeconds: sched.StartSeconds[i], FinishSeconds: sched.EndSeconds[i], Procs: j.Procs,
			RequestedSeconds: j.RequestedSeconds, User: j.User})
	}
	return w, s, traceJob
}

// TestSWFRoundTrip: an EASY schedule exported to SWF and read back by
// workload/swf's reader gives the same jobs, submit times, run times,
// processors and users, and the simulated waits.
func TestSWFRoundTrip(t *testing.T) {
	w, s, traceJob := easyMonth(t)
	if len(s.Jobs) < 2 {
		t.Fatalf("only %d jobs started", len(s.Jobs))
	}
	var b bytes.Buffer
	if err := export.WriteSWF(&b, s); err != nil {
		t.Fatal(err)
	}
	r, err := swf.NewReader(&b, swf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if r.Header().MaxProcs != int64(w.Procs) || r.Header().UnixStartTime != w.UnixStartSeconds {
		t.Errorf("header MaxProcs %d, UnixStartTime %d; want %d, %d", r.Header().MaxProcs, r.Header().UnixStartTime, w.Procs, w.UnixStartSeconds)
	}
	if len(back) != len(s.Jobs) {
		t.Fatalf("read back %d jobs, wrote %d (report: %s)", len(back), len(s.Jobs), r.Report())
	}
	waited := 0
	for k, got := range back {
		j, want := w.Jobs[traceJob[k]], s.Jobs[k]
		if got.Number != j.Number || got.SubmitSeconds != j.SubmitSeconds || got.RunSeconds != j.RunSeconds ||
			got.AllocatedProcs != int64(j.Procs) || got.User != j.User || got.RequestedSeconds != j.RequestedSeconds ||
			got.WaitSeconds != want.StartSeconds-want.SubmitSeconds {
			t.Fatalf("job %d read back as %v; trace job %+v started at %d", k, got, j, want.StartSeconds)
		}
		if got.WaitSeconds > 0 {
			waited++
		}
	}
	t.Logf("%s: %d jobs round-tripped, %d waited", w.Name, len(back), waited)
}

// TestBatsimCSVOfEASY writes the EASY month as Batsim's jobs.csv and
// reads it back as CSV: one row per started job, with its times (the
// writer's placement of resources refuses double bookings). With
// SWEEP_EVALYS_CSV set it also leaves the file there for
// scripts/check-evalys.
func TestBatsimCSVOfEASY(t *testing.T) {
	_, s, _ := easyMonth(t)
	var b bytes.Buffer
	if err := export.WriteBatsimCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(s.Jobs)+1 || strings.Join(rows[0], ",") != strings.Join(export.BatsimColumns, ",") {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	for k, row := range rows[1:] {
		j := s.Jobs[k]
		num := func(col int) int64 {
			n, err := strconv.ParseInt(row[col], 10, 64)
			if err != nil {
				t.Fatalf("row %d column %s: %v", k, export.BatsimColumns[col], err)
			}
			return n
		}
		if num(3) != j.SubmitSeconds || num(8) != j.StartSeconds || num(10) != j.FinishSeconds || num(9) != j.FinishSeconds-j.StartSeconds || num(11) != j.StartSeconds-j.SubmitSeconds {
			t.Fatalf("row %d %v does not match job %+v", k, row, j)
		}
	}
	if path := os.Getenv("SWEEP_EVALYS_CSV"); path != "" {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
