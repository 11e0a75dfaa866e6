package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
)

// maxListed is the most cell IDs a note lists before summarising the rest.
const maxListed = 10

// Print writes the analysis of a paired run as text: notes on what was
// left out; with the grid model, seed 004's Tables 3 and 4 with the
// paper's values beside ours and the mean worst-case SLR per load (Fig.
// 9); with the campaign model, the figures of merit of each workload
// beside the paper's values.
func Print(w io.Writer, run Paired) error {
	p := &printer{w: w}
	r, expect := run.Comparison, run.Expect
	printNotes(run, p)
	var workloads []string
	if run.Campaign != nil {
		workloads = run.Campaign.Workloads
	}
	if run.Grid != nil {
		for _, table := range grid.PaperTables {
			p.line("")
			printDominance(r, p, table, expect)
		}
		p.line("")
		printMeans(r, p, "Fig. 9: mean worst-case SLR by load (± half-width of the 95% confidence interval)", "slr_max")
	}
	if len(workloads) > 0 {
		p.line("")
		p.line("Figures of merit of campaign workloads (seeds 000, 001): mean over instances")
		p.line("± half-width of the 95%% confidence interval; paper values from the manifest;")
		p.line("ok: ours satisfies the paper's bound, or is within %g%% of its number (shares: or",
			100*analysis.RelativeTolerance)
		p.line("within %g, i.e. %g points); shares are fractions of the campaigns", analysis.ShareTolerance, 100*analysis.ShareTolerance)
	}
	for _, workload := range workloads {
		p.line("")
		printFigures(r, p, run.Campaign, workload)
	}
	printMeasures(r, p, run.Measures, expect)
	printWorkloadMeans(r, p, run.Figures)
	printAchievedLoads(p, run.AchievedLoads)
	printNodes(p, r, run.Nodes)
	return p.err
}

// printer writes lines and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

// listIDs renders ids for a note, at most maxListed of them.
func listIDs(ids []string) string {
	if len(ids) <= maxListed {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxListed], ", "), len(ids)-maxListed)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func printNotes(run Paired, p *printer) {
	r := run.Comparison
	groups := len(r.Pairing.Groups)
	loads := fmt.Sprintf("%d %s", len(r.Loads), plural(len(r.Loads), "load", "loads"))
	if !r.HasLoads() && len(r.Loads) > 0 {
		loads = "closed loop (no load)"
	}
	p.line("reference %s, alpha %v; %d pair %s, %d %s, %s",
		r.Settings.Reference, r.Settings.Alpha, groups, plural(groups, "group", "groups"),
		len(r.Policies), plural(len(r.Policies), "policy", "policies"), loads)
	switch {
	case !r.HasLoads() && len(r.Loads) > 0, r.Rebase == nil:
		// Nothing re-based: closed loop, or no measure taken at a
		// cell's own base.
	case r.Settings.BaseTicks != nil:
		p.line("cumulative completion at the fixed base %d", *r.Settings.BaseTicks)
	default:
		p.line("cumulative completion at each pair group's largest makespan")
	}
	if n := len(r.Pairing.Failed); n > 0 {
		p.line("excluded: %d failed %s (%s)", n, plural(n, "cell", "cells"), listIDs(r.Pairing.Failed))
	}
	if n := len(r.Pairing.Unpaired); n > 0 {
		p.line("unpaired: %d %s without a %s partner, left out of t-tests and dominance (%s)",
			n, plural(n, "cell", "cells"), r.Settings.Reference, listIDs(r.Pairing.Unpaired))
	}
	if n := r.ExcludedPairs(); n > 0 {
		p.line("undefined: %d %s with a missing metric value left out of t-tests and dominance", n, plural(n, "pair", "pairs"))
	}
	for _, problem := range run.problems() {
		p.line("skipped unreadable part file %s", problem.Error())
	}
	if run.Grid == nil {
		return
	}
	switch d := run.Grid.Deciles; {
	case !r.HasLoads() && len(r.Loads) > 0:
		// Deciles of job volume describe DAG runs (seed 004 Fig. 7).
	case d == nil:
		p.line("deciles: no job rows in this run")
	case len(d.CellsWithoutJobs) > 0:
		p.line("deciles: %d %s without job rows (%s)", len(d.CellsWithoutJobs), plural(len(d.CellsWithoutJobs), "cell", "cells"), listIDs(d.CellsWithoutJobs))
	}
	if d := run.Grid.Deciles; d != nil && d.StrayJobRows > 0 && r.HasLoads() {
		p.line("deciles: %d job %s of failed or unknown cells left out", d.StrayJobRows, plural(d.StrayJobRows, "row", "rows"))
	}
}

// printWidth is the width the printed notes wrap at.
const printWidth = 100

// wrapped writes head and then items separated by commas, in lines of at
// most printWidth columns broken between items, continuation lines
// indented.
func (p *printer) wrapped(head string, items []string) {
	line := head
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		if len([]rune(line))+1+len([]rune(item)) > printWidth {
			p.line("%s", line)
			line = " "
		}
		line += " " + item
	}
	p.line("%s", line)
}

// lines writes the lines of a tabwriter's output without trailing blanks.
func (p *printer) lines(text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		p.line("%s", strings.TrimRight(line, " "))
	}
}
