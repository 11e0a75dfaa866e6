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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
	for _, trace := range r.Traces() {
		months := r.Months(trace)
		fmt.Fprintf(w, "\n%s, Table I (the month's jobs; paper in brackets)\n", trace)
		fmt.Fprintln(tw, "month\tdemand %\tusers\tjobs\ttop user\t")
		for _, month := range months {
			c := r.AnyCell(trace, month)
			if c == nil {
				continue
			}
			p := rigid.PaperFor(trace, month)
			paper := func(v any) string {
				if p == nil {
					return ""
				}
				return fmt.Sprintf(" (%v)", v)
			}
			var pd, pu, pj, pt any
			if p != nil {
				pd, pu, pj, pt = p.DemandPercent, p.Users, p.Jobs, p.TopUser
			}
			fmt.Fprintf(tw, "%s\t%d%s\t%d%s\t%d%s\t%d%s\t\n", month, int(c.DemandPercent), paper(pd), c.Users, paper(pu), c.Jobs, paper(pj), c.TopUser, paper(pt))
		}
		tw.Flush()

		fmt.Fprintf(w, "\n%s, Tables III/IV: dev of the highest-demand user (processor-hours; ours / paper)\n", trace)
		fmt.Fprintln(tw, "month\tuser\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\t")
		for _, month := range months {
			p := rigid.PaperFor(trace, month)
			user := int64(0)
			if c := r.AnyCell(trace, month); c != nil {
				user = c.TopUser
			}
			if p != nil {
				user = p.TopUser // the paper's user, looked up in the users table when it is not ours
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

		fmt.Fprintf(w, "\n%s, Tables VI/VII: total |dev| per month and running sum (ours / paper's running sum); fcfs-easy for reference\n", trace)
		fmt.Fprintln(tw, "month\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\tfcfs-easy T\tfcfs-easy R\t")
		var running [6]float64
		for _, month := range months {
			p := rigid.PaperFor(trace, month)
			fmt.Fprintf(tw, "%s\t", month)
			cols := append(rigid.PaperColumns[:], struct{ Policy, Variant string }{rigid.FCFSEasy, "T"}, struct{ Policy, Variant string }{rigid.FCFSEasy, "R"})
			for k, col := range cols {
				c := r.Cell(trace, month, col.Variant, col.Policy)
				if c == nil {
					fmt.Fprint(tw, "-\t")
					continue
				}
				running[k] += c.TotalAbsDev
				text := fmt.Sprintf("%.0f, %.0f", c.TotalAbsDev, running[k])
				if p != nil && k < 4 {
					text += " / " + number(p.RunningAbsDev[k], 0)
				}
				fmt.Fprintf(tw, "%s\t", text)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()

		fmt.Fprintf(w, "\n%s: waits (hours) and mean bounded slowdown (tau 10 s) of the month's jobs\n", trace)
		fmt.Fprintln(tw, "month\tvariant\tpolicy\tmean wait\tmax wait\tp99 wait\tslowdown\t")
		for _, month := range months {
			for _, c := range r.Cells {
				if c.Trace != trace || c.Month != month || c.Failed {
					continue
				}
				text := []string{number(c.WaitMeanHours, 2), number(c.WaitMaxHours, 1), number(c.WaitP99Hours, 1), number(c.SlowdownTau10, 1)}
				if trace == rigid.PaperTableIX.Trace && month == rigid.PaperTableIX.Month {
					if k := slices.IndexFunc(rigid.PaperColumns[:], func(pc struct{ Policy, Variant string }) bool {
						return pc.Policy == c.Policy && pc.Variant == c.Variant
					}); k >= 0 {
						text[0] += fmt.Sprintf(" (%.1f)", rigid.PaperTableIX.MeanWaitH[k])
						text[1] += fmt.Sprintf(" (%.1f)", rigid.PaperTableIX.MaxWaitH[k])
						text[3] += fmt.Sprintf(" (%.1f)", rigid.PaperTableIX.MeanSlowdown[k])
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", month, c.Variant, c.Policy, strings.Join(text, "\t"))
			}
		}
		tw.Flush()
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
