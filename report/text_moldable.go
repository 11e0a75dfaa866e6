package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/analysis/moldable"
)

// PrintMoldable prints, per workload and criterion, the average ratio of
// every algorithm at every n with the per-instance range, then the
// paper's claims and whether they hold.
func PrintMoldable(w io.Writer, r *moldable.Result) error {
	for _, g := range r.Generators {
		for _, c := range moldable.Criteria {
			fmt.Fprintf(w, "%s: %s ratio (over %s), average (min-max over instances)\n", moldable.ShortWorkload(g), c.Name, c.Bound)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprint(tw, "n\t")
			for _, a := range r.Algorithms {
				fmt.Fprintf(tw, "%s\t", a)
			}
			fmt.Fprintln(tw)
			for _, n := range r.Sizes(g) {
				fmt.Fprintf(tw, "%d\t", n)
				for _, a := range r.Algorithms {
					if p, ok := r.Point(g, n, a); ok {
						s := c.Of(p)
						fmt.Fprintf(tw, "%.3f (%.2f-%.2f)\t", s.Average, s.Min, s.Max)
					} else {
						fmt.Fprint(tw, "-\t")
					}
				}
				fmt.Fprintln(tw)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "Seed 002's claims (Sec. 5):")
	held := 0
	for _, c := range r.Claims {
		mark := "NO  "
		if c.Holds {
			mark = "yes "
			held++
		}
		fmt.Fprintf(w, "  %s[%s] %s\n        %s\n", mark, c.Workload, c.Text, c.Evidence)
	}
	fmt.Fprintf(w, "%d of %d claims hold.\n", held, len(r.Claims))
	if r.Failed > 0 {
		fmt.Fprintf(w, "%d failed cells left out.\n", r.Failed)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "skipped unreadable part file %s\n", p.Error())
	}
	return nil
}
