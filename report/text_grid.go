package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/stats"
)

func printDominance(r *analysis.Result, p *printer, table grid.PaperTable, expect analysis.Expectations) {
	policies, cells := grid.DominanceGrid(r, table.Metric, expect)
	p.line("%s (%s): %% of pairs where %s is at least as good", table.Title, table.Metric, r.Settings.Reference)
	p.line("ours with its Wilson 95%% interval; paper = when its value lies inside that interval")
	p.line("(agrees), x outside; diff = ours - paper; %s not significant (paired t-test, %s >= %v;",
		nsMark, pName(r), r.Settings.Alpha)
	p.line("paper: per its text)")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := leftAligned(append([]string{"load", "pairs"}, policies...))
	rowNames := leftAligned([]string{"ours", "95% CI", "paper", "diff"})
	header := labels[0] + "\t\t"
	pairs := labels[1] + "\t\t"
	for j, load := range r.Loads {
		header += FormatLoad(load) + " \t"
		pairs += pairCounts(cells, j) + " \t"
	}
	fmt.Fprintln(tw, header)
	fmt.Fprintln(tw, pairs)
	var agree, sameSignificance, withPaper int
	for i := range policies {
		ours, interval := labels[2+i]+"\t"+rowNames[0]+"\t", "\t"+rowNames[1]+"\t"
		paper, diff := "\t"+rowNames[2]+"\t", "\t"+rowNames[3]+"\t"
		for _, cell := range cells[i] {
			ours += markedPercent(cell.Ours) + "\t"
			interval += formatDominanceInterval(cell.Ours) + " \t"
			if !cell.HasPaper {
				paper += "- \t"
				diff += "- \t"
				continue
			}
			withPaper++
			mark := " "
			if !cell.PaperSignificant {
				mark = nsMark
			}
			if cell.Ours == nil {
				paper += FormatPercent(cell.Paper) + mark + " \t"
				diff += "- \t"
				continue
			}
			agreement := "x"
			if cell.Agrees() {
				agreement = "="
				agree++
			}
			paper += FormatPercent(cell.Paper) + mark + agreement + "\t"
			diff += fmt.Sprintf("%+.1f \t", cell.Ours.Percent-cell.Paper)
			if cell.SameSignificance() {
				sameSignificance++
			}
		}
		fmt.Fprintln(tw, ours)
		fmt.Fprintln(tw, interval)
		fmt.Fprintln(tw, paper)
		fmt.Fprintln(tw, diff)
	}
	tw.Flush()
	p.lines(b.String())
	if withPaper == 0 {
		p.line("no paper values for %s in the manifest's expect section", table.Metric)
	} else {
		p.line("paper inside our 95%% interval: %d of %d cells; significance as in the paper: %d of %d",
			agree, withPaper, sameSignificance, withPaper)
	}
	p.line("")
	printRankTests(r, p, table, policies)
	if len(r.Replicates) > 1 {
		p.line("")
		printSpread(r, p, table, expect)
	}
}

// loadHeader is the header line of a table with a column per load: label,
// an empty row-name column, then the loads.
func loadHeader(r *analysis.Result, label string) string {
	header := label + "\t\t"
	for _, load := range r.Loads {
		header += FormatLoad(load) + " \t"
	}
	return header
}

// pName names the p-value significance is read from.
func pName(r *analysis.Result) string {
	if r.Settings.Adjust == analysis.AdjustHolm {
		return "Holm-adjusted p"
	}
	return "p"
}

// printRankTests prints, for the comparisons of a paper table, the p-values
// of both tests and the effect size, and lists where the tests disagree.
func printRankTests(r *analysis.Result, p *printer, table grid.PaperTable, policies []string) {
	title, _, _ := strings.Cut(table.Title, ":")
	p.line("%s, tests (%s): t = paired t-test %s (the paper's), W = Wilcoxon signed-rank %s,", title, table.Metric, pName(r), pName(r))
	p.line("%s where W and t disagree at %v; ratio = median over pairs of %s/policy, with its", disagreeMark, r.Settings.Alpha, r.Settings.Reference)
	p.line("percentile bootstrap 95%% interval (%d resamples)", stats.BootstrapResamples)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := leftAligned(append([]string{"load"}, policies...))
	rowNames := leftAligned([]string{"t", "W", "ratio", "95% CI"})
	fmt.Fprintln(tw, loadHeader(r, labels[0]))
	var disagree []string
	compared := 0
	for i, policy := range policies {
		tRow, wRow := labels[1+i]+"\t"+rowNames[0]+"\t", "\t"+rowNames[1]+"\t"
		ratio, interval := "\t"+rowNames[2]+"\t", "\t"+rowNames[3]+"\t"
		for _, load := range r.Loads {
			w, ok := r.FindRankTest(table.Metric, policy, load)
			if !ok {
				tRow, wRow, ratio, interval = tRow+"- \t", wRow+"- \t", ratio+"- \t", interval+"- \t"
				continue
			}
			compared++
			t, _ := r.FindTTest(table.Metric, policy, load)
			mark := " "
			if w.DisagreesWithTTest() {
				mark = disagreeMark
				disagree = append(disagree, policy+" at "+FormatLoad(load))
			}
			tRow += FormatP(t.EffectiveP()) + " \t"
			wRow += FormatP(w.EffectiveP()) + mark + "\t"
			if !w.HasEffect {
				ratio, interval = ratio+"- \t", interval+"- \t"
				continue
			}
			ratio += FormatRatio(w.Effect.Estimate) + " \t"
			interval += FormatRatio(w.Effect.Low) + "-" + FormatRatio(w.Effect.High) + " \t"
		}
		fmt.Fprintln(tw, tRow)
		fmt.Fprintln(tw, wRow)
		fmt.Fprintln(tw, ratio)
		fmt.Fprintln(tw, interval)
	}
	tw.Flush()
	p.lines(b.String())
	if len(disagree) == 0 {
		p.line("t and W agree on significance in every cell (%d)", compared)
		return
	}
	p.wrapped(fmt.Sprintf("t and W disagree on %d of %d %s:", len(disagree), compared, plural(compared, "cell", "cells")), disagree)
}

// pairCounts renders the numbers of pairs of load column j: one number
// when every policy has the same, else the range.
func pairCounts(cells [][]grid.DominanceCell, j int) string {
	lo, hi := math.MaxInt, 0
	for _, row := range cells {
		if c := row[j]; c.Ours != nil {
			lo, hi = min(lo, c.Ours.N), max(hi, c.Ours.N)
		}
	}
	switch {
	case hi == 0:
		return "0 "
	case lo == hi:
		return strconv.Itoa(lo) + " "
	}
	return fmt.Sprintf("%d-%d ", lo, hi)
}

// printMeans prints the mean of metric per policy and load.
func printMeans(r *analysis.Result, p *printer, title, metric string) {
	printMeansOf(r, p, title, func(policy string, load float64) (stats.MeanInterval, bool) {
		row, ok := r.FindByLoad(metric, policy, load)
		return row.MeanInterval, ok
	})
}

// printMeansOf prints the means that mean returns for each policy and
// load of r, as printMeans does ByLoad's.
func printMeansOf(r *analysis.Result, p *printer, title string, mean func(policy string, load float64) (stats.MeanInterval, bool)) {
	p.line("%s", title)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := leftAligned(append([]string{"policy"}, r.Policies...))
	header := labels[0] + "\t"
	for _, load := range r.Loads {
		header += FormatLoad(load) + "\t"
	}
	fmt.Fprintln(tw, header)
	for i, policy := range r.Policies {
		line := labels[1+i] + "\t"
		for _, load := range r.Loads {
			if row, ok := mean(policy, load); ok {
				line += FormatMean(row.Mean, (row.High-row.Low)/2) + "\t"
			} else {
				line += "-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	p.lines(b.String())
}

// printSpread prints a paper table's cells across replicates: each
// replicate's percentage, their range and the t interval of their mean,
// and which of them hold the paper's value.
func printSpread(r *analysis.Result, p *printer, table grid.PaperTable, expect analysis.Expectations) {
	title, _, _ := strings.Cut(table.Title, ":")
	p.line("%s across %d replicates (%s): %% in each replicate, their range and the t 95%% interval", title, len(r.Replicates), table.Metric)
	p.line("of their mean; after the paper's value: r inside the range, i inside the interval")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	policies := slices.DeleteFunc(slices.Clone(r.Policies), func(p string) bool { return p == r.Settings.Reference })
	labels := leftAligned(append([]string{"load"}, policies...))
	rowNames := leftAligned([]string{"reps", "range", "95% CI", "paper"})
	fmt.Fprintln(tw, loadHeader(r, labels[0]))
	var withPaper, inRange, inInterval int
	for i, policy := range policies {
		reps, spans := labels[1+i]+"\t"+rowNames[0]+"\t", "\t"+rowNames[1]+"\t"
		intervals, paper := "\t"+rowNames[2]+"\t", "\t"+rowNames[3]+"\t"
		for _, load := range r.Loads {
			s, ok := r.FindSpread(table.Metric, policy, load)
			value, hasPaper := expect.PaperPercent(table.Metric, policy, load)
			if !ok {
				reps, spans, intervals, paper = reps+"- \t", spans+"- \t", intervals+"- \t", paper+"- \t"
				continue
			}
			values := make([]string, len(s.Percents))
			for k, v := range s.Percents {
				values[k] = strconv.FormatFloat(math.Round(10*v)/10, 'f', -1, 64)
			}
			reps += strings.Join(values, "/") + " \t"
			spans += fmt.Sprintf("%.1f-%.1f \t", s.Min, s.Max)
			if math.IsNaN(s.Low) {
				intervals += "- \t"
			} else {
				intervals += fmt.Sprintf("%.1f-%.1f \t", s.Low, s.High)
			}
			if !hasPaper {
				paper += "- \t"
				continue
			}
			withPaper++
			marks := ""
			rangeHolds, intervalHolds := s.Contains(value)
			if rangeHolds {
				marks += "r"
				inRange++
			}
			if intervalHolds {
				marks += "i"
				inInterval++
			}
			paper += FormatPercent(value) + " " + fmt.Sprintf("%-2s", marks) + "\t"
		}
		fmt.Fprintln(tw, reps)
		fmt.Fprintln(tw, spans)
		fmt.Fprintln(tw, intervals)
		fmt.Fprintln(tw, paper)
	}
	tw.Flush()
	p.lines(b.String())
	if withPaper > 0 {
		p.line("paper inside the replicates' range: %d of %d cells; inside the t interval of their mean: %d of %d",
			inRange, withPaper, inInterval, withPaper)
	}
}
