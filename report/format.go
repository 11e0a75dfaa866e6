package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/stats"
)

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

// formatDominanceInterval renders a dominance interval as "low-high" with one
// decimal, or "-" without a row.
func formatDominanceInterval(row *analysis.DominanceRow) string {
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

func markedPercent(row *analysis.DominanceRow) string {
	if row == nil {
		return "- "
	}
	mark := " "
	if !row.Significant {
		mark = nsMark
	}
	return fmt.Sprintf("%.1f%s", row.Percent, mark)
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

// FormatFigure renders a figure row's value: the mean, and the half-width
// of its 95% confidence interval when there are two or more instances;
// "-" without a value.
func FormatFigure(row campaign.FigureRow) string {
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
func MatchMark(row campaign.FigureRow) string {
	switch {
	case row.Paper == nil || !row.HasOurs():
		return ""
	case row.Matches:
		return "ok"
	}
	return "no"
}

// formatInterval renders an estimate with its bootstrap interval.
func formatInterval(b stats.BootstrapInterval) string {
	if math.IsNaN(b.Low) {
		return fmt.Sprintf("%.4g", b.Estimate)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", b.Estimate, b.Low, b.High)
}
