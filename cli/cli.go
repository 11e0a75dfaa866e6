// Package cli is sweep's command line as a library: Main runs the `sweep`
// command with a registry of models and the studies bound to them, so
// that a researcher's own program (with policies or models of its own, see
// package model/builtin) is the whole sweep tool:
//
//	func main() {
//		ctx, stop := cli.InterruptContext()
//		defer stop()
//		reg := builtin.Registry(ownModels...)
//		os.Exit(cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, reg, studies.Builtin()...))
//	}
//
// Usage:
//
//	sweep gen       --preset NAME [--instance I] [--seed S] [--set k=v ...] -o FILE
//	sweep simulate  --platform P --workload F --policy NAME [--load L] [--seed S] [--base B] [--schedule] [--gantt out.svg]
//	sweep analyze   DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm]
//	sweep report    DIR [--reference pslr] [--alpha 0.05] [--base TICKS] [--adjust holm]
//	sweep export    DIR CELL [--format swf|batsim-csv|json] [-o FILE]
//	sweep show      DIR CELL [--gantt out.svg] [--gantt-window FROM:TO]
//	sweep plan      M [--out DIR] [--shard i/n] [--replicates K]
//	sweep run       M [-j N] [--out DIR] [--shard i/n] [--replicates K] [--fail-fast] [--retry-failed]
//	sweep slurm     M --shards n [--throttle K] [--cpus C] [--time T] [--partition P] [--binary PATH] [--out DIR] [--retry-failed]
//	sweep status    DIR [--manifest M] [--window 10m]
//	sweep policies
//
// Run `sweep COMMAND -h` for a command's flags.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/report"
)

// A command is one `sweep` subcommand.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// app is what the commands share: the registry of models the program
// was built with and the studies bound to them.
type app struct {
	models  *model.Registry
	studies []report.Binding
}

func (a *app) commands() []command {
	return []command{
		{"gen", "write one workload instance of a generator preset as JSON", a.runGen},
		{"simulate", "simulate one workload under one policy and print its metrics as JSON", a.runSimulate},
		{"analyze", "compare policies in a results directory: t-tests, dominance, box plots, deciles", a.runAnalyze},
		{"report", "write a results directory's analysis as an HTML page with figures", a.runReport},
		{"export", "simulate one cell of a results directory again and write its schedule as SWF, Batsim jobs.csv or JSON", a.runExport},
		{"show", "simulate one cell of a results directory again, check it against its row, draw its Gantt chart", a.runShow},
		{"plan", "validate a manifest and show what a run would do", a.runPlan},
		{"run", "run every cell of a manifest not yet done, streaming Parquet", a.runRun},
		{"slurm", "print an sbatch job-array script that runs a manifest in shards", a.runSlurm},
		{"status", "show how far a results directory has come, per shard, while shards write", a.runStatus},
		{"policies", "list every model with its policies, their docs and parameters", a.runPolicies},
		{"gym", "serve Gymnasium environments of rigid jobs to Python (docs/gym.md)", runGym},
		{"version", "print sweep's version (also --version)", runVersion},
	}
}

// usageError marks bad command-line input or bad input files: exit status 2.
type usageError struct{ err error }

// flagError is a flag the flag package refused; it has printed the error
// and the usage already, so run exits 2 without printing it again.
type flagError struct{ err error }

func (e flagError) Error() string { return e.err.Error() }
func (e flagError) Unwrap() error { return e.err }

// parseFlags parses args with fs, which must be ContinueOnError. Flags may
// come before or after the positional arguments (`sweep run M -j 2`),
// which are left in fs.Args(). A refused flag becomes a flagError; -h
// stays flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return flagError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(positional)
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// InterruptContext returns a context cancelled by the first Ctrl-C or
// SIGTERM, which lets a run save what finished. The first signal also
// restores the default action, so a second one ends the process at once.
func InterruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// Main runs the sweep command line args (without the program name) with
// the models of reg and the studies bound to them, and returns the exit
// status: 0 success, 1 a failure while working, 2 bad input, 130
// interrupted. `sweep analyze` and `sweep report` run the study bound to
// each model of a run (the built-in ones are package studies'), and
// compare the measures of a model without one across policies.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, reg *model.Registry, studies ...report.Binding) int {
	cmds := (&app{models: reg, studies: studies}).commands()
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: sweep COMMAND [flags]\n\ncommands:")
		for _, c := range cmds {
			fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
		}
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout) // asked for: it is the output, not a complaint
		return 0
	case "-version", "--version":
		args = []string{"version"}
	}
	for _, c := range cmds {
		if c.name != args[0] {
			continue
		}
		errs := stderr
		if asksForHelp(args[1:]) {
			// The flag package prints the usage a -h asks for on the
			// flag set's output, which every command sets to stderr.
			errs = stdout
		}
		err := c.run(ctx, args[1:], stdout, errs)
		var ue usageError
		var fe flagError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &fe):
			return 2
		case errors.As(err, &ue):
			fmt.Fprintln(stderr, commandMessage(c.name, err))
			return 2
		}
		fmt.Fprintln(stderr, commandMessage(c.name, err))
		if ctx.Err() != nil {
			return 130 // interrupted, as a shell reports SIGINT
		}
		return 1
	}
	fmt.Fprintf(stderr, "sweep: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// setUsage makes fs's -h print the command's usage line (its arguments,
// which the flag package does not know) and notes before the flags.
func setUsage(fs *flag.FlagSet, usage string, notes ...string) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: "+usage)
		for _, n := range notes {
			fmt.Fprintln(fs.Output(), n)
		}
		fs.PrintDefaults()
	}
}

// commandMessage is err's message prefixed with the command's name, as
// every message of a command begins ("sweep run: ..."), unless it does
// already.
func commandMessage(name string, err error) string {
	msg, prefix := err.Error(), "sweep "+name+":"
	if strings.HasPrefix(msg, prefix) {
		return msg
	}
	return prefix + " " + msg
}

// asksForHelp says whether args hold -h or --help before any "--".
func asksForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// runVersion implements `sweep version`: the version stamped at build
// time (the Makefile's -X github.com/sweep-sched/sweep/cli.version from
// git), else the module version Go recorded, else "dev".
func runVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("sweep version: takes no arguments, got %q", args)}
	}
	fmt.Fprintf(stdout, "sweep %s\n", toolVersion())
	return nil
}
