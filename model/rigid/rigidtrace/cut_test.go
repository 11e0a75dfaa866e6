package rigidtrace

import (
	"strings"
	"testing"
	"time"
)

// Whole traces and windows of testdata/months.swf.txt, whose eight kept
// jobs (TestTraceRules) are submitted at 100000, 400000, 950399, 960000
// (two), 970000, 3628799 and 3628800 s; the warm-up is the week (604800 s)
// before the first measured job, the cool-down every later job.
func TestCuts(t *testing.T) {
	tr, err := Load("testdata/months.swf.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(tr.Header.UnixStartTime, 0).UTC()
	whole, err := tr.Whole()
	if err != nil {
		t.Fatal(err)
	}
	// jobs 3..5 (960000-970000 s): the week before 960000 s reaches back
	// to 355200 s, so jobs 1 and 2 warm up and jobs 6 and 7 cool down.
	seq, err := tr.JobRange(3, 6)
	if err != nil {
		t.Fatal(err)
	}
	// dates [950400, 3628800) s measure jobs 3..6; the week before 950400
	// s holds jobs 1 and 2 (950399 s is one second before the window).
	dates, err := tr.Dates(start.Add(950400*time.Second), start.Add(3628800*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name                       string
		c                          Cut
		warm, measured, cool, jobs int
		fromJob, toJob             int
		from, to                   int64
	}{
		{"whole", whole, 0, 8, 0, 8, 0, 8, 100000, 3628801},
		{"jobs 3..6", seq, 2, 3, 2, 7, 2, 5, 960000, 970001},
		{"dates", dates, 2, 4, 1, 7, 0, 0, 950400, 3628800},
	} {
		c := tt.c
		if c.WarmUpJobs != tt.warm || c.MeasuredJobs != tt.measured || c.CoolDownJobs != tt.cool || len(c.Workload.Jobs) != tt.jobs ||
			c.Workload.MeasureFromJob != tt.fromJob || c.Workload.MeasureToJob != tt.toJob {
			t.Errorf("%s: warm-up %d measured %d cool-down %d of %d jobs, by index [%d, %d); want %d %d %d of %d, [%d, %d)", tt.name,
				c.WarmUpJobs, c.MeasuredJobs, c.CoolDownJobs, len(c.Workload.Jobs), c.Workload.MeasureFromJob, c.Workload.MeasureToJob,
				tt.warm, tt.measured, tt.cool, tt.jobs, tt.fromJob, tt.toJob)
		}
		if c.Workload.MeasureFromSeconds != tt.from || c.Workload.MeasureToSeconds != tt.to {
			t.Errorf("%s: seconds [%d, %d), want [%d, %d)", tt.name, c.Workload.MeasureFromSeconds, c.Workload.MeasureToSeconds, tt.from, tt.to)
		}
		measured := 0
		for i := range c.Workload.Jobs {
			if c.Workload.Measured(i) {
				measured++
			}
		}
		if measured != tt.measured {
			t.Errorf("%s: Workload.Measured counts %d jobs, want %d", tt.name, measured, tt.measured)
		}
	}
	if _, err := tr.JobRange(0, 9); err == nil || !strings.Contains(err.Error(), "window of jobs [0, 9): want 0 <= from < to <= 8") {
		t.Errorf("jobs beyond the trace: %v", err)
	}
	if _, err := tr.Dates(start.AddDate(1, 0, 0), start.AddDate(1, 1, 0)); err == nil || !strings.Contains(err.Error(), "has no job: want dates within the trace (jobs submitted 1996-09-21 to 1996-11-01 UTC)") {
		t.Errorf("dates outside the trace: %v", err)
	}
}
