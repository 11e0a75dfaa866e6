package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/analysis/rigid"
)

// number prints a value rounded, or "-" for a missing one.
func number(v float64, decimals int) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

// PrintFairShare writes seed 003's tables with the paper's values beside
// ours, then checks the paper's qualitative claims.
func PrintFairShare(w io.Writer, r *rigid.Result) error {
	failed := printFairShareFailed(w, r)
	for _, trace := range r.Traces() {
		months := r.Months(trace)
		printPaperTableI(w, r, trace, months)
		printPaperTopUserDevs(w, r, trace, months)
		printPaperRunningDevs(w, r, trace, months)
		printMonthWaits(w, r, trace, months)
	}
	fmt.Fprintln(w, "\nThe paper's qualitative claims (design note fairshare.md, section 6):")
	for _, claim := range r.Claims() {
		mark := "holds"
		if !claim.Holds {
			mark = "DOES NOT HOLD"
		}
		fmt.Fprintf(w, "- %s: %s (%s)\n", claim.Text, mark, claim.Evidence)
	}
	if failed > 0 {
		fmt.Fprintf(w, "\n%d failed cells were left out\n", failed)
	}
	return nil
}

// printFairShareFailed lists the failed cells and the unreadable part
// files, and returns the number of failed cells.
func printFairShareFailed(w io.Writer, r *rigid.Result) int {
	failed := 0
	for _, c := range r.Cells {
		if c.Failed {
			failed++
			fmt.Fprintf(w, "failed cell %s %s %s %s: %s\n", c.Trace, c.Month, c.Variant, c.Policy, c.Error)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "unreadable part file left out: %v\n", p)
	}
	return failed
}

// fairShareTable is a table of the seed 003 text: numbers right-aligned.
func fairShareTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// printPaperTableI writes the months' workload measures (Table I), the
// paper's in brackets where it has the month.
func printPaperTableI(w io.Writer, r *rigid.Result, trace string, months []string) {
	fmt.Fprintf(w, "\n%s, Table I (the month's jobs; paper in brackets)\n", trace)
	tw := fairShareTable(w)
	fmt.Fprintln(tw, "month\tdemand %\tusers\tjobs\ttop user\t")
	for _, month := range months {
		c := r.AnyCell(trace, month)
		if c == nil {
			continue
		}
		var paper [4]string
		if p := rigid.PaperFor(trace, month); p != nil {
			for k, v := range []any{p.DemandPercent, p.Users, p.Jobs, p.TopUser} {
				paper[k] = fmt.Sprintf(" (%v)", v)
			}
		}
		fmt.Fprintf(tw, "%s\t%d%s\t%d%s\t%d%s\t%d%s\t\n", month, int(c.DemandPercent), paper[0], c.Users, paper[1], c.Jobs, paper[2], c.TopUser, paper[3])
	}
	tw.Flush()
}

// printPaperTopUserDevs writes the dev of each month's highest-demand
// user (Tables III/IV) under the paper's columns, ours / the paper's. The
// user is the paper's where it has the month, looked up in the users
// table when it is not ours.
func printPaperTopUserDevs(w io.Writer, r *rigid.Result, trace string, months []string) {
	fmt.Fprintf(w, "\n%s, Tables III/IV: dev of the highest-demand user (processor-hours; ours / paper)\n", trace)
	tw := fairShareTable(w)
	fmt.Fprintln(tw, "month\tuser\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\t")
	for _, month := range months {
		p := rigid.PaperFor(trace, month)
		user := int64(0)
		if c := r.AnyCell(trace, month); c != nil {
			user = c.TopUser
		}
		if p != nil {
			user = p.TopUser
		}
		fmt.Fprintf(tw, "%s\t%d\t", month, user)
		for k, col := range rigid.PaperColumns {
			ours := number(r.DevOf(r.Cell(trace, month, col.Variant, col.Policy), user), 0)
			if p != nil {
				ours += " / " + number(p.TopDev[k], 0)
			}
			fmt.Fprintf(tw, "%s\t", ours)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// printPaperRunningDevs writes each month's total |dev| and its running
// sum over the months (Tables VI/VII) under the paper's columns and
// fcfs-easy's, the paper's running sum beside the paper's columns. A
// missing cell adds nothing to its column's sum.
func printPaperRunningDevs(w io.Writer, r *rigid.Result, trace string, months []string) {
	fmt.Fprintf(w, "\n%s, Tables VI/VII: total |dev| per month and running sum (ours / paper's running sum); fcfs-easy for reference\n", trace)
	tw := fairShareTable(w)
	fmt.Fprintln(tw, "month\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\tfcfs-easy T\tfcfs-easy R\t")
	cols := append(rigid.PaperColumns[:], struct{ Policy, Variant string }{rigid.FCFSEasy, "T"}, struct{ Policy, Variant string }{rigid.FCFSEasy, "R"})
	running := make([]float64, len(cols))
	for _, month := range months {
		p := rigid.PaperFor(trace, month)
		fmt.Fprintf(tw, "%s\t", month)
		for k, col := range cols {
			c := r.Cell(trace, month, col.Variant, col.Policy)
			if c == nil {
				fmt.Fprint(tw, "-\t")
				continue
			}
			running[k] += c.TotalAbsDev
			text := fmt.Sprintf("%.0f, %.0f", c.TotalAbsDev, running[k])
			if p != nil && k < len(rigid.PaperColumns) {
				text += " / " + number(p.RunningAbsDev[k], 0)
			}
			fmt.Fprintf(tw, "%s\t", text)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// printMonthWaits writes the waits and slowdown of every successful cell
// of the trace, month by month, with Table IX's values beside the
// paper's columns in its month.
func printMonthWaits(w io.Writer, r *rigid.Result, trace string, months []string) {
	fmt.Fprintf(w, "\n%s: waits (hours) and mean bounded slowdown (tau 10 s) of the month's jobs\n", trace)
	tw := fairShareTable(w)
	fmt.Fprintln(tw, "month\tvariant\tpolicy\tmean wait\tmax wait\tp99 wait\tslowdown\t")
	for _, month := range months {
		for _, c := range r.Cells {
			if c.Trace != trace || c.Month != month || c.Failed {
				continue
			}
			text := []string{number(c.WaitMeanHours, 2), number(c.WaitMaxHours, 1), number(c.WaitP99Hours, 1), number(c.SlowdownTau10, 1)}
			withTableIX(text, c)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", month, c.Variant, c.Policy, strings.Join(text, "\t"))
		}
	}
	tw.Flush()
}

// withTableIX adds Table IX's mean wait, maximum wait and slowdown to the
// texts of a cell in its trace month and columns.
func withTableIX(text []string, c rigid.Cell) {
	ix := rigid.PaperTableIX
	if c.Trace != ix.Trace || c.Month != ix.Month {
		return
	}
	k := slices.IndexFunc(rigid.PaperColumns[:], func(pc struct{ Policy, Variant string }) bool {
		return pc.Policy == c.Policy && pc.Variant == c.Variant
	})
	if k < 0 {
		return
	}
	text[0] += fmt.Sprintf(" (%.1f)", ix.MeanWaitH[k])
	text[1] += fmt.Sprintf(" (%.1f)", ix.MaxWaitH[k])
	text[3] += fmt.Sprintf(" (%.1f)", ix.MeanSlowdown[k])
}
