package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sweep-sched/sweep/gym"
)

// runGym is `sweep gym`: cmd/sweep-gym's server (package gym), for a
// Python side that finds only the sweep binary.
func runGym(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gym", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sweep gym   (a JSON setup line on standard input, then binary frames: docs/gym.md; started by sweep_policy.gym)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("sweep gym: takes no arguments, got %q", fs.Args())}
	}
	return gym.Serve(ctx, os.Stdin, stdout)
}
