package grid

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store/table"

	"gonum.org/v1/gonum/stat"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
)

// goldenRow is one non-comment line of a whitespace-separated testdata table.
type goldenRow struct {
	line   int
	fields map[string]string
}

// readGoldenTable reads a testdata table: '#' starts a comment, the first
// remaining line names the columns.
func readGoldenTable(t *testing.T, name string) (columns []string, rows []goldenRow) {
	t.Helper()
	path := filepath.Join("testdata", name)
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	scanner := bufio.NewScanner(file)
	for line := 1; scanner.Scan(); line++ {
		text, _, _ := strings.Cut(scanner.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if columns == nil {
			columns = fields
			continue
		}
		if len(fields) != len(columns) {
			t.Fatalf("%s:%d: %d fields, want %d (%v)", path, line, len(fields), len(columns), columns)
		}
		row := goldenRow{line: line, fields: map[string]string{}}
		for i, column := range columns {
			row.fields[column] = fields[i]
		}
		rows = append(rows, row)
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return columns, rows
}

func goldenInt(t *testing.T, name string, row goldenRow, column string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(row.fields[column], 10, 64)
	if err != nil {
		t.Fatalf("testdata/%s:%d: column %s: %v", name, row.line, column, err)
	}
	return v
}

// checkRounded fails unless got, rounded to as many decimals as printed
// has, reads exactly printed.
func checkRounded(t *testing.T, where string, got float64, printed string) {
	t.Helper()
	decimals := 0
	if _, fraction, ok := strings.Cut(printed, "."); ok {
		decimals = len(fraction)
	}
	if rounded := strconv.FormatFloat(got, 'f', decimals, 64); rounded != printed {
		t.Errorf("%s = %v (%s), want %s", where, got, rounded, printed)
	}
}

type goldenTask struct {
	job, task string
	execTicks int64
	cores     int
	after     []string
	starts    map[string]int64 // by schedule name
}

// readGoldenTasks reads a task table whose start_<name> columns give one
// schedule each, and returns the schedule names in column order.
func readGoldenTasks(t *testing.T, name string) (tasks []goldenTask, schedules []string) {
	t.Helper()
	columns, rows := readGoldenTable(t, name)
	for _, column := range columns {
		if schedule, ok := strings.CutPrefix(column, "start_"); ok {
			schedules = append(schedules, schedule)
		}
	}
	for _, row := range rows {
		task := goldenTask{
			job:       row.fields["job"],
			task:      row.fields["task"],
			execTicks: goldenInt(t, name, row, "exec"),
			cores:     int(goldenInt(t, name, row, "cores")),
			starts:    map[string]int64{},
		}
		if after := row.fields["after"]; after != "-" {
			task.after = strings.Split(after, ",")
		}
		for _, schedule := range schedules {
			task.starts[schedule] = goldenInt(t, name, row, "start_"+schedule)
		}
		tasks = append(tasks, task)
	}
	return tasks, schedules
}

// goldenOutcomes turns one schedule of a task table into job outcomes (all
// jobs arrive at 0 in the paper's examples), after checking that the
// schedule respects precedence and the platform's cores, so a mistyped
// start tick cannot pass unnoticed. Jobs keep their order of first
// appearance. The critical path is the longest chain of exec times.
func goldenOutcomes(t *testing.T, tasks []goldenTask, schedule string, platformCores int) (jobIDs []string, outcomes []gridengine.JobOutcome) {
	t.Helper()
	type key struct{ job, task string }
	byKey := map[key]goldenTask{}
	for _, task := range tasks {
		byKey[key{task.job, task.task}] = task
	}
	// longestChain is the longest path of exec times ending with task.
	longestChain := map[key]int64{}
	var chain func(k key) int64
	chain = func(k key) int64 {
		if v, ok := longestChain[k]; ok {
			return v
		}
		var before int64
		for _, p := range byKey[k].after {
			before = max(before, chain(key{k.job, p}))
		}
		longestChain[k] = before + byKey[k].execTicks
		return longestChain[k]
	}

	index := map[string]int{}
	busyCores := map[int64]int{}
	for _, task := range tasks {
		start := task.starts[schedule]
		finish := start + task.execTicks
		for _, p := range task.after {
			pred, ok := byKey[key{task.job, p}]
			if !ok {
				t.Fatalf("%s %s: unknown predecessor %s", task.job, task.task, p)
			}
			if pred.starts[schedule]+pred.execTicks > start {
				t.Fatalf("schedule %s: %s %s starts at %d before predecessor %s finishes", schedule, task.job, task.task, start, p)
			}
		}
		for tick := start; tick < finish; tick++ {
			busyCores[tick] += task.cores
			if busyCores[tick] > platformCores {
				t.Fatalf("schedule %s: %d cores busy at tick %d, platform has %d", schedule, busyCores[tick], tick, platformCores)
			}
		}
		i, seen := index[task.job]
		if !seen {
			i = len(outcomes)
			index[task.job] = i
			jobIDs = append(jobIDs, task.job)
			outcomes = append(outcomes, gridengine.JobOutcome{StartTick: start, FinishTick: finish})
		}
		o := &outcomes[i]
		o.StartTick = min(o.StartTick, start)
		o.FinishTick = max(o.FinishTick, finish)
		o.VolumeCoreTicks += task.execTicks * int64(task.cores)
		o.CriticalPathTicks = max(o.CriticalPathTicks, chain(key{task.job, task.task}))
		o.Tasks++
	}
	return jobIDs, outcomes
}

func TestMetricsPaperExamples(t *testing.T) {
	tests := []struct {
		name          string
		tasks         string
		metrics       string // "" when the paper gives no schedule metrics
		jobs          string
		platformCores int
		baseTicks     int64
		// wantCriticalPath is derived by hand from the workload tables.
		wantCriticalPath map[string]int64
	}{
		{
			name: "fig3 Graham", tasks: "fig3_tasks.txt", metrics: "fig3_metrics.txt", jobs: "fig3_jobs.txt",
			platformCores: 3, baseTicks: 14,
			// J1: T1 then T9, 3+9; J4: T4 then one of T5..T8, 2+4.
			wantCriticalPath: map[string]int64{"J1": 12, "J2": 2, "J3": 2, "J4": 6},
		},
		{
			name: "fig4 multiple waits", tasks: "fig4_tasks.txt", metrics: "fig4_metrics.txt", jobs: "fig4_jobs.txt",
			platformCores: 1, baseTicks: 6,
			// J1: T1 then T2 or T3; J2: the chain T1, T2, T3.
			wantCriticalPath: map[string]int64{"J1": 2, "J2": 3},
		},
		{
			name: "fig5 SLR advantage", tasks: "fig5_tasks.txt", jobs: "fig5_jobs.txt",
			platformCores: 2, baseTicks: 5,
			// J1: T1, one of T2..T4, T5; J2: the chain of five.
			wantCriticalPath: map[string]int64{"J1": 3, "J2": 5},
		},
	}
	columns := map[string]MetricColumn{}
	for _, c := range MetricColumns() {
		columns[c.Name] = c
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tasks, schedules := readGoldenTasks(t, tt.tasks)
			outcomes := map[string][]gridengine.JobOutcome{}
			jobIndex := map[string]int{}
			metrics := map[string]ScheduleMetrics{}
			for _, schedule := range schedules {
				ids, jobs := goldenOutcomes(t, tasks, schedule, tt.platformCores)
				for i, id := range ids {
					jobIndex[id] = i
					if got, want := jobs[i].CriticalPathTicks, tt.wantCriticalPath[id]; got != want {
						t.Errorf("critical path of %s = %d, want %d", id, got, want)
					}
				}
				m, err := ComputeMetrics(jobs, tt.platformCores, tt.baseTicks)
				if err != nil {
					t.Fatal(err)
				}
				outcomes[schedule], metrics[schedule] = jobs, m
			}

			if tt.metrics != "" {
				_, rows := readGoldenTable(t, tt.metrics)
				if len(rows) != 14 {
					t.Errorf("%s has %d metrics, want the 14 of DESIGN.md section 6", tt.metrics, len(rows))
				}
				for _, row := range rows {
					column, ok := columns[row.fields["metric"]]
					if !ok {
						t.Fatalf("testdata/%s:%d: unknown metric %q", tt.metrics, row.line, row.fields["metric"])
					}
					for _, schedule := range schedules {
						m := metrics[schedule]
						checkRounded(t, fmt.Sprintf("schedule %s %s", schedule, column.Name), column.Float(&m), row.fields[schedule])
					}
				}
			}

			_, rows := readGoldenTable(t, tt.jobs)
			for _, row := range rows {
				schedule, id := row.fields["schedule"], row.fields["job"]
				job := outcomes[schedule][jobIndex[id]]
				where := fmt.Sprintf("schedule %s job %s", schedule, id)
				if want := goldenInt(t, tt.jobs, row, "start"); job.StartTick != want {
					t.Errorf("%s start = %d, want %d", where, job.StartTick, want)
				}
				if want := goldenInt(t, tt.jobs, row, "finish"); job.FinishTick != want {
					t.Errorf("%s finish = %d, want %d", where, job.FinishTick, want)
				}
				m, err := ComputeJobMetrics(job)
				if err != nil {
					t.Fatal(err)
				}
				checkRounded(t, where+" slr", m.SLR, row.fields["slr"])
				checkRounded(t, where+" stretch", m.Stretch, row.fields["stretch"])
				checkRounded(t, where+" speedup", m.Speedup, row.fields["speedup"])
			}
		})
	}
}

// interval is a job that arrives at 0 and runs from start to finish.
func interval(start, finish int64) gridengine.JobOutcome {
	return gridengine.JobOutcome{StartTick: start, FinishTick: finish, VolumeCoreTicks: 1, CriticalPathTicks: 1, Tasks: 1}
}

func TestMetricsPeakInFlightTies(t *testing.T) {
	tests := []struct {
		name string
		jobs []gridengine.JobOutcome
		want int64
	}{
		// The finish at 2 is counted before the start at 2.
		{"back to back", []gridengine.JobOutcome{interval(0, 2), interval(2, 4)}, 1},
		{"one tick overlap", []gridengine.JobOutcome{interval(0, 3), interval(2, 4)}, 2},
		// Three leave at 5 as three others arrive: 3, not 6.
		{"three hand over three", []gridengine.JobOutcome{
			interval(0, 5), interval(0, 5), interval(0, 5), interval(5, 6), interval(5, 6), interval(5, 6),
		}, 3},
		// At tick 4 all three run; job order is not start order.
		{"unsorted", []gridengine.JobOutcome{interval(4, 6), interval(0, 5), interval(3, 5)}, 3},
		// Short jobs inside a long one, each handing over to the next.
		{"nested chain", []gridengine.JobOutcome{interval(0, 10), interval(1, 2), interval(2, 3), interval(3, 4)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ComputeMetrics(tt.jobs, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if m.PeakInFlight != tt.want {
				t.Errorf("peak in-flight = %d, want %d", m.PeakInFlight, tt.want)
			}
		})
	}
}

// finishedAt is a job that arrives and starts at 0.
func finishedAt(finish, volume int64) gridengine.JobOutcome {
	return gridengine.JobOutcome{FinishTick: finish, VolumeCoreTicks: volume, CriticalPathTicks: 1, Tasks: 1}
}

func TestMetricsCumulativeCompletionBeyondInt64(t *testing.T) {
	tests := []struct {
		name      string
		jobs      []gridengine.JobOutcome
		baseTicks int64
		want      float64
	}{
		{
			// (1+3-1) x 3e18 + (1+3-2) x 3e18 = 1.5e19 > MaxInt64 ~ 9.22e18;
			// 1.5e19 = 15 x 5^18 x 2^18 is exact in float64.
			name:      "sum overflows int64",
			jobs:      []gridengine.JobOutcome{finishedAt(1, 3e18), finishedAt(2, 3e18)},
			baseTicks: 3,
			want:      1.5e19,
		},
		{
			// Base 10: terms (1+10-8) x 3e18 = 9e18 twice and
			// (1+10-17) x (3e18-3) = -(1.8e19-18); the sum is 18. An int64
			// running sum overflows after two terms, and float64 terms
			// round -(1.8e19-18) to -1.8e19, giving 0.
			name:      "cancellation after overflow",
			jobs:      []gridengine.JobOutcome{finishedAt(8, 3e18), finishedAt(8, 3e18), finishedAt(17, 3e18-3)},
			baseTicks: 10,
			want:      18,
		},
		{
			// Base 1: (1+1-1) x 5 + (1+1-4) x 7 = 5 - 14.
			name:      "base below a finish",
			jobs:      []gridengine.JobOutcome{finishedAt(1, 5), finishedAt(4, 7)},
			baseTicks: 1,
			want:      -9,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ComputeMetrics(tt.jobs, 1, tt.baseTicks)
			if err != nil {
				t.Fatal(err)
			}
			if m.CumulativeCompletion != tt.want {
				t.Errorf("cumulative completion = %v, want %v", m.CumulativeCompletion, tt.want)
			}
		})
	}
}

func TestMetricsRebaseCumulativeCompletion(t *testing.T) {
	grahamA := []gridengine.JobOutcome{ // Fig. 3 schedule A, see fig3_jobs.txt
		{FinishTick: 14, VolumeCoreTicks: 12, CriticalPathTicks: 12, Tasks: 2},
		{StartTick: 3, FinishTick: 5, VolumeCoreTicks: 2, CriticalPathTicks: 2, Tasks: 1},
		{FinishTick: 2, VolumeCoreTicks: 2, CriticalPathTicks: 2, Tasks: 1},
		{FinishTick: 10, VolumeCoreTicks: 18, CriticalPathTicks: 6, Tasks: 5},
	}
	huge := []gridengine.JobOutcome{finishedAt(8, 3e18), finishedAt(8, 3e18), finishedAt(17, 3e18-3)}
	tests := []struct {
		name             string
		jobs             []gridengine.JobOutcome
		fromBase, toBase int64
		want             float64
	}{
		// 148 + (20-14) x 34 and 148 + (12-14) x 34.
		{"graham up", grahamA, 14, 20, 352},
		{"graham down", grahamA, 14, 12, 80},
		// 18 + (20-10) x (9e18-3) = 9e19 - 12: the shift overflows int64,
		// and 9e19 is the nearest float64 (spacing 16384 there).
		{"shift beyond int64", huge, 10, 20, 9e19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, err := ComputeMetrics(tt.jobs, 3, tt.fromBase)
			if err != nil {
				t.Fatal(err)
			}
			got := RebaseCumulativeCompletion(from.CumulativeCompletion, tt.fromBase, tt.toBase, from.VolumeTotalCoreTicks)
			if got != tt.want {
				t.Errorf("rebased = %v, want %v", got, tt.want)
			}
			direct, err := ComputeMetrics(tt.jobs, 3, tt.toBase)
			if err != nil {
				t.Fatal(err)
			}
			if direct.CumulativeCompletion != tt.want {
				t.Errorf("computed at base %d = %v, want %v", tt.toBase, direct.CumulativeCompletion, tt.want)
			}
		})
	}
}

func TestMetricsMeanSampleSD(t *testing.T) {
	tests := []struct {
		name             string
		xs               []float64
		wantMean, wantSD float64
	}{
		// Deviations -3,-1,-1,-1,0,0,2,4 from 5: squares sum to 32, /7.
		{"hand", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7)},
		// The classic catastrophic-cancellation case for the one-pass
		// sum-of-squares formula: deviations -6,-3,3,6 square to 90, /3.
		{"offset 1e9", []float64{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}, 1e9 + 10, math.Sqrt(30)},
		{"one value", []float64{3}, 3, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mean, sd := meanSampleSD(tt.xs)
			if mean != tt.wantMean {
				t.Errorf("mean = %v, want %v", mean, tt.wantMean)
			}
			if math.IsNaN(tt.wantSD) != math.IsNaN(sd) || math.Abs(sd-tt.wantSD) > 1e-12*tt.wantSD {
				t.Errorf("sd = %v, want %v", sd, tt.wantSD)
			}
		})
	}

	// Reference: gonum stat.MeanStdDev (same algorithm, different summation
	// order) on seeded heavy-tailed vectors like SLRs under overload.
	rng := rand.New(rand.NewPCG(2013, 4))
	for trial := range 20 {
		xs := make([]float64, 1+rng.IntN(5000))
		for i := range xs {
			xs[i] = 1 + math.Exp(8*rng.Float64())
		}
		mean, sd := meanSampleSD(xs)
		wantMean, wantSD := stat.MeanStdDev(xs, nil)
		if math.Abs(mean-wantMean) > 1e-12*wantMean {
			t.Errorf("trial %d (n=%d): mean = %v, gonum %v", trial, len(xs), mean, wantMean)
		}
		if len(xs) == 1 {
			if !math.IsNaN(sd) || !math.IsNaN(wantSD) {
				t.Errorf("trial %d (n=1): sd = %v, gonum %v, want NaN", trial, sd, wantSD)
			}
		} else if math.Abs(sd-wantSD) > 1e-12*wantSD {
			t.Errorf("trial %d (n=%d): sd = %v, gonum %v", trial, len(xs), sd, wantSD)
		}
	}
}

func TestMetricsErrors(t *testing.T) {
	good := interval(0, 2)
	tests := []struct {
		name          string
		jobs          []gridengine.JobOutcome
		platformCores int
		want          string
	}{
		{"no jobs", nil, 1, "no jobs"},
		{"no cores", []gridengine.JobOutcome{good}, 0, "platform cores = 0"},
		{"negative arrival", []gridengine.JobOutcome{good, {ArrivalTick: -1, FinishTick: 1, VolumeCoreTicks: 1, CriticalPathTicks: 1}}, 1, "job 1: ArrivalTick = -1"},
		{"start before arrival", []gridengine.JobOutcome{{ArrivalTick: 3, StartTick: 2, FinishTick: 4, VolumeCoreTicks: 1, CriticalPathTicks: 1}}, 1, "job 0: StartTick = 2 is before ArrivalTick = 3"},
		{"empty run", []gridengine.JobOutcome{good, good, {StartTick: 2, FinishTick: 2, VolumeCoreTicks: 1, CriticalPathTicks: 1}}, 1, "job 2: FinishTick = 2, want > StartTick = 2"},
		{"zero volume", []gridengine.JobOutcome{{FinishTick: 1, CriticalPathTicks: 1}}, 1, "job 0: VolumeCoreTicks = 0"},
		{"zero critical path", []gridengine.JobOutcome{{FinishTick: 1, VolumeCoreTicks: 1}}, 1, "job 0: CriticalPathTicks = 0"},
		{"volume overflow", []gridengine.JobOutcome{finishedAt(1, math.MaxInt64), finishedAt(1, 1)}, 1, "job 1: total volume exceeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ComputeMetrics(tt.jobs, tt.platformCores, 0)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestMetricColumns(t *testing.T) {
	// DESIGN.md section 6 order, then the two descriptive columns, with
	// the direction of improvement the dominance tables use.
	want := []struct {
		name   string
		better table.Direction
	}{
		{"makespan", table.LowerIsBetter}, {"flow", table.HigherIsBetter}, {"utilisation", table.HigherIsBetter},
		{"peak_in_flight", table.LowerIsBetter}, {"cumulative_completion", table.HigherIsBetter},
		{"slr_mean", table.LowerIsBetter}, {"slr_max", table.LowerIsBetter}, {"slr_sd", table.LowerIsBetter},
		{"stretch_mean", table.LowerIsBetter}, {"stretch_max", table.LowerIsBetter}, {"stretch_sd", table.LowerIsBetter},
		{"speedup_mean", table.HigherIsBetter}, {"speedup_min", table.HigherIsBetter}, {"speedup_sd", table.LowerIsBetter},
		{"volume_total", table.Descriptive}, {"jobs", table.Descriptive},
	}
	columns := MetricColumns()
	if len(columns) != len(want) {
		t.Fatalf("%d columns, want %d", len(columns), len(want))
	}
	// Give every field a distinct value, then check that each column reads
	// the field whose JSON tag carries its name.
	m := ScheduleMetrics{
		MakespanTicks: 1, Flow: 2.5, Utilisation: 3.5, PeakInFlight: 4, CumulativeCompletion: 5.5,
		SLRMean: 6.5, SLRMax: 7.5, SLRSD: 8.5, StretchMean: 9.5, StretchMax: 10.5, StretchSD: 11.5,
		SpeedupMean: 12.5, SpeedupMin: 13.5, SpeedupSD: 14.5, VolumeTotalCoreTicks: 15, Jobs: 16,
	}
	type withTagsOnly ScheduleMetrics // drops the MarshalJSON method
	tagged, err := json.Marshal(withTagsOnly(m))
	if err != nil {
		t.Fatal(err)
	}
	var byTag map[string]float64
	if err := json.Unmarshal(tagged, &byTag); err != nil {
		t.Fatal(err)
	}
	if len(byTag) != len(want) {
		t.Errorf("ScheduleMetrics has %d JSON fields, want %d", len(byTag), len(want))
	}
	for i, c := range columns {
		if c.Name != want[i].name || c.Better != want[i].better {
			t.Errorf("column %d = %s (%v), want %s (%v)", i, c.Name, c.Better, want[i].name, want[i].better)
		}
		if got, ok := byTag[c.Name]; !ok || c.Float(&m) != got {
			t.Errorf("column %s reads %v, field tagged %q holds %v", c.Name, c.Float(&m), c.Name, got)
		}
		if c.Integer != (c.Int != nil) {
			t.Errorf("column %s: Integer = %v but Int set = %v", c.Name, c.Integer, c.Int != nil)
		}
		if c.Integer && float64(c.Int(&m)) != c.Float(&m) {
			t.Errorf("column %s: Int = %d, Float = %v", c.Name, c.Int(&m), c.Float(&m))
		}
	}
	if got := []bool{columns[0].Integer, columns[3].Integer, columns[14].Integer, columns[15].Integer}; slices.Contains(got, false) {
		t.Errorf("makespan, peak_in_flight, volume_total, jobs Integer = %v, want all true", got)
	}
}

func TestMetricsMarshalJSON(t *testing.T) {
	// One job of volume 6 and critical path 2 on 4 cores, running 1..4
	// after arriving at 0: response 4, SLR 4/2 = 2, stretch 4/6, speedup
	// 6/4 = 1.5, utilisation 6/(4x4) = 0.375, flow 1/4, cumulative
	// completion (1+4-4) x 6 = 6, and undefined (null) deviations.
	m, err := ComputeMetrics([]gridengine.JobOutcome{{StartTick: 1, FinishTick: 4, VolumeCoreTicks: 6, CriticalPathTicks: 2, Tasks: 3}}, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"makespan":4,"flow":0.25,"utilisation":0.375,"peak_in_flight":1,"cumulative_completion":6,` +
		`"slr_mean":2,"slr_max":2,"slr_sd":null,` +
		`"stretch_mean":0.6666666666666666,"stretch_max":0.6666666666666666,"stretch_sd":null,` +
		`"speedup_mean":1.5,"speedup_min":1.5,"speedup_sd":null,"volume_total":6,"jobs":1}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

func BenchmarkComputeMetrics(b *testing.B) {
	const jobCount = 10_000
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := make([]gridengine.JobOutcome, jobCount)
	var arrival int64
	for i := range jobs {
		volume := 1 + rng.Int64N(1_000_000)
		criticalPath := 1 + rng.Int64N(volume)
		start := arrival + rng.Int64N(10_000)
		jobs[i] = gridengine.JobOutcome{
			ArrivalTick: arrival, StartTick: start, FinishTick: start + criticalPath + rng.Int64N(100_000),
			VolumeCoreTicks: volume, CriticalPathTicks: criticalPath, Tasks: 1,
		}
		arrival += rng.Int64N(100)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := ComputeMetrics(jobs, 4000, 1_000_000_000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/jobCount, "ns/job")
}

// TestSortTicksSortsLikeSlicesSort: random ticks of every magnitude up to
// 2^62, with many duplicates, short and long slices, sort as slices.Sort
// sorts them.
func TestSortTicksSortsLikeSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 255, 256, 257, 1000, 10_000} {
		for _, bits := range []int{1, 8, 11, 12, 22, 33, 62} {
			ticks := make([]int64, n)
			for i := range ticks {
				ticks[i] = r.Int64N(1 << bits)
				if r.IntN(5) == 0 && i > 0 {
					ticks[i] = ticks[r.IntN(i)]
				}
			}
			want := slices.Clone(ticks)
			slices.Sort(want)
			sortTicks(ticks, make([]int64, n))
			if !slices.Equal(ticks, want) {
				t.Fatalf("n %d, ticks below 2^%d: sorted wrong", n, bits)
			}
		}
	}
}
