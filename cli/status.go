package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sweep-sched/sweep/sweep"
)

// runStatus implements `sweep status DIR`.
func (a *app) runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return a.statusCommand(args, stdout, stderr, time.Now)
}

func (a *app) statusCommand(args []string, stdout, stderr io.Writer, now func() time.Time) error {
	fs := flag.NewFlagSet("sweep status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sweep status DIR [--manifest M] [--window 10m]", "DIR is a results directory of `sweep run`, e.g. results/burkimsher2013.")
	manifest := fs.String("manifest", "", "the manifest, for the cells not yet done (default DIR/manifest.yaml, the copy every run leaves)")
	window := fs.Duration("window", sweep.DefaultStatusWindow, "how far back the rate for the ETA looks")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{fmt.Errorf("sweep status: want exactly one results directory, e.g. results/burkimsher2013 (got %d arguments)", fs.NArg())}
	}
	if *window <= 0 {
		return usageError{fmt.Errorf("sweep status: --window %s: want a positive duration such as 10m", *window)}
	}
	dir := fs.Arg(0)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return usageError{fmt.Errorf("sweep status: %s is not a results directory", dir)}
	}
	path := *manifest
	if path == "" {
		path = filepath.Join(dir, "manifest.yaml")
	}
	m, err := a.loadManifest(path)
	switch {
	case err == nil:
	case *manifest != "":
		return usageError{err}
	case errors.Is(err, iofs.ErrNotExist):
		fmt.Fprintf(stderr, "warning: no %s yet: cells remaining unknown\n", path)
	default:
		// The copy's relative trace paths may not resolve from DIR.
		fmt.Fprintf(stderr, "warning: %v: cells remaining unknown (give --manifest M)\n", err)
	}
	at := now()
	st, err := sweep.ReadStatus(dir, m, at, *window)
	if err != nil {
		return err
	}
	st.Write(stdout, at)
	return nil
}
