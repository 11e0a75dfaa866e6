package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/sweep-sched/sweep/model"
)

// runPolicies implements `sweep policies`: every model with its policies,
// their one-line docs and parameters.
func (a *app) runPolicies(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep policies", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("sweep policies: unexpected arguments %q", fs.Args())}
	}
	for i, md := range a.models.Models() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s (version %s): %s\n", md.Name(), md.Version(), md.Doc())
		if gens := md.Generators(); len(gens) > 0 {
			fmt.Fprintf(stdout, "  generators: %s\n", strings.Join(gens, ", "))
		}
		if doc, ok := md.(model.PresetDocumenter); ok {
			for _, g := range md.Generators() {
				if params := doc.PresetParams(g); len(params) > 0 {
					fmt.Fprintf(stdout, "  %s takes (set: key: value):\n", g)
					for _, q := range params {
						fmt.Fprintf(stdout, "    %-22s %s (default %s)\n", q.Name, q.Doc, q.Default)
					}
				}
			}
		}
		if keys := model.SectionKeys(md); len(keys) > 0 {
			fmt.Fprintf(stdout, "  settings:   the manifest's %s section", keys[0])
			if len(keys) > 1 {
				fmt.Fprintf(stdout, " (%s accepted as an alias)", strings.Join(keys[1:], ", "))
			}
			fmt.Fprintln(stdout)
		}
		for _, p := range md.Policies() {
			fmt.Fprintf(stdout, "  %-12s %s\n", p.Name, p.Doc)
			for _, q := range p.Params {
				fmt.Fprintf(stdout, "  %-12s   %s: %s (default %s)\n", "", q.Name, q.Doc, q.Default)
			}
		}
	}
	return nil
}
