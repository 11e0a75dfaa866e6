package analysis

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store/table"

	"github.com/sweep-sched/sweep/store"
)

// ReplicateRow is one comparison within one replicate of a run: the
// reference against Policy on Metric at Load, over the pairs of that
// replicate only.
type ReplicateRow struct {
	Metric    string
	Load      float64
	Replicate int64
	Reference string
	Policy    string
	stats.Dom
	// TTestP and WilcoxonP are the two tests' p-values (unadjusted).
	TTestP, WilcoxonP float64
}

// SpreadRow is the spread of one comparison's dominance percentage across
// the replicates of a run: what drawing other instances alone moves.
type SpreadRow struct {
	Metric    string
	Load      float64
	Reference string
	Policy    string
	// Percents are the dominance percentages of the replicates, in
	// replicate order; Min and Max bound them.
	Percents []float64
	Min, Max float64
	// MeanInterval is their mean with its t 95% interval (N = number of
	// replicates, N-1 degrees of freedom).
	stats.MeanInterval
}

// Contains reports whether the paper's value lies within the range of the
// replicates, and within their mean's t interval.
func (s SpreadRow) Contains(paper float64) (inRange, inInterval bool) {
	return s.Min <= paper && paper <= s.Max, s.Low <= paper && paper <= s.High
}

// compareReplicates fills r.Replicates, r.ByReplicate and r.Spread when
// the pairing holds more than one replicate: every per-load comparison of
// a ranked metric, recomputed within each replicate.
func (r *Result) compareReplicates(columns []table.Measure) {
	for _, g := range r.Pairing.Groups {
		if !slices.Contains(r.Replicates, g.Key.Replicate) {
			r.Replicates = append(r.Replicates, g.Key.Replicate)
		}
	}
	slices.Sort(r.Replicates)
	if len(r.Replicates) < 2 {
		return
	}
	byReplicate := make(map[int64][]Group, len(r.Replicates))
	for _, g := range r.Pairing.Groups {
		byReplicate[g.Key.Replicate] = append(byReplicate[g.Key.Replicate], g)
	}
	reference := r.Settings.Reference
	for m, metric := range columns {
		if metric.Better == table.Descriptive {
			continue
		}
		for _, load := range r.Loads {
			scope := Scope{Load: load}
			for _, policy := range r.Policies {
				if policy == reference {
					continue
				}
				spread := SpreadRow{Metric: metric.Name, Load: load, Reference: reference, Policy: policy, Min: math.Inf(1), Max: math.Inf(-1)}
				for _, rep := range r.Replicates {
					ref, other := pairedValues(byReplicate[rep], scope, reference, policy, m)
					dom, err := stats.Dominance(ref, other, metric.Better == table.LowerIsBetter)
					if err != nil {
						continue // no pair in this replicate
					}
					row := ReplicateRow{Metric: metric.Name, Load: load, Replicate: rep, Reference: reference, Policy: policy, Dom: dom,
						TTestP: math.NaN(), WilcoxonP: math.NaN()}
					if t, err := stats.PairedTTest(ref, other); err == nil {
						row.TTestP = t.P
					}
					if w, err := stats.WilcoxonSignedRank(ref, other); err == nil {
						row.WilcoxonP = w.P
					}
					r.ByReplicate = append(r.ByReplicate, row)
					spread.Percents = append(spread.Percents, dom.Percent)
					spread.Min, spread.Max = min(spread.Min, dom.Percent), max(spread.Max, dom.Percent)
				}
				if len(spread.Percents) == 0 {
					continue
				}
				// MeanCI fails only without values, excluded above.
				spread.MeanInterval, _ = stats.MeanCI(spread.Percents, 0.95)
				r.Spread = append(r.Spread, spread)
			}
		}
	}
}

// FindSpread returns the spread row of metric, policy and load.
func (r *Result) FindSpread(metric, policy string, load float64) (SpreadRow, bool) {
	for _, row := range r.Spread {
		if row.Metric == metric && row.Policy == policy && row.Load == load {
			return row, true
		}
	}
	return SpreadRow{}, false
}

// The per-replicate tables: replicate_dominance has one row per
// comparison and replicate (Wilson 95% interval, both tests' unadjusted
// p-values); replicate_spread one row per comparison across replicates
// (percent values comma-separated in replicate order, min, max, and the
// t 95% interval of their mean, null with one replicate).
var (
	replicateDominanceSchema = store.Schema{Table: "replicate_dominance", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "replicate", Type: store.TypeInt64},
		{Name: "reference", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "n", Type: store.TypeInt64}, {Name: "dominance_pct", Type: store.TypeFloat64},
		{Name: "ci95_low", Type: store.TypeFloat64}, {Name: "ci95_high", Type: store.TypeFloat64},
		{Name: "ttest_p", Type: store.TypeFloat64, Nullable: true}, {Name: "wilcoxon_p", Type: store.TypeFloat64, Nullable: true},
	}}
	replicateSpreadSchema = store.Schema{Table: "replicate_spread", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "reference", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "replicates", Type: store.TypeInt64}, {Name: "dominance_pcts", Type: store.TypeString},
		{Name: "min", Type: store.TypeFloat64}, {Name: "max", Type: store.TypeFloat64}, {Name: "mean", Type: store.TypeFloat64},
		{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
	}}
)

// ReplicateTables returns the per-replicate tables (replicate_dominance,
// replicate_spread), empty with one replicate.
func (r *Result) ReplicateTables() []Table {
	var byReplicate, spread []store.Row
	for _, row := range r.ByReplicate {
		byReplicate = append(byReplicate, store.Row{
			store.String(row.Metric), LoadValue(row.Load), store.Int64(row.Replicate), store.String(row.Reference),
			store.String(row.Policy), store.Int64(int64(row.N)), store.Float64(row.Percent), store.Float64(row.Low),
			store.Float64(row.High), NullIfNaN(row.TTestP), NullIfNaN(row.WilcoxonP),
		})
	}
	for _, row := range r.Spread {
		values := make([]string, len(row.Percents))
		for i, v := range row.Percents {
			values[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		spread = append(spread, store.Row{
			store.String(row.Metric), LoadValue(row.Load), store.String(row.Reference), store.String(row.Policy),
			store.Int64(int64(len(row.Percents))), store.String(strings.Join(values, ",")), store.Float64(row.Min),
			store.Float64(row.Max), store.Float64(row.Mean), NullIfNaN(row.Low), NullIfNaN(row.High),
		})
	}
	return []Table{{Schema: replicateDominanceSchema, Rows: byReplicate}, {Schema: replicateSpreadSchema, Rows: spread}}
}
