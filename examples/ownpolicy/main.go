// Command ownsweep is the sweep tool with two policies of this module:
// sjf-easy for rigid jobs and small-first for DAG jobs. Nothing in the
// sweep repository is forked: this program registers the policies and
// calls its command line.
//
//	go build -o ownsweep . && ./ownsweep run manifest.yaml
package main

import (
	"os"

	"github.com/sweep-sched/sweep/cli"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/studies"
)

func main() {
	ctx, stop := cli.InterruptContext()
	defer stop()
	reg := builtin.Registry(
		rigid.Model{Own: []rigid.Policy{sjfEasy}},
		grid.Model{Own: []grid.Order{smallFirst}},
	)
	os.Exit(cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, reg, studies.Builtin()...))
}
