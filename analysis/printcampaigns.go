package analysis

import (
	"fmt"
	"github.com/sweep-sched/sweep/stats"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// printOrderings prints each ordering with our means and whether it held,
// and returns how many held.
func (r *Result) printOrderings(p *printer, rows []OrderingRow) int {
	held := 0
	for _, o := range rows {
		verdict := "did not hold"
		if math.IsNaN(o.LeftMean) || math.IsNaN(o.RightMean) {
			verdict = "undefined (a policy has no value here)"
		}
		if o.Holds {
			verdict = "held"
			held++
		}
		p.line("ordering %s on %s: %.4g %s %.4g: %s", o.Ordering, FigureLabel(o.Metric), o.LeftMean, o.Relation, o.RightMean, verdict)
	}
	return held
}

// formatInterval renders an estimate with its bootstrap interval.
func formatInterval(b stats.BootstrapInterval) string {
	if math.IsNaN(b.Low) {
		return fmt.Sprintf("%.4g", b.Estimate)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", b.Estimate, b.Low, b.High)
}

// printCampaignComparisons prints, for each policy compared with the
// reference on workload, the campaign-by-campaign comparison, the
// bootstrap intervals and the per-user median stretch.
func (r *Result) printCampaignComparisons(p *printer, workload string) {
	if r.Campaigns == nil {
		return
	}
	for _, pair := range r.Campaigns.Pairs {
		if pair.Workload != workload {
			continue
		}
		ref, other := pair.Reference, pair.Policy
		p.line("")
		p.line("%s against %s, campaign by campaign (%d paired campaigns of %d %s):", ref, other,
			pair.Campaigns, pair.Instances, plural(pair.Instances, "instance", "instances"))
		p.line("  flow shorter under %s: %.4f; equal: %.4f; shorter under %s: %.4f (shares of the campaigns)",
			ref, pair.ReferenceFaster, pair.Ties, other, pair.PolicyFaster)
		p.line("  median stretch per user: %s <= %s for %d of %d users", ref, other, pair.UsersNotWorse, pair.Users)
		p.line("  bootstrap 95%% intervals: %d resamples of the paired campaigns (pooled over instances), percentile method", stats.BootstrapResamples)
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  figure\t%s\t%s\t%s - %s\n", ref, other, ref, other)
		for i := 0; i+2 < len(pair.Intervals); i += 3 {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", FigureLabel(pair.Intervals[i].Metric), formatInterval(pair.Intervals[i].BootstrapInterval),
				formatInterval(pair.Intervals[i+1].BootstrapInterval), formatInterval(pair.Intervals[i+2].BootstrapInterval))
		}
		tw.Flush()
		for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			p.line("%s", strings.TrimRight(line, " "))
		}
	}
	r.printUserMedians(p, workload)
}

// printUserMedians prints each user's median campaign stretch under every
// policy (seed 000 Fig. 9), with the user's number of campaigns (the same
// under every policy: the campaigns are the workload's).
func (r *Result) printUserMedians(p *printer, workload string) {
	var policies []string
	medians := map[string]map[string]UserMedian{}
	for _, policy := range r.Policies {
		if m := r.Campaigns.UserMediansOf(workload, policy); len(m) > 0 {
			policies = append(policies, policy)
			medians[policy] = m
		}
	}
	if len(policies) == 0 {
		return
	}
	var users []string
	profile, campaigns := map[string]string{}, map[string]int{}
	profiles := false
	for _, policy := range policies {
		for _, u := range sortedKeys(medians[policy]) {
			if _, seen := profile[u]; !seen {
				users = append(users, u)
				profile[u] = medians[policy][u].Profile
				campaigns[u] = medians[policy][u].Campaigns
				profiles = profiles || profile[u] != ""
			}
		}
	}
	p.line("")
	p.line("median campaign stretch per user (all campaigns, outliers included; seed 000 Fig. 9):")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "  user\t"
	if profiles {
		header += "profile\t"
	}
	header += "campaigns\t" + strings.Join(policies, "\t") + "\t"
	fmt.Fprintln(tw, header)
	for _, u := range users {
		line := "  " + u + "\t"
		if profiles {
			line += profile[u] + "\t"
		}
		line += strconv.Itoa(campaigns[u]) + "\t"
		for _, policy := range policies {
			if m, ok := medians[policy][u]; ok {
				line += strconv.FormatFloat(m.Median, 'g', 4, 64) + "\t"
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
