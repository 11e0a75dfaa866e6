package cli

import (
	"context"
	"io"

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
