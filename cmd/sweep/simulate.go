package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload"

	"github.com/sweep-sched/sweep/analysis/gantt"
	"github.com/sweep-sched/sweep/engine"
	"github.com/sweep-sched/sweep/gen"
)

// simulateOutput is the JSON object `sweep simulate` prints (DESIGN.md
// section 6).
type simulateOutput struct {
	Metrics grid.ScheduleMetrics `json:"metrics"`
	Tasks   []scheduledTask      `json:"tasks,omitempty"`
}

type scheduledTask struct {
	Job     string `json:"job"`
	Task    string `json:"task"`
	Cluster string `json:"cluster"`
	Start   int64  `json:"start"`
	Finish  int64  `json:"finish"`
}

// runSimulate implements `sweep simulate`.
func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	platformSpec := fs.String("platform", "", "platform: burkimsher2013, single:N, or a platform file")
	workloadPath := fs.String("workload", "", "workload JSON file (see `sweep gen`)")
	policy := fs.String("policy", "", "ordering policy: "+strings.Join(engine.Policies(), ", "))
	load := fs.String("load", "", "load ratio: rewrite arrivals so work arrives at this fraction of the platform's capacity")
	seed := fs.Uint64("seed", 1, "seed of the policy's random draws")
	base := fs.String("base", "", "cumulative-completion base tick (default: the makespan)")
	schedule := fs.Bool("schedule", false, "also print every task's cluster, start and finish")
	ccr := fs.String("ccr", "0.2", "communication to computation ratio of cross-cluster edges")
	delay := fs.String("delay", string(engine.DelayCCR), "network delay formula: ccr (ceil(exec x CCR)) or fastgridsim (ceil(exec x (1-CCR)/CCR))")
	ganttPath := fs.String("gantt", "", "also draw the schedule as an SVG Gantt chart into this file")
	ganttWindow := fs.String("gantt-window", "", "time window of the Gantt chart in ticks, FROM:TO (default: the whole schedule)")
	if err := parseFlags(fs, args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usageError{err}
	}
	bad := func(format string, a ...any) error { return usageError{fmt.Errorf("sweep simulate: "+format, a...)} }
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q", fs.Args())
	}
	if *platformSpec == "" || *workloadPath == "" || *policy == "" {
		return bad("--platform, --workload and --policy are required")
	}
	ganttOptions := gantt.Options{Title: fmt.Sprintf("%s under %s on %s", *workloadPath, *policy, *platformSpec)}
	if *ganttWindow != "" {
		if *ganttPath == "" {
			return bad("--gantt-window needs --gantt")
		}
		var err error
		if ganttOptions.FromTick, ganttOptions.ToTick, err = parseTickWindow(*ganttWindow); err != nil {
			return bad("--gantt-window: %w", err)
		}
	}
	platform, err := platform.Parse(*platformSpec)
	if err != nil {
		return bad("--platform: %w", err)
	}
	f, err := os.Open(*workloadPath)
	if err != nil {
		return bad("--workload: %w", err)
	}
	w, err := workload.Decode(f, *workloadPath)
	f.Close()
	if err != nil {
		return usageError{err}
	}
	if *load != "" {
		l, err := strconv.ParseFloat(*load, 64)
		if err != nil || !(l > 0) {
			return bad("--load %q: want a load ratio > 0 such as 0.8 or 1.2", *load)
		}
		if err := gen.SetArrivals(w, platform.TotalCores(), l); err != nil {
			return bad("--load: %w", err)
		}
	} else if !w.HasArrivals() {
		return bad("%s: some jobs have no arrival; give every job an \"arrival\" or pass --load", *workloadPath)
	}
	in, err := engine.Compile(w, platform, engine.Network{CCR: *ccr, Delay: engine.DelayFormula(*delay)})
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", *workloadPath, err)}
	}
	s, err := engine.Simulate(ctx, in, engine.Options{Policy: *policy, Seed: *seed})
	if err != nil {
		return bad("%w", err)
	}
	outcomes := s.Outcomes()
	baseTicks := int64(0)
	for _, o := range outcomes {
		baseTicks = max(baseTicks, o.FinishTick)
	}
	if *base != "" {
		if baseTicks, err = strconv.ParseInt(*base, 10, 64); err != nil {
			return bad("--base %q: want a whole tick", *base)
		}
	}
	m, err := grid.ComputeMetrics(outcomes, platform.TotalCores(), baseTicks)
	if err != nil {
		return fmt.Errorf("sweep simulate: metrics: %w", err)
	}
	if *ganttPath != "" {
		if err := writeGantt(*ganttPath, s, ganttOptions, stderr); err != nil {
			return fmt.Errorf("sweep simulate: %w", err)
		}
	}
	out := simulateOutput{Metrics: m}
	if *schedule {
		for g, id := range in.TaskIDs {
			out.Tasks = append(out.Tasks, scheduledTask{
				Job: in.JobIDs[in.TaskJob(g)], Task: id, Cluster: platform.Clusters[s.TaskCluster[g]].Name,
				Start: s.TaskStart[g], Finish: s.TaskFinish[g],
			})
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// parseTickWindow parses FROM:TO, two whole ticks with FROM < TO.
func parseTickWindow(text string) (from, to int64, err error) {
	a, b, ok := strings.Cut(text, ":")
	from, errFrom := strconv.ParseInt(a, 10, 64)
	to, errTo := strconv.ParseInt(b, 10, 64)
	if !ok || errFrom != nil || errTo != nil || from < 0 || to <= from {
		return 0, 0, fmt.Errorf("%q: want FROM:TO, whole ticks with 0 <= FROM < TO, e.g. 0:5000", text)
	}
	return from, to, nil
}

// writeGantt draws schedule s into the SVG file path and tells the user
// on note what the chart left out.
func writeGantt(path string, s *engine.Schedule, opts gantt.Options, note io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gantt: %w", err)
	}
	summary, err := gantt.Write(f, s, opts)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("gantt %s: %w", path, err)
	}
	fmt.Fprintf(note, "gantt: wrote %s: %d of %d tasks in ticks %d-%d drawn", path, summary.Bars, summary.InWindow, summary.FromTick, summary.ToTick)
	if elided := summary.TooShort + summary.OverBudget; elided > 0 {
		fmt.Fprintf(note, "; %d elided (too short to see, or beyond the bar budget): see the chart's caption", elided)
	}
	fmt.Fprintln(note)
	return nil
}
