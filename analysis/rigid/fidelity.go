package rigid

import (
	"fmt"
	"math"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"

	"gonum.org/v1/gonum/stat"
)

// devTables name the table of seed 003 that gives each trace's running
// sums of total |dev| per month.
var devTables = map[string]string{"kth": "Table VI", "sdsc": "Table VII"}

// FidelityClaims returns seed 003's qualitative claims (Claims), each
// named by its text, with the paper's value where the text quotes it
// ("the paper: ..."), then for each trace with months of the paper the
// claim that our total |dev| per month is the paper's (DevClaimID).
func (r *Result) FidelityClaims() []fidelity.Claim {
	var claims []fidelity.Claim
	for _, c := range r.Claims() {
		paper := "as the text says"
		if _, quoted, ok := strings.Cut(c.Text, "the paper: "); ok {
			paper = strings.TrimSuffix(quoted, ")")
		}
		claims = append(claims, fidelity.Checked(c.Text, c.Text, paper, c.Evidence, c.Holds))
	}
	for _, trace := range r.Traces() {
		if claim, ok := r.devClaim(trace); ok {
			claims = append(claims, claim)
		}
	}
	return claims
}

// DevClaimID names the claim on a trace's total |dev| per month.
func DevClaimID(trace string) string {
	return trace + "/" + devTables[trace] + "/total |dev| per month"
}

// devClaim checks the total |dev| of each month and column (RelShare T,
// R, Tradeoff-fs T, R) against the paper's month value, the difference
// of its running sums (Tables VI, VII): the claim holds when the mean
// relative error over the run's months is within
// analysis.RelativeTolerance, the tolerance of a paper number without a
// stated one. ok is false when the run has no month of the paper's table.
func (r *Result) devClaim(trace string) (claim fidelity.Claim, ok bool) {
	table, known := devTables[trace]
	if !known {
		return claim, false
	}
	var relative [len(PaperColumns)][]float64
	var previous [len(PaperColumns)]float64
	for _, p := range PaperMonths[trace] {
		for k, col := range PaperColumns {
			paperMonth := p.RunningAbsDev[k] - previous[k]
			previous[k] = p.RunningAbsDev[k]
			if c := r.Cell(trace, p.Month, col.Variant, col.Policy); c != nil && !math.IsNaN(c.TotalAbsDev) {
				relative[k] = append(relative[k], math.Abs(c.TotalAbsDev-paperMonth)/paperMonth)
			}
		}
	}
	var all []float64
	columns := make([]string, len(PaperColumns))
	for k, errs := range relative {
		all = append(all, errs...)
		columns[k] = "-"
		if len(errs) > 0 {
			columns[k] = fmt.Sprintf("%.1f", 100*stat.Mean(errs, nil))
		}
	}
	if len(all) == 0 {
		return claim, false
	}
	overall := stat.Mean(all, nil)
	claim = fidelity.Checked(DevClaimID(trace),
		fmt.Sprintf("%s: the total |dev| of each month is %s's (mean relative error at most %.0f%%)", trace, table, 100*analysis.RelativeTolerance),
		table, fmt.Sprintf("mean relative error %.1f%% over %d month values (RelShare T, R, Tradeoff-fs T, R: %s%%)", 100*overall, len(all), strings.Join(columns, ", ")),
		overall <= analysis.RelativeTolerance)
	claim.OursValue = 100 * overall
	return claim, true
}
