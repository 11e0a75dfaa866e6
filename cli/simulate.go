package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/report/gantt"
)

// simulateOutput is the JSON object `sweep simulate` prints (DESIGN.md
// section 6): the model, the measures of its cells table and, with
// --schedule, the schedule's tasks.
type simulateOutput struct {
	Model   string               `json:"model"`
	Metrics measures             `json:"metrics"`
	Tasks   []grid.ScheduledTask `json:"tasks,omitempty"`
}

// keyValues collects repeated key=value flags.
type keyValues map[string]string

func (kv keyValues) String() string { return fmt.Sprint(map[string]string(kv)) }

func (kv keyValues) Set(v string) error {
	key, value, ok := strings.Cut(v, "=")
	if !ok || key == "" {
		return fmt.Errorf("%q: want key=value", v)
	}
	kv[key] = value
	return nil
}

// runSimulate implements `sweep simulate`: one workload file under one
// policy on one platform, through the policy's model.
func (a *app) runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	models := a.models
	fs := flag.NewFlagSet("sweep simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	platformSpec := fs.String("platform", "", "platform: burkimsher2013, single:N, or a platform file")
	workloadPath := fs.String("workload", "", "workload file in the policy's model's format (see `sweep gen`; an SWF trace for rigid policies)")
	policy := fs.String("policy", "", "policy (sweep policies lists them): "+strings.Join(models.PolicyNames(), ", "))
	load := fs.String("load", "", "load ratio: rewrite arrivals so work arrives at this fraction of the platform's capacity (open-loop models)")
	seed := fs.Uint64("seed", 1, "seed of the policy's random draws")
	base := fs.String("base", "", "cumulative-completion base tick (grid and campaign; default: the makespan)")
	schedule := fs.Bool("schedule", false, "also print every task's cluster, start and finish (grid and campaign)")
	settings := keyValues{}
	fs.Var(settings, "with", "a setting of the model's manifest section, key=value (repeatable), e.g. --with ccr=0.5, --with job-order=lpt")
	options := keyValues{}
	fs.Var(options, "option", "a reading option of the workload file, key=value (repeatable), e.g. --option month=1997-06 for a trace")
	ccr := fs.String("ccr", "", "grid: communication to computation ratio of cross-cluster edges (same as --with ccr=...)")
	delay := fs.String("delay", "", "grid: network delay formula ccr or fastgridsim (same as --with delay=...)")
	exportPath := fs.String("export", "", "also write the schedule into this file, in --export-format")
	exportFormat := fs.String("export-format", "swf", "format of --export: "+strings.Join(exportFormats, ", "))
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
	if !slices.Contains(exportFormats, *exportFormat) {
		return bad("--export-format %q: want one of %s", *exportFormat, strings.Join(exportFormats, ", "))
	}
	if *ccr != "" {
		settings["ccr"] = *ccr
	}
	if *delay != "" {
		settings["delay"] = *delay
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
	_, md, ok := models.Policy(*policy)
	if !ok {
		return bad("--policy %q: unknown; valid policies: %s", *policy, strings.Join(models.PolicyNames(), ", "))
	}
	reader, ok := md.(model.FileReader)
	if !ok {
		return bad("--policy %s: the %s model reads no workload file", *policy, md.Name())
	}
	p, err := platform.Parse(*platformSpec)
	if err != nil {
		return bad("--platform: %w", err)
	}
	parsed, err := md.ParseSettings(settingsNode(settings))
	if err != nil {
		return bad("--with: %w", err)
	}
	env := model.Env{Path: func(s string) string { return s }, Platforms: map[string]*platform.Platform{*platformSpec: p}, Settings: parsed}
	src, err := reader.ReadFile(*workloadPath, options, env)
	if err != nil {
		return bad("--workload: %w", err)
	}
	if err := src.CheckPlatform(*platformSpec, p); err != nil {
		return bad("--platform: %w", err)
	}
	if err := src.Allows(*policy); err != nil {
		return bad("--policy: %w", err)
	}
	ax := model.Axes{Experiment: "simulate", Label: "workload", Instances: 1, Platforms: []string{*platformSpec},
		Policies: []string{*policy}, Settings: parsed, Env: env}
	if *load != "" {
		l, err := strconv.ParseFloat(*load, 64)
		if err != nil || !(l > 0) {
			return bad("--load %q: want a load ratio > 0 such as 0.8 or 1.2", *load)
		}
		if !md.UsesLoads() {
			return bad("--load: %s workloads have no load ratio", md.Name())
		}
		ax.Loads = []float64{l}
	}
	groups := src.Groups(ax)
	c := groups[0][0]
	c.PolicySeed = *seed
	prepared, err := src.Prepare(ctx, c, env)
	if err == nil {
		var outcome model.Outcome
		if outcome, err = prepared.Simulate(ctx, c); err == nil {
			if *exportPath != "" {
				if err := writeExport(outcome, md, *exportFormat, *exportPath, stdout); err != nil {
					return err
				}
			}
			return printSimulation(outcome, md, *base, *schedule, *ganttPath, ganttOptions, stdout, stderr)
		}
	}
	var input model.InputError
	if errors.As(err, &input) {
		return bad("%w", err)
	}
	return fmt.Errorf("sweep simulate: %w", err)
}

// printSimulation measures a simulated cell and prints it.
func printSimulation(outcome model.Outcome, md model.Model, base string, schedule bool, ganttPath string, opts gantt.Options, stdout, stderr io.Writer) error {
	if base != "" {
		rebased, ok := outcome.(interface{ SetBase(int64) })
		ticks, err := strconv.ParseInt(base, 10, 64)
		if err != nil || ticks < 1 || !ok {
			return usageError{fmt.Errorf("sweep simulate: --base %q: want a whole tick >= 1, for grid and campaign policies", base)}
		}
		rebased.SetBase(ticks)
	}
	measured, err := outcome.Measure(model.Record{})
	if err != nil {
		return fmt.Errorf("sweep simulate: %w", err)
	}
	out := simulateOutput{Model: md.Name(), Metrics: measures{names: measureNames(md.Measures()), values: measured.Values}}
	if schedule {
		tasks, ok := outcome.(interface{ Tasks() []grid.ScheduledTask })
		if !ok {
			return usageError{fmt.Errorf("sweep simulate: --schedule: %s schedules have no task listing yet", md.Name())}
		}
		out.Tasks = tasks.Tasks()
	}
	if ganttPath != "" {
		s, ok := outcome.(engineSchedule)
		if !ok {
			return usageError{fmt.Errorf("sweep simulate: --gantt: %s schedules have no Gantt chart yet (grid and campaign ones have)", md.Name())}
		}
		if err := writeGantt(ganttPath, s.EngineSchedule(), opts, stderr); err != nil {
			return fmt.Errorf("sweep simulate: %w", err)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// settingsNode is a model section made of key=value settings, nil when
// there are none.
func settingsNode(settings map[string]string) *yaml.Node {
	if len(settings) == 0 {
		return nil
	}
	var node yaml.Node
	if err := node.Encode(settings); err != nil {
		panic(err) // a map of strings always encodes
	}
	return &node
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
func writeGantt(path string, s *gridengine.Schedule, opts gantt.Options, note io.Writer) error {
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
