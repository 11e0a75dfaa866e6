package cli

import (
	"cmp"
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

	"github.com/sweep-sched/sweep/internal/suggest"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/report/gantt"
)

// simulateOutput is the JSON object `sweep simulate` prints (DESIGN.md
// section 6): the model, the measures of its cells table and, with
// --schedule, the bars of the schedule's Gantt chart.
type simulateOutput struct {
	Model   string          `json:"model"`
	Metrics measures        `json:"metrics"`
	Tasks   []scheduledTask `json:"tasks,omitempty"`
}

// A scheduledTask is one bar of a simulated schedule (a task, or a job
// that is one bar), as `sweep simulate --schedule` lists it.
type scheduledTask struct {
	Job     string `json:"job"`
	Task    string `json:"task,omitempty"`
	Cluster string `json:"cluster"`
	Start   int64  `json:"start"`
	Finish  int64  `json:"finish"`
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

// simulateFlags are the flags of `sweep simulate`.
type simulateFlags struct {
	platform, workload, policy, load string
	model                            string
	seed                             uint64
	base                             string
	schedule                         bool
	settings, options                keyValues
	exportPath, exportFormat         string
	ganttPath                        string
	gantt                            gantt.Options
}

// parseSimulateFlags reads and checks the flags of `sweep simulate`.
func parseSimulateFlags(models *model.Registry, args []string, stderr io.Writer) (*simulateFlags, error) {
	fs := flag.NewFlagSet("sweep simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &simulateFlags{settings: keyValues{}, options: keyValues{}}
	fs.StringVar(&f.platform, "platform", "", "platform: "+strings.Join(platform.Presets(), ", ")+", or a platform file")
	fs.StringVar(&f.workload, "workload", "", "workload file in the policy's model's format (see `sweep gen`; an SWF trace for trace policies)")
	fs.StringVar(&f.policy, "policy", "", "policy (sweep policies lists them): "+strings.Join(models.PolicyNames(), ", "))
	fs.StringVar(&f.model, "model", "", "the model whose policy --policy is, when several models offer a policy of that name (fcfs: campaign or rigid)")
	fs.StringVar(&f.load, "load", "", "load ratio: rewrite arrivals so work arrives at this fraction of the platform's capacity (open-loop models)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the policy's random draws")
	fs.StringVar(&f.base, "base", "", "cumulative-completion base tick, for models whose measures take one (default: the makespan)")
	fs.BoolVar(&f.schedule, "schedule", false, "also print every task's (or job's) cluster, start and finish, for models with a Gantt chart")
	fs.Var(f.settings, "with", "a setting of the model's manifest section, key=value (repeatable), e.g. --with ccr=0.5, --with job-order=lpt")
	fs.Var(f.options, "option", "a reading option of the workload file, key=value (repeatable), e.g. --option month=1997-06 for a trace")
	ccr := fs.String("ccr", "", "communication to computation ratio of cross-cluster edges (same as --with ccr=...)")
	delay := fs.String("delay", "", "network delay formula ccr or fastgridsim (same as --with delay=...)")
	fs.StringVar(&f.exportPath, "export", "", "also write the schedule into this file, in --export-format")
	fs.StringVar(&f.exportFormat, "export-format", "swf", "format of --export: "+strings.Join(exportFormats, ", "))
	fs.StringVar(&f.ganttPath, "gantt", "", "also draw the schedule as an SVG Gantt chart into this file")
	ganttWindow := fs.String("gantt-window", "", "time window of the Gantt chart in ticks, FROM:TO (default: the whole schedule)")
	if err := parseFlags(fs, args); err != nil {
		if err == flag.ErrHelp {
			return nil, err
		}
		return nil, usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return nil, badSimulate("unexpected arguments %q", fs.Args())
	case f.platform == "" || f.workload == "" || f.policy == "":
		return nil, badSimulate("--platform, --workload and --policy are required")
	case !slices.Contains(exportFormats, f.exportFormat):
		return nil, badSimulate("--export-format %q: want one of %s%s", f.exportFormat, strings.Join(exportFormats, ", "), suggest.DidYouMean(f.exportFormat, exportFormats))
	}
	if *ccr != "" {
		f.settings["ccr"] = *ccr
	}
	if *delay != "" {
		f.settings["delay"] = *delay
	}
	f.gantt = gantt.Options{Title: fmt.Sprintf("%s under %s on %s", f.workload, f.policy, f.platform)}
	if *ganttWindow != "" {
		if f.ganttPath == "" {
			return nil, badSimulate("--gantt-window needs --gantt")
		}
		var err error
		if f.gantt.FromTick, f.gantt.ToTick, err = parseTickWindow(*ganttWindow); err != nil {
			return nil, badSimulate("--gantt-window: %w", err)
		}
	}
	return f, nil
}

// policyModel returns the model of --policy: the one offering it, or
// among several, the one --model names.
func (f *simulateFlags) policyModel(models *model.Registry) (model.Model, error) {
	owners := models.PolicyModels(f.policy)
	var names []string
	for _, md := range owners {
		if md.Name() == f.model || len(owners) == 1 && f.model == "" {
			return md, nil
		}
		names = append(names, md.Name())
	}
	switch {
	case len(owners) == 0:
		return nil, badSimulate("--policy %q: unknown%s; valid policies: %s", f.policy, suggest.DidYouMean(f.policy, models.PolicyNames()), strings.Join(models.PolicyNames(), ", "))
	case f.model == "":
		return nil, badSimulate("--policy %s is a policy of the models %s; say which with --model", f.policy, strings.Join(names, " and "))
	}
	return nil, badSimulate("--model %q: want one of the models offering --policy %s: %s", f.model, f.policy, strings.Join(names, ", "))
}

// badSimulate is an error in the arguments of `sweep simulate`.
func badSimulate(format string, a ...any) error {
	return usageError{fmt.Errorf("sweep simulate: "+format, a...)}
}

// runSimulate implements `sweep simulate`: one workload file under one
// policy on one platform, through the policy's model.
func (a *app) runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseSimulateFlags(a.models, args, stderr)
	if err != nil {
		return err
	}
	md, err := f.policyModel(a.models)
	if err != nil {
		return err
	}
	src, c, env, err := f.cell(md)
	if err != nil {
		return err
	}
	prepared, err := src.Prepare(ctx, c, env)
	var outcome model.Outcome
	if err == nil {
		outcome, err = prepared.Simulate(ctx, c)
	}
	if err != nil {
		var input model.InputError
		if errors.As(err, &input) {
			return badSimulate("%w", err)
		}
		return fmt.Errorf("sweep simulate: %w", err)
	}
	if f.exportPath != "" {
		if err := writeExport(outcome, md, f.exportFormat, f.exportPath, stdout); err != nil {
			return err
		}
	}
	return f.print(outcome, md, stdout, stderr)
}

// cell reads the workload file through model md and returns its one cell
// on the platform under the policy, with what preparing it reads.
func (f *simulateFlags) cell(md model.Model) (model.Source, model.Cell, model.Env, error) {
	var env model.Env
	reader, ok := md.(model.FileReader)
	if !ok {
		return nil, model.Cell{}, env, badSimulate("--policy %s: the %s model reads no workload file", f.policy, md.Name())
	}
	p, err := platform.Parse(f.platform)
	if err != nil {
		return nil, model.Cell{}, env, badSimulate("--platform: %w", err)
	}
	parsed, err := md.ParseSettings(settingsNode(f.settings))
	if err != nil {
		return nil, model.Cell{}, env, badSimulate("--with: %w", err)
	}
	env = model.Env{Path: func(s string) string { return s }, Platforms: map[string]*platform.Platform{f.platform: p}, Settings: parsed}
	src, err := reader.ReadFile(f.workload, f.options, env)
	if err != nil {
		return nil, model.Cell{}, env, badSimulate("--workload: %w", err)
	}
	if err := src.CheckPlatform(f.platform, p); err != nil {
		return nil, model.Cell{}, env, badSimulate("--platform: %w", err)
	}
	if err := src.Allows(f.policy); err != nil {
		return nil, model.Cell{}, env, badSimulate("--policy: %w", err)
	}
	ax := model.Axes{Experiment: "simulate", Label: "workload", Instances: 1, Platforms: []string{f.platform},
		Policies: []string{f.policy}, Settings: parsed, Env: env}
	if f.load != "" {
		l, err := strconv.ParseFloat(f.load, 64)
		if err != nil || !(l > 0) {
			return nil, model.Cell{}, env, badSimulate("--load %q: want a load ratio > 0 such as 0.8 or 1.2", f.load)
		}
		if !md.UsesLoads() {
			return nil, model.Cell{}, env, badSimulate("--load: %s workloads have no load ratio", md.Name())
		}
		ax.Loads = []float64{l}
	}
	c := src.Groups(ax)[0][0]
	c.PolicySeed = f.seed
	return src, c, env, nil
}

// print measures a simulated cell and prints it, with its schedule's bars
// (--schedule) and its Gantt chart (--gantt).
func (f *simulateFlags) print(outcome model.Outcome, md model.Model, stdout, stderr io.Writer) error {
	if f.base != "" {
		rebased, ok := outcome.(model.Rebaser)
		ticks, err := strconv.ParseInt(f.base, 10, 64)
		if err != nil || ticks < 1 || !ok {
			return badSimulate("--base %q: want a whole tick >= 1, for a model whose measures take a base (%s's do not)", f.base, md.Name())
		}
		rebased.SetBase(ticks)
	}
	measured, err := outcome.Measure(model.Record{})
	if err != nil {
		return fmt.Errorf("sweep simulate: %w", err)
	}
	out := simulateOutput{Model: md.Name(), Metrics: measures{names: measureNames(md.Measures()), values: measured.Values}}
	charted, ok := outcome.(model.Charted)
	if (f.schedule || f.ganttPath != "") && !ok {
		return badSimulate("--schedule and --gantt: %s schedules have no Gantt chart yet", md.Name())
	}
	if f.schedule {
		out.Tasks = scheduledTasks(charted.Gantt())
	}
	if f.ganttPath != "" {
		if err := writeGantt(f.ganttPath, charted.Gantt(), f.gantt, stderr); err != nil {
			return fmt.Errorf("sweep simulate: %w", err)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// scheduledTasks lists the bars of g in its order.
func scheduledTasks(g model.Gantt) []scheduledTask {
	out := make([]scheduledTask, len(g.Bars))
	for i, b := range g.Bars {
		out[i] = scheduledTask{Job: g.Jobs[b.Job].ID, Task: b.Task, Cluster: g.Groups[b.Group].Name, Start: b.StartTick, Finish: b.FinishTick}
	}
	return out
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

// writeGantt draws schedule g into the SVG file path and tells the user
// on note what the chart left out.
func writeGantt(path string, g model.Gantt, opts gantt.Options, note io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gantt: %w", err)
	}
	summary, err := gantt.Write(f, g, opts)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("gantt %s: %w", path, err)
	}
	fmt.Fprintf(note, "gantt: wrote %s: %d of %d %ss in ticks %d-%d drawn", path, summary.Bars, summary.InWindow, cmp.Or(g.Words.Bar, "bar"), summary.FromTick, summary.ToTick)
	if elided := summary.TooShort + summary.OverBudget; elided > 0 {
		fmt.Fprintf(note, "; %d elided (too short to see, or beyond the bar budget): see the chart's caption", elided)
	}
	fmt.Fprintln(note)
	return nil
}
