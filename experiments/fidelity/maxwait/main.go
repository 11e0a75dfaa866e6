// Command maxwait lists the longest waits of one trace month under the fair-share
// policies of seed 003 (docs/fidelity.md#seed-003-table-ix-maximum-wait): which jobs
// make Table IX's maximum wait, with their width, estimate and place in the month.
// The cells of `sweep run` keep no job rows, so this replays the month with the same
// packages (model/rigid/rigidtrace, engine/backfill) and default options.
//
//	go run ./experiments/fidelity/maxwait -trace ../shared/traces/SDSC-BLUE-2000-4.2-cln.swf.gz \
//	    -procs 1152 -month 2000-06 -top 5 [-tw-hours 48 | -tw-fcfs-max] [-budget 10000]
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"log"
	"slices"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

func main() {
	trace := flag.String("trace", "", "SWF log")
	procs := flag.Int("procs", 0, "cluster processors (0: the header's MaxProcs)")
	month := flag.String("month", "", "month, yyyy-mm")
	top := flag.Int("top", 5, "jobs listed per policy and variant")
	twHours := flag.Int64("tw-hours", backfill.DefaultTwSeconds/3600, "Tradeoff-fs Tw in hours")
	fcfsMax := flag.Bool("tw-fcfs-max", false, "Tradeoff-fs Tw = the month's largest wait under fcfs-easy")
	budget := flag.Int("budget", backfill.DefaultBudgetPlacements, "Tradeoff-fs placements per decision point")
	flag.Parse()
	tradeoff := backfill.TradeoffFS()
	tradeoff.Planner.TwSeconds = *twHours * 3600
	tradeoff.Planner.TwFCFSMax = *fcfsMax
	tradeoff.Planner.BudgetPlacements = *budget
	m, err := rigidtrace.ParseMonth(*month)
	if err != nil {
		log.Fatal(err)
	}
	t, err := rigidtrace.Load(*trace, rigidtrace.Options{Procs: *procs})
	if err != nil {
		log.Fatal(err)
	}
	mw, err := t.Month(m)
	if err != nil {
		log.Fatal(err)
	}
	w := &mw.Workload
	policies := []struct {
		name   string
		policy backfill.Policy
	}{{"relshare", backfill.RelShare()}, {"tradeoff-fs", tradeoff}, {"fcfs-easy", backfill.FCFSEasy()}}
	for _, v := range []rigid.Variant{rigid.EstimateExact, rigid.EstimateRequested} {
		for _, p := range policies {
			sched, err := backfill.Simulate(context.Background(), w, v, p.policy)
			if err != nil {
				log.Fatal(err)
			}
			var measured []int
			for i := range w.Jobs {
				if w.Measured(i) {
					measured = append(measured, i)
				}
			}
			wait := func(i int) int64 { return sched.StartSeconds[i] - w.Jobs[i].SubmitSeconds }
			slices.SortFunc(measured, func(a, b int) int { return cmp.Or(cmp.Compare(wait(b), wait(a)), cmp.Compare(a, b)) })
			fmt.Printf("%s %s %s: %d measured jobs\n", m, v, p.name, len(measured))
			for _, i := range measured[:min(*top, len(measured))] {
				j := &w.Jobs[i]
				fmt.Printf("  job %d user %d: wait %.1f h, %d processors, estimate %.1f h, run %.1f h, submitted day %.1f\n",
					j.Number, j.User, float64(wait(i))/3600, j.Procs, float64(j.EstimateSeconds(v))/3600,
					float64(j.RunSeconds)/3600, float64(j.SubmitSeconds-w.MeasureFromSeconds)/86400)
			}
		}
	}
}
