package grid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
)

// FidelityClaims returns seed 004's claims that the run can address: for each
// cell of Tables 3 and 4 with a paper value at a load and policy of the
// run, that the reference's dominance is the paper's (DominanceCell.Agrees:
// the paper's value inside our Wilson 95% interval) and that the paired
// t-test is as significant as the paper's marks say (SameSignificance).
func FidelityClaims(r *analysis.Result, expect analysis.Expectations) []fidelity.Claim {
	var claims []fidelity.Claim
	for _, t := range PaperTables {
		policies, cells := DominanceGrid(r, t.Metric, expect)
		for i, policy := range policies {
			for _, cell := range cells[i] {
				if !cell.HasPaper {
					continue
				}
				load := LoadText(cell.Load)
				dominance := fidelity.Checked(ClaimID("dominance", t.Metric, policy, cell.Load),
					fmt.Sprintf("%s: %s at least as good as %s at load %s", t.Title, r.Settings.Reference, policy, load),
					strconv.FormatFloat(cell.Paper, 'g', -1, 64), "", cell.Agrees())
				dominance.PaperValue = cell.Paper
				significance := fidelity.Checked(ClaimID("significance", t.Metric, policy, cell.Load),
					fmt.Sprintf("%s: the paired t-test of %s against %s at load %s is %s", t.Title, r.Settings.Reference, policy, load, significantWords(cell.PaperSignificant)),
					significantWords(cell.PaperSignificant), "", cell.SameSignificance())
				if cell.Ours == nil {
					const why = "no pair of cells of the two policies at this load"
					claims = append(claims, dominance.NotChecked(why), significance.NotChecked(why))
					continue
				}
				dominance.Ours = fmt.Sprintf("%.1f", cell.Ours.Percent)
				dominance.OursValue, dominance.Low, dominance.High = cell.Ours.Percent, cell.Ours.Low, cell.Ours.High
				significance.Ours = significantWords(cell.Ours.Significant)
				claims = append(claims, dominance, significance)
			}
		}
	}
	return claims
}

// ClaimID names a claim about a cell of Tables 3 and 4: kind is
// "dominance" or "significance".
func ClaimID(kind, metric, policy string, load float64) string {
	return kind + "/" + metric + "/" + policy + "/" + LoadText(load)
}

// LoadText writes a load as the claim ids do, with at least one decimal:
// 0.8, 1.0.
func LoadText(load float64) string {
	s := strconv.FormatFloat(load, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func significantWords(significant bool) string {
	if significant {
		return "significant"
	}
	return "not significant"
}
