// Command kthbench simulates the whole KTH-SP2 trace (every job, no month window)
// under the built-in fcfs-easy or a pipe-protocol policy, or dumps the
// jobs as SWF for AccaSim (run.sh times them back to back). The trace is
// $KTH.
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/policy/pipe"
	"github.com/sweep-sched/sweep/workload/rigid"
)

func main() {
	tr, err := rigidtrace.Load(os.Getenv("KTH"), rigidtrace.Options{})
	if err != nil {
		panic(err)
	}
	w := &rigid.Workload{Name: "KTH-SP2 whole", Procs: tr.Procs, Jobs: tr.Jobs}
	v := rigid.EstimateRequested
	var p backfill.Policy
	switch os.Args[1] {
	case "dump":
		out := bufio.NewWriter(os.Stdout)
		fmt.Fprintf(out, "; MaxProcs: %d\n; MaxNodes: %d\n", w.Procs, w.Procs)
		for i, j := range w.Jobs {
			// SWF fields: id submit wait run procs cpu mem reqprocs reqtime reqmem status user group exe queue partition prec think
			fmt.Fprintf(out, "%d %d -1 %d %d -1 -1 %d %d -1 1 %d -1 -1 -1 -1 -1 -1\n", i+1, j.SubmitSeconds, j.RunSeconds, j.Procs, j.Procs, j.RequestedSeconds, j.User)
		}
		out.Flush()
		return
	case "builtin":
		p = backfill.FCFSEasy()
	default:
		r, err := pipe.StartRigid(context.Background(), pipe.Options{Command: os.Args[1:], Name: "easy"}, w.Procs, len(w.Jobs), v.String(), w.Name)
		if err != nil {
			panic(err)
		}
		defer r.Close()
		p = backfill.Policy{Decider: r}
	}
	s, err := backfill.Simulate(context.Background(), w, v, p)
	if err != nil {
		panic(err)
	}
	var sum int64
	for i, st := range s.StartSeconds {
		sum += st - w.Jobs[i].SubmitSeconds
	}
	fmt.Printf("%d jobs, %d instants, %d decisions, mean wait %.1f s\n", len(w.Jobs), s.Stats.Events, s.Stats.Passes, float64(sum)/float64(len(w.Jobs)))
}
