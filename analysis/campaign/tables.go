package campaign

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store"
)

// The analysis tables of campaign studies besides figures (issue 11).
// Shares are fractions; a mean of no campaigns is null.
var (
	// figuresSchema is the figures of merit of campaign workloads: ours
	// (mean over instances, 95% interval null with one instance) beside
	// the paper's value, its relation ("=", "<", "<=", ">", ">="), the
	// absolute tolerance of an "=" and whether ours matches; the paper
	// columns are null where the manifest gives no value.
	figuresSchema = store.Schema{Table: "figures", Columns: []store.Column{
		{Name: "workload", Type: store.TypeString}, {Name: "metric", Type: store.TypeString},
		{Name: "policy", Type: store.TypeString}, {Name: "n", Type: store.TypeInt64},
		{Name: "mean", Type: store.TypeFloat64, Nullable: true},
		{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
		{Name: "paper", Type: store.TypeFloat64, Nullable: true}, {Name: "paper_relation", Type: store.TypeString, Nullable: true},
		{Name: "tolerance", Type: store.TypeFloat64, Nullable: true}, {Name: "matches", Type: store.TypeInt64, Nullable: true},
	}}
	// campaignPairsSchema: the reference against policy, campaign by
	// campaign: the shares of the paired campaigns whose flow time is
	// shorter under the reference, equal, or shorter under policy, and
	// the users whose median stretch under the reference is at most
	// policy's.
	campaignPairsSchema = store.Schema{Table: "campaign_pairs", Columns: []store.Column{
		{Name: "workload", Type: store.TypeString}, {Name: "reference", Type: store.TypeString},
		{Name: "policy", Type: store.TypeString}, {Name: "instances", Type: store.TypeInt64},
		{Name: "campaigns", Type: store.TypeInt64}, {Name: "reference_faster_share", Type: store.TypeFloat64},
		{Name: "tie_share", Type: store.TypeFloat64}, {Name: "policy_faster_share", Type: store.TypeFloat64},
		{Name: "users", Type: store.TypeInt64}, {Name: "users_not_worse", Type: store.TypeInt64},
	}}
	// campaignBootstrapSchema: percentile bootstrap intervals (95%,
	// stats.BootstrapResamples resamples of the paired campaigns, seeded by
	// BootstrapSeed(workload, reference, policy)) of metric under the
	// reference, under policy ("of" is the policy's name) and of their
	// difference ("of" is "reference - policy"); metric is a cells-table
	// column of BootstrapMetrics or FlowShorterShare.
	campaignBootstrapSchema = store.Schema{Table: "campaign_bootstrap", Columns: []store.Column{
		{Name: "workload", Type: store.TypeString}, {Name: "reference", Type: store.TypeString},
		{Name: "policy", Type: store.TypeString}, {Name: "metric", Type: store.TypeString},
		{Name: "of", Type: store.TypeString}, {Name: "estimate", Type: store.TypeFloat64, Nullable: true},
		{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
		{Name: "resamples", Type: store.TypeInt64},
	}}
	// userMediansSchema: each user's median campaign stretch under each
	// policy, outliers included, pooled over the workload's instances.
	userMediansSchema = store.Schema{Table: "user_medians", Columns: []store.Column{
		{Name: "workload", Type: store.TypeString}, {Name: "user", Type: store.TypeString},
		{Name: "profile", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "campaigns", Type: store.TypeInt64}, {Name: "median", Type: store.TypeFloat64},
	}}
	// orderingsSchema: each ordering of expect.orderings with the
	// figure's means under its two policies and whether it held.
	orderingsSchema = store.Schema{Table: "orderings", Columns: []store.Column{
		{Name: "workload", Type: store.TypeString}, {Name: "metric", Type: store.TypeString},
		{Name: "left", Type: store.TypeString}, {Name: "relation", Type: store.TypeString},
		{Name: "right", Type: store.TypeString}, {Name: "left_mean", Type: store.TypeFloat64, Nullable: true},
		{Name: "right_mean", Type: store.TypeFloat64, Nullable: true}, {Name: "holds", Type: store.TypeInt64},
	}}
)

// Tables returns the campaign tables: figures, campaign_pairs,
// campaign_bootstrap, user_medians and orderings.
func (c *Result) Tables() []analysis.Table {
	var figures, pairs, intervals, medians, orderings []store.Row
	for _, f := range c.Figures {
		mean, paper, relation, tolerance, matches := store.Null(), store.Null(), store.Null(), store.Null(), store.Null()
		if f.HasOurs() {
			mean = analysis.NullIfNaN(f.Mean)
		}
		if f.Paper != nil {
			paper, relation = store.Float64(f.Paper.Value), store.String(f.Paper.Relation)
			if f.Paper.Relation == analysis.RelationEqual {
				tolerance = store.Float64(f.Paper.ToleranceFor(f.Metric))
			}
			if f.HasOurs() {
				matches = analysis.BoolValue(f.Matches)
			}
		}
		figures = append(figures, store.Row{
			store.String(f.Workload), store.String(f.Metric), store.String(f.Policy), store.Int64(int64(f.N)),
			mean, analysis.NullIfNaN(f.Low), analysis.NullIfNaN(f.High), paper, relation, tolerance, matches,
		})
	}
	if cmp := c.Comparisons; cmp != nil {
		for _, p := range cmp.Pairs {
			pairs = append(pairs, store.Row{
				store.String(p.Workload), store.String(p.Reference), store.String(p.Policy),
				store.Int64(int64(p.Instances)), store.Int64(int64(p.Campaigns)), store.Float64(p.ReferenceFaster),
				store.Float64(p.Ties), store.Float64(p.PolicyFaster), store.Int64(int64(p.Users)), store.Int64(int64(p.UsersNotWorse)),
			})
			for _, i := range p.Intervals {
				intervals = append(intervals, store.Row{
					store.String(p.Workload), store.String(p.Reference), store.String(p.Policy), store.String(i.Metric),
					store.String(i.Of), analysis.NullIfNaN(i.Estimate), analysis.NullIfNaN(i.Low), analysis.NullIfNaN(i.High), store.Int64(stats.BootstrapResamples),
				})
			}
		}
		for _, m := range cmp.UserMedians {
			medians = append(medians, store.Row{
				store.String(m.Workload), store.String(m.User), store.String(m.Profile), store.String(m.Policy),
				store.Int64(int64(m.Campaigns)), store.Float64(m.Median),
			})
		}
	}
	for _, o := range c.Orderings {
		orderings = append(orderings, store.Row{
			store.String(o.Workload), store.String(o.Metric), store.String(o.Left), store.String(o.Relation),
			store.String(o.Right), analysis.NullIfNaN(o.LeftMean), analysis.NullIfNaN(o.RightMean), analysis.BoolValue(o.Holds),
		})
	}
	return []analysis.Table{
		{Schema: figuresSchema, Rows: figures}, {Schema: campaignPairsSchema, Rows: pairs},
		{Schema: campaignBootstrapSchema, Rows: intervals}, {Schema: userMediansSchema, Rows: medians},
		{Schema: orderingsSchema, Rows: orderings},
	}
}
