package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload"

	"github.com/sweep-sched/sweep/gen"
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
	preset := fs.String("preset", "", "workload preset: "+strings.Join(gen.Presets(), ", "))
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sweep gen: unexpected arguments %q; parameters go in --set key=value", fs.Args())
	}
	if *preset == "" {
		return fmt.Errorf("sweep gen: --preset is required; valid presets: %s", strings.Join(gen.Presets(), ", "))
	}
	if *out == "" {
		return errors.New("sweep gen: -o FILE is required")
	}
	if (*load == "") != (*platform == "") {
		return errors.New("sweep gen: --load and --platform go together: arrivals need both the load ratio and the platform's cores")
	}
	p, err := gen.Lookup(*preset)
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

// platformCores returns a platform's total core count.
func platformCores(spec string) (int, error) {
	p, err := platform.Parse(spec)
	if err != nil {
		return 0, err
	}
	return p.TotalCores(), nil
}

func writeWorkload(path string, w *workload.Workload) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing workload: %w", err)
	}
	bw := bufio.NewWriter(f)
	err = w.Encode(bw)
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
