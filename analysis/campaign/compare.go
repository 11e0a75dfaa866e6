package campaign

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/stats"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Comparisons are the robust comparisons of campaign studies
// (issue 11, DESIGN.md section 4), computed campaign by campaign from the
// campaigns table: a single trimmed mean hangs on a few dozen campaigns,
// so these say how the policies compare on the whole distribution.
type Comparisons struct {
	// Pairs compare the reference with each other policy, campaign by
	// campaign, per campaign workload.
	Pairs []Pair
	// UserMedians are the median campaign stretch of each user under each
	// policy (seed 000 Fig. 9), per workload.
	UserMedians []UserMedian
}

// A Pair compares the reference policy with Policy on the
// campaigns of Workload, pairing each campaign with itself under the other
// policy (same instance, user and ordinal). Campaigns of instances that
// lack either policy are left out.
type Pair struct {
	Workload, Reference, Policy string
	Instances, Campaigns        int
	// ReferenceFaster, Ties and PolicyFaster are the shares of the paired
	// campaigns whose flow time (completion - submission) is shorter under
	// the reference, equal, or shorter under Policy.
	ReferenceFaster, Ties, PolicyFaster float64
	// Users counts the users with campaigns under both policies, and
	// UsersNotWorse those whose median stretch under the reference is at
	// most their median under Policy.
	Users, UsersNotWorse int
	// Intervals are percentile bootstrap intervals of the statistics of
	// BootstrapMetrics and of FlowShorterShare, resampling the
	// paired campaigns.
	Intervals []Interval
}

// A Interval is a bootstrap interval of one statistic of a
// Pair's campaigns (pooled over instances): Metric under the
// reference (Of = the reference's name), under the other policy (Of = its
// name), or their difference reference - policy (Of = "ref - policy").
type Interval struct {
	Metric, Of string
	stats.BootstrapInterval
}

// A UserMedian is the median stretch of User's campaigns (all of them,
// the outliers included, as seed 000 Fig. 9 does) under Policy, pooled
// over the workload's instances: a synthetic workload's user "u01" is the
// first user of every instance.
type UserMedian struct {
	Workload, User, Profile, Policy string
	Campaigns                       int
	Median                          float64
}

// BootstrapMetrics are the statistics of a Pair's
// bootstrap intervals, named by their cells-table column: the mean
// stretch at the cuts 1000 (seed 000's), 100 and 20, the share of the
// campaigns <= 1000 at exactly 1, their quantiles and the share above
// 1000 (seed 000's figures). pairedSample.newStatistic computes them in
// this order.
var BootstrapMetrics = []string{
	"campaign_stretch_trimmed_mean",
	"campaign_stretch_trimmed100_mean",
	"campaign_stretch_trimmed20_mean",
	"campaign_stretch_trimmed_exact1_share",
	"campaign_stretch_trimmed_p50",
	"campaign_stretch_trimmed_p90",
	"campaign_stretch_trimmed_p99",
	"campaign_stretch_outlier_share",
}

// FlowShorterShare names, in a Pair's intervals, the share of the
// paired campaigns whose flow time is shorter under a policy (Of) than
// under the other, and for Of = "ref - policy" the difference of the two
// shares. It follows the statistics of BootstrapMetrics.
const FlowShorterShare = "campaign_flow_shorter_share"

// stretchCuts are the cuts of the trimmed means of BootstrapMetrics, in
// their order there, descending; the first is also the cut of the
// quantiles, the exact-1 share and the outliers.
var stretchCuts = [...]float64{table.CampaignOutlierStretch, 100, 20}

// trimmedQuantiles are the quantiles of BootstrapMetrics' p50, p90 and
// p99, in their order there.
var trimmedQuantiles = [...]float64{0.5, 0.9, 0.99}

// A pairedSample is a Pair's campaigns laid out for the bootstrap: a
// resample's statistics (newStatistic) come out of one pass over its
// indices and one walk per policy over the counts of its ranks, in O(n),
// rather than a pass (and a sort) per statistic. It is only read, so the
// bootstrap's goroutines share it.
type pairedSample struct {
	items    []pairedItem // by campaign
	policies [2]rankedStretches
}

// A pairedItem is what picking one campaign adds, per policy (0 the
// reference, 1 the other).
type pairedItem struct {
	// trimmed is the stretch where at most the cut of stretchCuts, else 0:
	// adding 0 leaves a sum as it is, so a mean's sum is the one that adds
	// the kept stretches alone, in the order picked.
	trimmed [2][len(stretchCuts)]float64
	rank    [2]int32 // the stretch's position in rankedStretches.sorted
	// shorter is 1 where the flow is shorter under the policy than under
	// the other.
	shorter [2]uint8
}

// rankedStretches are one policy's stretches in ascending order: the
// stretches kept at the first cut come first, so their order statistics
// are read off the counts of a resample's picks by rank.
type rankedStretches struct {
	sorted []float64
	// kept[c] is the number of stretches at most stretchCuts[c], the
	// ranks below it; ones are the ranks of the stretches exactly 1
	// (exact: a ratio of integers is 1.0 only when they are equal).
	kept [len(stretchCuts)]int
	ones [2]int
}

// newPairedSample lays out the paired stretches of the reference and the
// other policy and faster (1 when a campaign's flow is shorter under the
// reference, -1 under the other, 0 when equal).
func newPairedSample(stretches [2][]float64, faster []int8) *pairedSample {
	s := &pairedSample{items: make([]pairedItem, len(faster))}
	for p, stretch := range stretches {
		order := make([]int, len(stretch))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(stretch[a], stretch[b]) })
		ranked := rankedStretches{sorted: make([]float64, len(stretch))}
		for r, i := range order {
			ranked.sorted[r] = stretch[i]
			s.items[i].rank[p] = int32(r)
		}
		above := func(x float64) int {
			return sort.Search(len(stretch), func(r int) bool { return ranked.sorted[r] > x })
		}
		for c, cut := range stretchCuts {
			ranked.kept[c] = above(cut)
		}
		ranked.ones = [2]int{sort.Search(len(stretch), func(r int) bool { return ranked.sorted[r] >= 1 }), above(1)}
		s.policies[p] = ranked
		for i, st := range stretch {
			for c, cut := range stretchCuts {
				if st <= cut {
					s.items[i].trimmed[p][c] = st
				}
			}
		}
	}
	for i, f := range faster {
		switch f {
		case 1:
			s.items[i].shorter[0] = 1
		case -1:
			s.items[i].shorter[1] = 1
		}
	}
	return s
}

// newStatistic returns the statistic of the bootstrap of a Pair's
// intervals, with its own scratch: it writes into values the statistics
// over the campaigns picked by indices, in the intervals' order: for each
// of BootstrapMetrics the reference's, the other policy's and their
// difference, then the same of FlowShorterShare.
func (s *pairedSample) newStatistic() func(indices []int, values []float64) {
	// counts[p][r] is how many picks have rank r under policy p; policy[p]
	// are p's statistics of BootstrapMetrics.
	var counts [2][]int
	var policy [2][]float64
	for p := range counts {
		counts[p] = make([]int, len(s.items))
		policy[p] = make([]float64, len(BootstrapMetrics))
	}
	return func(indices []int, values []float64) {
		clear(counts[0])
		clear(counts[1])
		counts0, counts1 := counts[0], counts[1]
		var sums [2][len(stretchCuts)]float64
		var shorter [2]int
		for _, i := range indices {
			item := &s.items[i]
			sums[0][0] += item.trimmed[0][0]
			sums[0][1] += item.trimmed[0][1]
			sums[0][2] += item.trimmed[0][2]
			sums[1][0] += item.trimmed[1][0]
			sums[1][1] += item.trimmed[1][1]
			sums[1][2] += item.trimmed[1][2]
			counts0[item.rank[0]]++
			counts1[item.rank[1]]++
			shorter[0] += int(item.shorter[0])
			shorter[1] += int(item.shorter[1])
		}
		picks := float64(len(indices))
		for p, v := range policy {
			ranked := &s.policies[p]
			kept, exact1 := ranked.picked(counts[p])
			v[0] = sums[p][0] / float64(kept[0]) // NaN when none is kept
			v[1] = sums[p][1] / float64(kept[1])
			v[2] = sums[p][2] / float64(kept[2])
			v[3] = float64(exact1) / float64(kept[0])
			ranked.quantiles(counts[p], kept[0], v[4:7])
			v[7] = float64(len(indices)-kept[0]) / picks
		}
		for m := range BootstrapMetrics {
			values[3*m], values[3*m+1], values[3*m+2] = policy[0][m], policy[1][m], policy[0][m]-policy[1][m]
		}
		refShare, otherShare := float64(shorter[0])/picks, float64(shorter[1])/picks
		m := 3 * len(BootstrapMetrics)
		values[m], values[m+1], values[m+2] = refShare, otherShare, refShare-otherShare
	}
}

// picked returns how many of a resample's picks (counts, by rank) are
// kept at each cut of stretchCuts, and how many are exactly 1: sums of
// the counts of consecutive ranks.
func (s *rankedStretches) picked(counts []int) (kept [len(stretchCuts)]int, exact1 int) {
	sum := func(ranks []int) int {
		n := 0
		for _, c := range ranks {
			n += c
		}
		return n
	}
	// The cuts descend, so each kept count adds the ranks from the next
	// cut's up to its own.
	last := len(stretchCuts) - 1
	kept[last] = sum(counts[:s.kept[last]])
	for c := last - 1; c >= 0; c-- {
		kept[c] = kept[c+1] + sum(counts[s.kept[c+1]:s.kept[c]])
	}
	return kept, sum(counts[s.ones[0]:s.ones[1]])
}

// quantiles writes into values the trimmedQuantiles of the kept smallest
// stretches of a resample's picks (counts, by rank), NaN when kept is 0.
func (s *rankedStretches) quantiles(counts []int, kept int, values []float64) {
	if kept == 0 {
		for q := range values {
			values[q] = math.NaN()
		}
		return
	}
	// Each quantile interpolates between the order statistics lo and hi
	// (0-based) of the kept stretches; one walk over the ranks, in
	// ascending order of position, finds all of them.
	var positions [2 * len(trimmedQuantiles)]int // lo and hi of each quantile
	var weight [len(trimmedQuantiles)]float64
	for q, p := range trimmedQuantiles {
		virtualIndex := float64(kept-1) * p
		lo := int(math.Floor(virtualIndex))
		positions[2*q], positions[2*q+1] = lo, min(lo+1, kept-1)
		weight[q] = virtualIndex - float64(lo)
	}
	sorted := positions
	slices.Sort(sorted[:])
	var found [len(sorted)]float64 // found[k] is the order statistic sorted[k]
	next, seen := 0, 0
	for r, c := range counts {
		// seen passes a position at the rank that holds it; a rank not
		// picked (c = 0) moves nothing.
		if seen += c; seen > sorted[next] {
			for ; next < len(sorted) && sorted[next] < seen; next++ {
				found[next] = s.sorted[r]
			}
			if next == len(sorted) {
				break
			}
		}
	}
	statistic := func(position int) float64 { return found[slices.Index(sorted[:], position)] }
	for q := range values {
		// Quantile of the two neighbours at the weight is Quantile's own
		// interpolation between them, so the arithmetic is numpy's.
		values[q] = stats.Quantile([]float64{statistic(positions[2*q]), statistic(positions[2*q+1])}, weight[q])
	}
}

// campaignKey identifies a campaign within a workload instance.
type campaignKey struct {
	user    string
	ordinal int64
}

// campaignMeasures are one cell's campaigns.
type campaignMeasures struct {
	profile map[string]string // user -> profile
	flow    map[campaignKey]int64
	stretch map[campaignKey]float64
	order   []campaignKey // table order
}

// Compare reads the campaigns table of the results directory dir
// for the successful campaign cells of r and compares, per campaign
// workload, the reference with every other policy. It returns nil when
// the run did not record campaigns; part files that cannot be read are
// returned as problems.
func Compare(dir string, r *analysis.Result) (*Comparisons, []parquet.Problem, error) {
	names := []string{table.CellID, table.CampaignUser, table.CampaignProfile, table.Campaign,
		table.CampaignSubmit, table.CampaignCompletion, table.CampaignStretch}
	set, problems, err := parquet.ReadColumns(dir, table.Campaigns, names)
	if err != nil {
		return nil, nil, fmt.Errorf("reading campaigns: %w", err)
	}
	if set.Rows == 0 {
		return nil, problems, nil
	}
	if err := set.SortRows(table.CellID); err != nil {
		return nil, nil, fmt.Errorf("reading campaigns of %s: %w", dir, err)
	}
	want := []store.Type{store.TypeString, store.TypeString, store.TypeString, store.TypeInt64,
		store.TypeInt64, store.TypeInt64, store.TypeFloat64}
	for i, c := range set.Columns {
		if c.Type != want[i] {
			return nil, nil, fmt.Errorf("reading campaigns of %s: column %q is %v; want %v", dir, c.Name, c.Type, want[i])
		}
	}
	cells := map[string]*analysis.Cell{}
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			if isCampaign(r, c) {
				cells[c.ID] = c
			}
		}
	}
	measures := map[string]*campaignMeasures{}
	ids, users, profiles := set.Columns[0].Strings, set.Columns[1].Strings, set.Columns[2].Strings
	ordinals, submits, completions := set.Columns[3].Int64s, set.Columns[4].Int64s, set.Columns[5].Int64s
	stretches := set.Columns[6].Float64s
	for i := range set.Rows {
		if cells[ids[i]] == nil {
			continue
		}
		m := measures[ids[i]]
		if m == nil {
			m = &campaignMeasures{profile: map[string]string{}, flow: map[campaignKey]int64{}, stretch: map[campaignKey]float64{}}
			measures[ids[i]] = m
		}
		k := campaignKey{users[i], ordinals[i]}
		m.profile[users[i]] = profiles[i]
		m.flow[k] = completions[i] - submits[i]
		m.stretch[k] = stretches[i]
		m.order = append(m.order, k)
	}
	out := &Comparisons{}
	for _, workload := range Workloads(r) {
		var groups []analysis.Group
		for _, g := range r.Pairing.Groups {
			if g.Key.Workload == workload {
				groups = append(groups, g)
			}
		}
		for _, policy := range r.Policies {
			out.UserMedians = append(out.UserMedians, userMedians(workload, policy, groups, measures)...)
		}
		for _, policy := range r.Policies {
			if policy == r.Settings.Reference {
				continue
			}
			pair, ok, err := compareCampaignPair(workload, r.Settings.Reference, policy, groups, measures)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				pair.Users, pair.UsersNotWorse = usersNotWorse(out.UserMedians, workload, r.Settings.Reference, policy)
				out.Pairs = append(out.Pairs, pair)
			}
		}
	}
	return out, problems, nil
}

// compareCampaignPair pairs the campaigns of reference and policy in the
// groups of workload; ok is false when no group has both.
func compareCampaignPair(workload, reference, policy string, groups []analysis.Group, measures map[string]*campaignMeasures) (Pair, bool, error) {
	pair := Pair{Workload: workload, Reference: reference, Policy: policy}
	var refStretch, otherStretch []float64
	// faster is, per paired campaign, 1 when its flow is shorter under the
	// reference, -1 under policy, 0 when equal.
	var faster []int8
	var refFaster, ties int
	for _, g := range groups {
		rc, oc := g.Cells[reference], g.Cells[policy]
		if rc == nil || oc == nil || measures[rc.ID] == nil || measures[oc.ID] == nil {
			continue
		}
		rm, om := measures[rc.ID], measures[oc.ID]
		pair.Instances++
		for _, k := range rm.order {
			otherFlow, ok := om.flow[k]
			if !ok {
				continue
			}
			switch refFlow := rm.flow[k]; {
			case refFlow < otherFlow:
				refFaster++
				faster = append(faster, 1)
			case refFlow == otherFlow:
				ties++
				faster = append(faster, 0)
			default:
				faster = append(faster, -1)
			}
			refStretch = append(refStretch, rm.stretch[k])
			otherStretch = append(otherStretch, om.stretch[k])
		}
	}
	n := len(refStretch)
	if n == 0 {
		return pair, false, nil
	}
	pair.Campaigns = n
	pair.ReferenceFaster = float64(refFaster) / float64(n)
	pair.Ties = float64(ties) / float64(n)
	pair.PolicyFaster = float64(n-refFaster-ties) / float64(n)
	for _, metric := range BootstrapMetrics {
		pair.Intervals = append(pair.Intervals, Interval{Metric: metric, Of: reference},
			Interval{Metric: metric, Of: policy}, Interval{Metric: metric, Of: reference + " - " + policy})
	}
	pair.Intervals = append(pair.Intervals, Interval{Metric: FlowShorterShare, Of: reference},
		Interval{Metric: FlowShorterShare, Of: policy}, Interval{Metric: FlowShorterShare, Of: reference + " - " + policy})
	sample := newPairedSample([2][]float64{refStretch, otherStretch}, faster)
	intervals, err := stats.PercentileBootstraps(n, stats.BootstrapResamples, stats.BootstrapSeed(workload, reference, policy), 0.95, len(pair.Intervals), sample.newStatistic)
	if err != nil {
		return pair, false, fmt.Errorf("comparing %s with %s on %s: %w", reference, policy, workload, err)
	}
	for i := range pair.Intervals {
		pair.Intervals[i].BootstrapInterval = intervals[i]
	}
	return pair, true, nil
}

// userMedians returns the median stretch of every user of workload under
// policy, pooled over the groups' cells, by user id.
func userMedians(workload, policy string, groups []analysis.Group, measures map[string]*campaignMeasures) []UserMedian {
	stretches := map[string][]float64{}
	profile := map[string]string{}
	for _, g := range groups {
		c := g.Cells[policy]
		if c == nil || measures[c.ID] == nil {
			continue
		}
		m := measures[c.ID]
		for _, k := range m.order {
			stretches[k.user] = append(stretches[k.user], m.stretch[k])
			profile[k.user] = m.profile[k.user]
		}
	}
	var out []UserMedian
	for _, user := range sortedKeys(stretches) {
		s := stretches[user]
		slices.Sort(s)
		out = append(out, UserMedian{Workload: workload, User: user, Profile: profile[user], Policy: policy,
			Campaigns: len(s), Median: stats.Quantile(s, 0.5)})
	}
	return out
}

// usersNotWorse counts the users of workload with a median under both
// policies, and those whose median under reference is at most policy's.
func usersNotWorse(medians []UserMedian, workload, reference, policy string) (users, notWorse int) {
	ref := map[string]float64{}
	for _, m := range medians {
		if m.Workload == workload && m.Policy == reference {
			ref[m.User] = m.Median
		}
	}
	for _, m := range medians {
		if r, ok := ref[m.User]; ok && m.Workload == workload && m.Policy == policy {
			users++
			if r <= m.Median {
				notWorse++
			}
		}
	}
	return users, notWorse
}

// UserMediansOf returns the user medians of workload under policy, by
// user id.
func (c *Comparisons) UserMediansOf(workload, policy string) map[string]UserMedian {
	out := map[string]UserMedian{}
	for _, m := range c.UserMedians {
		if m.Workload == workload && m.Policy == policy {
			out[m.User] = m
		}
	}
	return out
}
