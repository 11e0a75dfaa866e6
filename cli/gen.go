package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
)

// settingsFlag collects repeated --set key=value flags in order.
type settingsFlag []string

func (s *settingsFlag) String() string { return strings.Join(*s, " ") }

func (s *settingsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// runGen implements `sweep gen`: it writes one workload instance of a
// preset in its model's format (JSON, or SWF where the model writes one) and prints a
// one-line summary.
func (a *app) runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "workload preset: "+strings.Join(a.presets(), ", "))
	instance := fs.Int("instance", 0, "instance number (>= 0); each gives a different workload")
	seed := fs.Uint64("seed", 1, "root seed")
	var settings settingsFlag
	fs.Var(&settings, "set", "override a preset parameter, key=value (repeatable; ranges like 1-10 are inclusive)")
	load := fs.String("load", "", "load ratio, e.g. 0.8 or 1.2: sets arrivals (needs --platform)")
	platformSpec := fs.String("platform", "", "platform for --load, and the machine of a generator sized by it: "+strings.Join(platform.Presets(), ", ")+" or a platform file")
	out := fs.String("o", "", "output workload file (in the preset's model's format: JSON, or SWF for trace-like workloads)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sweep gen --preset NAME [--instance I] [--seed S] [--set key=value ...] [--load L] [--platform P] -o FILE")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("sweep gen: unexpected arguments %q; parameters go in --set key=value", fs.Args())}
	}
	if *preset == "" {
		return usageError{fmt.Errorf("sweep gen: --preset is required; valid presets: %s", strings.Join(a.presets(), ", "))}
	}
	if *out == "" {
		return usageError{errors.New("sweep gen: -o FILE is required")}
	}
	if *load != "" && *platformSpec == "" {
		return usageError{errors.New("sweep gen: --load needs --platform: arrivals need both the load ratio and the platform's cores")}
	}
	models := a.models
	md, err := models.ModelOf(&model.WorkloadSpec{Generator: *preset})
	g, ok := md.(model.Generator)
	if err != nil || !ok {
		return usageError{fmt.Errorf("sweep gen: unknown preset %q; valid presets: %s", *preset, strings.Join(a.presets(), ", "))}
	}
	var arrivals model.Arrivals
	if *platformSpec != "" {
		p, err := platform.Parse(*platformSpec)
		if err != nil {
			return usageError{fmt.Errorf("sweep gen: --platform: %w", err)}
		}
		arrivals.Cores = p.TotalCores()
	}
	if *load != "" {
		ratio, err := strconv.ParseFloat(*load, 64)
		if err != nil || !(ratio > 0) {
			return usageError{fmt.Errorf("sweep gen: --load %q: want a positive number like 0.8 or 1.2", *load)}
		}
		arrivals.Load = ratio
	}
	var summary string
	err = writeFile(*out, func(w io.Writer) error {
		var err error
		summary, err = g.Generate(ctx, *preset, settings, *seed, *instance, arrivals, w)
		return err
	})
	var bad model.InputError
	switch {
	case errors.As(err, &bad):
		return usageError{fmt.Errorf("sweep gen: %w", err)}
	case err != nil:
		return fmt.Errorf("sweep gen: %w", err)
	}
	fmt.Fprintln(stdout, summary)
	return nil
}

// presets lists every generator preset of every model that writes
// workload files.
func (a *app) presets() []string {
	var out []string
	for _, md := range a.models.Models() {
		if _, ok := md.(model.Generator); ok {
			out = append(out, md.Generators()...)
		}
	}
	return out
}

// writeFile writes path through encode; the file is removed when encode
// fails, so no half-written workload is left behind.
func writeFile(path string, encode func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing workload: %w", err)
	}
	err = encode(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
