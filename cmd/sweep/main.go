// Command sweep runs scheduling experiments: it generates workloads,
// simulates scheduling policies on them, sweeps manifests of thousands of
// cells into Parquet, and computes the papers' statistics. It is package
// cli with the built-in models; `sweep -h` lists the commands.
package main

import (
	"os"

	"github.com/sweep-sched/sweep/cli"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/studies"
)

func main() {
	ctx, stop := cli.InterruptContext()
	defer stop()
	os.Exit(cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, builtin.Registry(), studies.Builtin()...))
}
