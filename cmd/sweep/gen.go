package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload"

	"github.com/sweep-sched/sweep/gen"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	mworkload "github.com/sweep-sched/sweep/workload/moldable"
)

// settingsFlag collects repeated --set key=value flags in order.
type settingsFlag []string

func (s *settingsFlag) String() string { return strings.Join(*s, " ") }

func (s *settingsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// runGen implements `sweep gen`: it writes one workload instance of a
// preset as JSON and prints a one-line summary.
func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "workload preset: "+strings.Join(presets(), ", "))
	instance := fs.Int("instance", 0, "instance number (>= 0); each gives a different workload")
	seed := fs.Uint64("seed", 1, "root seed")
	var settings settingsFlag
	fs.Var(&settings, "set", "override a preset parameter, key=value (repeatable; ranges like 1-10 are inclusive)")
	load := fs.String("load", "", "load ratio, e.g. 0.8 or 1.2: sets arrivals (needs --platform)")
	platform := fs.String("platform", "", "platform for --load: burkimsher2013 or single:N")
	out := fs.String("o", "", "output workload JSON file")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep gen --preset NAME [--instance I] [--seed S] [--set key=value ...] [--load L --platform P] -o FILE")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("sweep gen: unexpected arguments %q; parameters go in --set key=value", fs.Args())}
	}
	if *preset == "" {
		return usageError{fmt.Errorf("sweep gen: --preset is required; valid presets: %s", strings.Join(presets(), ", "))}
	}
	if *out == "" {
		return usageError{errors.New("sweep gen: -o FILE is required")}
	}
	if (*load == "") != (*platform == "") {
		return usageError{errors.New("sweep gen: --load and --platform go together: arrivals need both the load ratio and the platform's cores")}
	}
	if *preset == gen.ProfilesPreset {
		return genCampaigns(ctx, settings, *seed, *instance, *load, *out, stdout)
	}
	if strings.HasPrefix(*preset, gmoldable.PresetPrefix) {
		if *load != "" {
			return usageError{errors.New("sweep gen: moldable workloads are off-line (every task at time 0): leave out --load and --platform")}
		}
		return genMoldable(ctx, *preset, settings, *seed, *instance, *out, stdout)
	}
	p, err := gen.Lookup(*preset)
	if err != nil {
		return usageError{fmt.Errorf("sweep gen: %w (campaign generator: %s)", err, gen.ProfilesPreset)}
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		return usageError{fmt.Errorf("sweep gen: --set: %w", err)}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	w, err := gen.Generate(params, *seed, *instance)
	if err != nil {
		return fmt.Errorf("sweep gen: %w", err)
	}
	if *load != "" {
		ratio, err := strconv.ParseFloat(*load, 64)
		if err != nil {
			return fmt.Errorf("sweep gen: --load %q: want a positive number like 0.8 or 1.2", *load)
		}
		cores, err := platformCores(*platform)
		if err != nil {
			return fmt.Errorf("sweep gen: --platform: %w", err)
		}
		if err := gen.SetArrivals(w, cores, ratio); err != nil {
			return fmt.Errorf("sweep gen: %w", err)
		}
	}
	if err := writeWorkload(*out, w); err != nil {
		return fmt.Errorf("sweep gen: %w", err)
	}
	fmt.Fprintln(stdout, summarize(w))
	return nil
}

// presets lists every generator `sweep gen` knows: the DAG presets and the
// campaign generator.
func presets() []string {
	return slices.Concat(gen.Presets(), []string{gen.ProfilesPreset}, gmoldable.Presets())
}

// genCampaigns writes an instance of the campaign generator
// ostrich2013/profiles, which manifests accept too. Campaigns submit in
// closed loop, so there is no load ratio to set.
func genCampaigns(ctx context.Context, settings []string, seed uint64, instance int, load, out string, stdout io.Writer) error {
	if load != "" {
		return usageError{fmt.Errorf("sweep gen: --load: %s is a closed-loop campaign workload, which has no load ratio", gen.ProfilesPreset)}
	}
	params := gen.DefaultProfilesParams()
	for _, kv := range settings {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return usageError{fmt.Errorf("sweep gen: --set %q: want key=value (keys: %s)", kv, strings.Join(params.Keys(), ", "))}
		}
		if err := params.Set(key, value); err != nil {
			return usageError{fmt.Errorf("sweep gen: --set: %w", err)}
		}
	}
	if err := params.Validate(); err != nil {
		return usageError{fmt.Errorf("sweep gen: %w", err)}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	w, err := gen.GenerateProfiles(params, seed, instance)
	if err != nil {
		return usageError{fmt.Errorf("sweep gen: %w", err)}
	}
	if err := writeFile(out, w.Encode); err != nil {
		return fmt.Errorf("sweep gen: %w", err)
	}
	jobs := 0
	for _, c := range w.Campaigns {
		jobs += len(c.Jobs)
	}
	fmt.Fprintf(stdout, "%d users, %d campaigns, %d jobs\n", len(w.Users), len(w.Campaigns), jobs)
	return nil
}

// platformCores returns a platform's total core count.
func platformCores(spec string) (int, error) {
	p, err := platform.Parse(spec)
	if err != nil {
		return 0, err
	}
	return p.TotalCores(), nil
}

func writeWorkload(path string, w *workload.Workload) error {
	return writeFile(path, w.Encode)
}

// writeFile writes path through encode, buffered.
func writeFile(path string, encode func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing workload: %w", err)
	}
	bw := bufio.NewWriter(f)
	err = encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing workload %s: %w", path, err)
	}
	return nil
}

// summarize describes a generated workload in one line. Its critical path
// is the longest path by execution time only (no network delays), which
// relies on gen listing predecessors before their successors.
func summarize(w *workload.Workload) string {
	var tasks, edges int
	var exec, volume int64
	cpMin, cpMax := int64(-1), int64(0)
	for ji := range w.Jobs {
		j := &w.Jobs[ji]
		finish := make(map[string]int64, len(j.Tasks))
		var cp int64
		for ti := range j.Tasks {
			t := &j.Tasks[ti]
			var start int64
			for _, p := range t.After {
				start = max(start, finish[p])
			}
			finish[t.ID] = start + t.ExecTicks
			cp = max(cp, start+t.ExecTicks)
			exec += t.ExecTicks
			edges += len(t.After)
		}
		tasks += len(j.Tasks)
		volume += j.Volume()
		if cpMin < 0 || cp < cpMin {
			cpMin = cp
		}
		cpMax = max(cpMax, cp)
	}
	return fmt.Sprintf("%d jobs, %d tasks, %d edges, exec %d ticks, volume %d core-ticks, critical path (exec only, no delays) %d..%d ticks",
		len(w.Jobs), tasks, edges, exec, volume, cpMin, cpMax)
}

// genMoldable writes one instance of a moldable-task preset (seed 002) as
// JSON (workload/moldable's format) and prints a one-line summary.
func genMoldable(ctx context.Context, preset string, settings []string, seed uint64, instance int, out string, stdout io.Writer) error {
	p, err := gmoldable.Lookup(preset)
	if err != nil {
		return fmt.Errorf("sweep gen: %w", err)
	}
	params := p.Defaults()
	if err := params.SetAll(settings); err != nil {
		return fmt.Errorf("sweep gen: --set: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	w, err := gmoldable.Generate(params, seed, instance)
	if err != nil {
		return fmt.Errorf("sweep gen: %w", err)
	}
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("sweep gen: writing workload: %w", err)
	}
	err = w.Write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sweep gen: writing workload %s: %w", out, err)
	}
	fmt.Fprintln(stdout, summarizeMoldable(w))
	return nil
}

// summarizeMoldable describes a moldable workload in one line.
func summarizeMoldable(w *mworkload.Workload) string {
	var work, weight float64
	shortest, longest := w.Tasks[0].Time(1), w.Tasks[0].Time(1)
	for _, t := range w.Tasks {
		work += t.Time(1)
		weight += t.Weight
		shortest, longest = min(shortest, t.Time(1)), max(longest, t.Time(1))
	}
	return fmt.Sprintf("%d moldable tasks on %d processors, sequential times %.4g..%.4g s (total %.6g s), total weight %.6g",
		len(w.Tasks), w.Processors, shortest, longest, work, weight)
}
