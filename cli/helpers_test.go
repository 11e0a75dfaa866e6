package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/studies"
)

// testApp is the command line of the built-in models, as cmd/sweep builds
// it.
func testApp() *app { return &app{models: builtin.Registry(), studies: studies.Builtin()} }

// run runs the command line of the built-in models.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return Main(ctx, args, stdout, stderr, builtin.Registry(), studies.Builtin()...)
}

// checkRefusedByPlanAndRun checks that sweep plan and sweep run both
// refuse the manifest text as bad input: exit 2, a message containing
// want, and no results directory written. name names the case.
func checkRefusedByPlanAndRun(t *testing.T, name, manifest, want string) {
	t.Helper()
	for _, command := range []string{"plan", "run"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "m.yaml")
		if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "results")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{command, path, "--out", out}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: sweep %s: exit %d, %q; want exit 2 and a message containing %q", name, command, code, stderr.String(), want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: sweep %s wrote %s (%v)", name, command, out, err)
		}
	}
}
