package analysis

import (
	"fmt"
	"github.com/sweep-sched/sweep/stats"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// PaperTable is one of seed 004's dominance tables.
type PaperTable struct {
	Title  string
	Metric string
}

// PaperTables are seed 004's Tables 3 and 4.
var PaperTables = []PaperTable{
	{Title: "Table 3: dominance over worst-case SLR", Metric: "slr_max"},
	{Title: "Table 4: dominance over mean SLR", Metric: "slr_mean"},
}

// maxListed is the most cell IDs a note lists before summarising the rest.
const maxListed = 10

// Print writes the analysis as text: notes on what was left out; for DAG
// cells, seed 004's Tables 3 and 4 with the paper's values beside ours and
// the mean worst-case SLR per load (Fig. 9); for campaign cells, the
// figures of merit of each workload beside the paper's values.
func Print(w io.Writer, r *Result, expect Expectations) error {
	p := &printer{w: w}
	r.printNotes(p)
	workloads := r.CampaignWorkloads()
	if r.HasLoads() || len(workloads) == 0 {
		for _, table := range PaperTables {
			p.line("")
			r.printDominance(p, table, expect)
		}
		p.line("")
		r.printMeans(p, "Fig. 9: mean worst-case SLR by load (± half-width of the 95% confidence interval)", "slr_max")
	}
	if len(workloads) > 0 {
		p.line("")
		p.line("Figures of merit of campaign workloads (seeds 000, 001): mean over instances")
		p.line("± half-width of the 95%% confidence interval; paper values from the manifest;")
		p.line("ok: ours satisfies the paper's bound, or is within %g%% of its number (shares: or",
			100*RelativeTolerance)
		p.line("within %g, i.e. %g points); shares are fractions of the campaigns", ShareTolerance, 100*ShareTolerance)
	}
	for _, workload := range workloads {
		p.line("")
		r.printFigures(p, workload, expect)
	}
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

func (r *Result) printNotes(p *printer) {
	groups := len(r.Pairing.Groups)
	loads := fmt.Sprintf("%d %s", len(r.Loads), plural(len(r.Loads), "load", "loads"))
	if !r.HasLoads() && len(r.Loads) > 0 {
		loads = "closed loop (no load)"
	}
	p.line("reference %s, alpha %v; %d pair %s, %d %s, %s",
		r.Settings.Reference, r.Settings.Alpha, groups, plural(groups, "group", "groups"),
		len(r.Policies), plural(len(r.Policies), "policy", "policies"), loads)
	switch {
	case !r.HasLoads() && len(r.Loads) > 0:
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
	for _, problem := range r.Problems {
		p.line("skipped unreadable part file %s", problem.Error())
	}
	switch d := r.Deciles; {
	case !r.HasLoads() && len(r.Loads) > 0:
		// Deciles of job volume describe DAG runs (seed 004 Fig. 7).
	case d == nil:
		p.line("deciles: no job rows in this run")
	case len(d.CellsWithoutJobs) > 0:
		p.line("deciles: %d %s without job rows (%s)", len(d.CellsWithoutJobs), plural(len(d.CellsWithoutJobs), "cell", "cells"), listIDs(d.CellsWithoutJobs))
	}
	if d := r.Deciles; d != nil && d.StrayJobRows > 0 && r.HasLoads() {
		p.line("deciles: %d job %s of failed or unknown cells left out", d.StrayJobRows, plural(d.StrayJobRows, "row", "rows"))
	}
}

// DominanceCell is one cell of a dominance table, ours beside the paper's.
type DominanceCell struct {
	Load  float64
	Ours  *DominanceRow // nil when no pair was compared
	Paper float64
	// HasPaper says whether the manifest gives the paper's value;
	// PaperSignificant is meaningful only then.
	HasPaper         bool
	PaperSignificant bool
}

// Agrees reports whether the paper's value lies inside the Wilson 95%
// interval of ours (bounds included): a difference that sampling alone
// could produce. A fixed tolerance would be too lax at 99%, where the
// interval is a few points wide, and too strict near 50%, where it is
// about 16 points wide over 150 pairs.
func (c DominanceCell) Agrees() bool {
	return c.Ours != nil && c.HasPaper && c.Ours.Low <= c.Paper && c.Paper <= c.Ours.High
}

// SameSignificance reports whether ours and the paper agree on significance.
func (c DominanceCell) SameSignificance() bool {
	return c.Ours != nil && c.HasPaper && c.Ours.Significant == c.PaperSignificant
}

// DominanceGrid returns the cells of a paper table, by policy (every
// policy except the reference, in Result.Policies order) and load.
func (r *Result) DominanceGrid(metric string, expect Expectations) (policies []string, grid [][]DominanceCell) {
	for _, policy := range r.Policies {
		if policy == r.Settings.Reference {
			continue
		}
		policies = append(policies, policy)
		row := make([]DominanceCell, len(r.Loads))
		for j, load := range r.Loads {
			cell := DominanceCell{Load: load}
			if ours, ok := r.FindDominance(metric, policy, load); ok {
				cell.Ours = &ours
			}
			cell.Paper, cell.HasPaper = expect.PaperPercent(metric, policy, load)
			cell.PaperSignificant, _ = expect.PaperSignificant(metric, policy, load)
			row[j] = cell
		}
		grid = append(grid, row)
	}
	return policies, grid
}

// FormatLoad renders a load ratio with at least one decimal (0.8, 1.0),
// and the load 0 of cells without one (closed loop) as "-".
func FormatLoad(load float64) string {
	if load == 0 {
		return "-"
	}
	if load == math.Trunc(load) {
		return strconv.FormatFloat(load, 'f', 1, 64)
	}
	return strconv.FormatFloat(load, 'f', -1, 64)
}

// leftAligned pads names to one width, so that a right-aligning tabwriter
// leaves them left-aligned.
func leftAligned(names []string) []string {
	width := 0
	for _, name := range names {
		width = max(width, len(name))
	}
	padded := make([]string, len(names))
	for i, name := range names {
		padded[i] = name + strings.Repeat(" ", width-len(name))
	}
	return padded
}

// FormatPercent renders a percentage with one decimal, or the paper's
// integers without.
func FormatPercent(percent float64) string { return strconv.FormatFloat(percent, 'f', -1, 64) }

// nsMark is appended to a value whose difference is not significant.
const nsMark = "~"

func (r *Result) printDominance(p *printer, table PaperTable, expect Expectations) {
	policies, grid := r.DominanceGrid(table.Metric, expect)
	p.line("%s (%s): %% of pairs where %s is at least as good", table.Title, table.Metric, r.Settings.Reference)
	p.line("ours with its Wilson 95%% interval; paper = when its value lies inside that interval")
	p.line("(agrees), x outside; diff = ours - paper; %s not significant (paired t-test, %s >= %v;",
		nsMark, r.pName(), r.Settings.Alpha)
	p.line("paper: per its text)")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := leftAligned(append([]string{"load", "pairs"}, policies...))
	rowNames := leftAligned([]string{"ours", "95% CI", "paper", "diff"})
	header := labels[0] + "\t\t"
	pairs := labels[1] + "\t\t"
	for j, load := range r.Loads {
		header += FormatLoad(load) + " \t"
		pairs += pairCounts(grid, j) + " \t"
	}
	fmt.Fprintln(tw, header)
	fmt.Fprintln(tw, pairs)
	var agree, sameSignificance, withPaper int
	for i := range policies {
		ours, interval := labels[2+i]+"\t"+rowNames[0]+"\t", "\t"+rowNames[1]+"\t"
		paper, diff := "\t"+rowNames[2]+"\t", "\t"+rowNames[3]+"\t"
		for _, cell := range grid[i] {
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
	r.printRankTests(p, table, policies)
	if len(r.Replicates) > 1 {
		p.line("")
		r.printSpread(p, table, expect)
	}
}

// pName names the p-value significance is read from.
// loadHeader is the header line of a table with a column per load: label,
// an empty row-name column, then the loads.
func (r *Result) loadHeader(label string) string {
	header := label + "\t\t"
	for _, load := range r.Loads {
		header += FormatLoad(load) + " \t"
	}
	return header
}

func (r *Result) pName() string {
	if r.Settings.Adjust == AdjustHolm {
		return "Holm-adjusted p"
	}
	return "p"
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

// formatDominanceInterval renders a dominance interval as "low-high" with one
// decimal, or "-" without a row.
func formatDominanceInterval(row *DominanceRow) string {
	if row == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f-%.1f", row.Low, row.High)
}

// FormatP renders a p-value with two significant digits, "-" when
// undefined.
func FormatP(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// FormatRatio renders exp(log ratio): with two significant digits, or
// three decimals within 10% of 1, where two digits would print 1 for
// ratios that still differ (0.997).
func FormatRatio(logRatio float64) string {
	ratio := math.Exp(logRatio)
	switch {
	case math.IsNaN(ratio):
		return "-"
	case ratio > 0.9 && ratio < 1.1:
		return strconv.FormatFloat(ratio, 'f', 3, 64)
	}
	return strconv.FormatFloat(ratio, 'g', 2, 64)
}

// disagreeMark is appended to a rank-test p-value whose conclusion
// differs from the t-test's.
const disagreeMark = "!"

// printRankTests prints, for the comparisons of a paper table, the p-values
// of both tests and the effect size, and lists where the tests disagree.
func (r *Result) printRankTests(p *printer, table PaperTable, policies []string) {
	title, _, _ := strings.Cut(table.Title, ":")
	p.line("%s, tests (%s): t = paired t-test %s (the paper's), W = Wilcoxon signed-rank %s,", title, table.Metric, r.pName(), r.pName())
	p.line("%s where W and t disagree at %v; ratio = median over pairs of %s/policy, with its", disagreeMark, r.Settings.Alpha, r.Settings.Reference)
	p.line("percentile bootstrap 95%% interval (%d resamples)", stats.BootstrapResamples)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := leftAligned(append([]string{"load"}, policies...))
	rowNames := leftAligned([]string{"t", "W", "ratio", "95% CI"})
	fmt.Fprintln(tw, r.loadHeader(labels[0]))
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

// FindTTest returns the t-test row of metric, policy and load.
func (r *Result) FindTTest(metric, policy string, load float64) (TTestRow, bool) {
	for _, row := range r.TTests {
		if row.Metric == metric && row.Policy == policy && !row.Pooled && row.Load == load {
			return row, true
		}
	}
	return TTestRow{}, false
}

// pairCounts renders the numbers of pairs of load column j: one number
// when every policy has the same, else the range.
func pairCounts(grid [][]DominanceCell, j int) string {
	lo, hi := math.MaxInt, 0
	for _, row := range grid {
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

func markedPercent(row *DominanceRow) string {
	if row == nil {
		return "- "
	}
	mark := " "
	if !row.Significant {
		mark = nsMark
	}
	return fmt.Sprintf("%.1f%s", row.Percent, mark)
}

// printMeans prints the mean of metric per policy and load.
func (r *Result) printMeans(p *printer, title, metric string) {
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
			if row, ok := r.FindByLoad(metric, policy, load); ok {
				line += FormatMean(row.Mean, (row.High-row.Low)/2) + "\t"
			} else {
				line += "-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		p.line("%s", strings.TrimRight(line, " "))
	}
}

// FormatFigure renders a figure row's value: the mean, and the half-width
// of its 95% confidence interval when there are two or more instances;
// "-" without a value.
func FormatFigure(row FigureRow) string {
	switch {
	case !row.HasOurs():
		return "-"
	case math.IsNaN(row.Low):
		return fmt.Sprintf("%.4g", row.Mean)
	}
	return fmt.Sprintf("%.4g ±%.2g", row.Mean, (row.High-row.Low)/2)
}

// MatchMark is "ok" when ours satisfies the paper's value, "no" when it
// does not, and "" without both values.
func MatchMark(row FigureRow) string {
	switch {
	case row.Paper == nil || !row.HasOurs():
		return ""
	case row.Matches:
		return "ok"
	}
	return "no"
}

// printFigures prints the figures of merit of workload: one row per
// figure, per policy ours and the paper's with its match mark.
func (r *Result) printFigures(p *printer, workload string, expect Expectations) {
	rows := r.FigureTable(workload, expect)
	n := r.Instances(workload)
	p.line("workload %s: %d %s", workload, n, plural(n, "instance", "instances"))
	var metrics, policies []string
	for _, row := range rows {
		if !slices.Contains(metrics, row.Metric) {
			metrics = append(metrics, row.Metric)
		}
	}
	for _, policy := range r.Policies {
		if slices.ContainsFunc(rows, func(row FigureRow) bool { return row.Policy == policy }) {
			policies = append(policies, policy)
		}
	}
	labels := make([]string, len(metrics))
	for i, m := range metrics {
		labels[i] = FigureLabel(m)
	}
	labels = leftAligned(append([]string{"figure"}, labels...))
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := labels[0] + "\t"
	for _, policy := range policies {
		header += policy + "\tpaper\t\t"
	}
	fmt.Fprintln(tw, header)
	var withPaper, matching int
	for i, metric := range metrics {
		line := labels[1+i] + "\t"
		for _, policy := range policies {
			j := slices.IndexFunc(rows, func(row FigureRow) bool { return row.Metric == metric && row.Policy == policy })
			if j < 0 {
				line += "-\t-\t\t"
				continue
			}
			row := rows[j]
			paper := "-"
			if row.Paper != nil {
				paper = row.Paper.String()
				if row.HasOurs() {
					withPaper++
				}
				if row.Matches {
					matching++
				}
			}
			line += FormatFigure(row) + "\t" + paper + "\t" + MatchMark(row) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		p.line("%s", strings.TrimRight(line, " "))
	}
	orderings := r.OrderingTable(workload, expect)
	held := r.printOrderings(p, orderings)
	switch {
	case withPaper == 0 && len(orderings) == 0:
		p.line("no paper values for %s in the manifest's expect.values", workload)
	case len(orderings) == 0:
		p.line("reproduced: %d of %d paper values", matching, withPaper)
	case withPaper == 0:
		p.line("reproduced: %d of %d orderings held", held, len(orderings))
	default:
		p.line("reproduced: %d of %d paper values; %d of %d orderings held", matching, withPaper, held, len(orderings))
	}
	r.printCampaignComparisons(p, workload)
}

// FormatMean renders a mean and the half-width of its interval with three
// significant digits each, in plain notation below a million ("294 ± 258"
// rather than "293.8 ±2.6e+02").
func FormatMean(mean, halfWidth float64) string {
	if math.IsNaN(halfWidth) {
		return significant(mean)
	}
	return significant(mean) + " ± " + significant(halfWidth)
}

// significant renders x with three significant digits, without an
// exponent when 0.001 <= |x| < 1e6.
func significant(x float64) string {
	abs := math.Abs(x)
	if abs == 0 || math.IsNaN(x) || math.IsInf(x, 0) || abs < 1e-3 || abs >= 1e6 {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	exponent := int(math.Floor(math.Log10(abs)))
	if exponent > 2 {
		scale := math.Pow(10, float64(exponent-2))
		return strconv.FormatFloat(math.Round(x/scale)*scale, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 2-exponent, 64)
}
