package campaign

import (
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
)

// FidelityClaims returns the claims of seeds 000 and 001 that the manifest's
// expect section states for the run: each figure of merit with a paper
// value (ours satisfies it: analysis.Expected.Matches) and each ordering
// (it holds on the figures' means). A figure's interval is the t interval
// over instances, or with one instance (a trace) the bootstrap interval
// of the campaigns (Comparisons), when there is one.
func (c *Result) FidelityClaims() []fidelity.Claim {
	var claims []fidelity.Claim
	for _, f := range c.Figures {
		if f.Paper == nil {
			continue
		}
		claim := fidelity.Checked(FigureClaimID(f.Workload, f.Metric, f.Policy),
			fmt.Sprintf("%s of %s on %s", f.Metric, f.Policy, f.Workload), f.Paper.String(), "", f.Matches)
		claim.PaperValue = f.Paper.Value
		if !f.HasOurs() || math.IsNaN(f.Mean) {
			claims = append(claims, claim.NotChecked("no successful cell of "+f.Policy+" on "+f.Workload+" has a value"))
			continue
		}
		claim.OursValue, claim.Low, claim.High = f.Mean, f.Low, f.High
		if !claim.HasInterval() {
			claim.Low, claim.High = c.bootstrapInterval(f.Workload, f.Metric, f.Policy)
		}
		claim.Ours = fmt.Sprintf("%.4g", f.Mean)
		claims = append(claims, claim)
	}
	for _, o := range c.Orderings {
		claim := fidelity.Checked(OrderingClaimID(o.Workload, o.Metric, o.Ordering),
			fmt.Sprintf("%s: %s on %s", o.Metric, o.Ordering, o.Workload), o.Ordering.String(),
			fmt.Sprintf("%.4g vs %.4g", o.LeftMean, o.RightMean), o.Holds)
		if math.IsNaN(o.LeftMean) || math.IsNaN(o.RightMean) {
			claim = claim.NotChecked(fmt.Sprintf("no value of %s for %s or %s on %s", o.Metric, o.Left, o.Right, o.Workload))
		}
		claims = append(claims, claim)
	}
	return claims
}

// FigureClaimID names the claim of a paper value of metric under policy
// on workload.
func FigureClaimID(workload, metric, policy string) string {
	return workload + "/" + metric + "/" + policy
}

// OrderingClaimID names the claim of an ordering of metric on workload.
func OrderingClaimID(workload, metric string, o analysis.Ordering) string {
	return workload + "/" + metric + "/" + o.String()
}

// bootstrapInterval returns the campaigns' bootstrap interval of metric
// under policy on workload from the first pair that has one, else NaN.
func (c *Result) bootstrapInterval(workload, metric, policy string) (low, high float64) {
	if c.Comparisons != nil {
		for _, p := range c.Comparisons.Pairs {
			if p.Workload != workload {
				continue
			}
			if i := slices.IndexFunc(p.Intervals, func(i Interval) bool { return i.Metric == metric && i.Of == policy }); i >= 0 {
				return p.Intervals[i].Low, p.Intervals[i].High
			}
		}
	}
	return math.NaN(), math.NaN()
}
