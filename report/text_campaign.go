package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/stats"
)

// printOrderings prints each ordering with our means and whether it held,
// and returns how many held.
func printOrderings(p *printer, rows []campaign.OrderingRow) int {
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
		p.line("ordering %s on %s: %.4g %s %.4g: %s", o.Ordering, campaign.FigureLabel(o.Metric), o.LeftMean, o.Relation, o.RightMean, verdict)
	}
	return held
}

// printCampaignComparisons prints, for each policy compared with the
// reference on workload, the campaign-by-campaign comparison, the
// bootstrap intervals and the per-user median stretch.
func printCampaignComparisons(r *analysis.Result, p *printer, c *campaign.Result, workload string) {
	if c.Comparisons == nil {
		return
	}
	for _, pair := range c.Comparisons.Pairs {
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
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", campaign.FigureLabel(pair.Intervals[i].Metric), formatInterval(pair.Intervals[i].BootstrapInterval),
				formatInterval(pair.Intervals[i+1].BootstrapInterval), formatInterval(pair.Intervals[i+2].BootstrapInterval))
		}
		tw.Flush()
		p.lines(b.String())
	}
	printUserMedians(r, p, c.Comparisons, workload)
}

// printUserMedians prints each user's median campaign stretch under every
// policy (seed 000 Fig. 9), with the user's number of campaigns (the same
// under every policy: the campaigns are the workload's).
func printUserMedians(r *analysis.Result, p *printer, comparisons *campaign.Comparisons, workload string) {
	var policies []string
	medians := map[string]map[string]campaign.UserMedian{}
	for _, policy := range r.Policies {
		if m := comparisons.UserMediansOf(workload, policy); len(m) > 0 {
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
		for _, u := range slices.Sorted(maps.Keys(medians[policy])) {
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
	p.lines(b.String())
}

// printFigures prints the figures of merit of workload: one row per
// figure, per policy ours and the paper's with its match mark.
func printFigures(r *analysis.Result, p *printer, c *campaign.Result, workload string) {
	rows := c.FiguresOf(workload)
	n := c.Instances[workload]
	p.line("workload %s: %d %s", workload, n, plural(n, "instance", "instances"))
	var metrics, policies []string
	for _, row := range rows {
		if !slices.Contains(metrics, row.Metric) {
			metrics = append(metrics, row.Metric)
		}
	}
	for _, policy := range r.Policies {
		if slices.ContainsFunc(rows, func(row campaign.FigureRow) bool { return row.Policy == policy }) {
			policies = append(policies, policy)
		}
	}
	labels := make([]string, len(metrics))
	for i, m := range metrics {
		labels[i] = campaign.FigureLabel(m)
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
			j := slices.IndexFunc(rows, func(row campaign.FigureRow) bool { return row.Metric == metric && row.Policy == policy })
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
	p.lines(b.String())
	orderings := c.OrderingsOf(workload)
	held := printOrderings(p, orderings)
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
	printCampaignComparisons(r, p, c, workload)
}
