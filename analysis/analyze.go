package analysis

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Scope is the load a row summarises: one load, or all loads pooled. Load
// 0 is the closed loop of campaign workloads, which have no load; its rows
// carry a null load, like pooled rows, and a run whose only load is 0 has
// no pooled rows (they would repeat the load-0 rows).
type Scope struct {
	Load   float64
	Pooled bool // all loads; Load is unused
}

// TTestRow is one row of ttest.parquet: the reference against Policy on
// Metric within Scope.
type TTestRow struct {
	Metric string
	Scope
	Reference, Policy string
	stats.TTest
	// PAdjusted is P after Settings.Adjust (NaN without an adjustment).
	PAdjusted   float64
	Significant bool // EffectiveP() < alpha
}

// DominanceRow is one row of dominance.parquet.
type DominanceRow struct {
	Metric string
	Scope
	Reference, Policy string
	stats.Dom
	// Significant says the t-test of the same comparison is significant.
	Significant bool
}

// BoxRow is one row of boxplot.parquet: the successful cells of Policy.
type BoxRow struct {
	Metric, Policy string
	Scope
	stats.Box
}

// ByLoadRow is one row of by_load.parquet: the mean of Metric over the
// successful cells of Policy at Load, with its 95% confidence interval.
type ByLoadRow struct {
	Metric string
	Load   float64
	Policy string
	stats.MeanInterval
}

// Result is the paired comparison of a run's cells across policies, which
// the grid and campaign analyses build on.
type Result struct {
	Settings Settings
	// Loads are the loads of the successful cells, ascending; 0 stands for
	// the cells without a load (campaign workloads, in closed loop).
	Loads []float64
	// Columns are the measures of Cell.Values: those of Measures.Columns
	// the cells table has.
	Columns []table.Measure
	// Rebase is the measure re-based per pair group (Measures.Rebase),
	// nil for none.
	Rebase *model.Rebase
	// Policies are the policies of the successful cells: the reference,
	// then seed 004's table order, then the rest by name.
	Policies []string
	Pairing  *Pairing
	// Problems are unreadable part files of the cells table whose rows
	// were left out.
	Problems []parquet.Problem

	// TTests, Dominance and RankTests hold one row per comparison, in
	// the same order.
	TTests    []TTestRow
	Dominance []DominanceRow
	RankTests []RankTestRow
	// Replicates are the run's replicates, ascending. With two or more,
	// ByReplicate repeats the per-load comparisons within each replicate
	// and Spread summarises each comparison across them; the tables above
	// pool every replicate.
	Replicates  []int64
	ByReplicate []ReplicateRow
	Spread      []SpreadRow
	Boxes       []BoxRow
	ByLoad      []ByLoadRow
}

// Analyze reads the cells of the results directory dir and compares their
// measures across policies with the given settings (see
// Settings.WithDefaults).
func Analyze(dir string, settings Settings, measures Measures) (*Result, error) {
	settings = settings.WithDefaults()
	if err := settings.Validate(); err != nil {
		return nil, fmt.Errorf("analysis settings: %w", err)
	}
	cells, columns, problems, err := ReadCells(dir, measures)
	if err != nil {
		return nil, err
	}
	if measures.Leave != nil {
		cells = slices.DeleteFunc(cells, func(c Cell) bool { return measures.Leave(&c, columns) })
	}
	settings.Reference = modelReference(cells, settings.Reference, measures.References)
	rebaseColumn := -1
	if measures.Rebase != nil {
		rebaseColumn = slices.IndexFunc(columns, func(c table.Measure) bool { return c.Name == measures.Rebase.Measure })
	}
	pairing, err := PairCells(cells, settings.Reference, settings.BaseTicks, measures.Rebase, rebaseColumn)
	if err != nil {
		return nil, err
	}
	r := compare(pairing, settings, columns, measures.PolicyOrder)
	if rebaseColumn >= 0 {
		r.Rebase = measures.Rebase
	}
	r.compareReplicates(columns)
	r.Problems = problems
	return r, nil
}

// modelReference returns the first of the models' references that some
// cell has when reference is the default and no cell has it (a campaign
// run compares every policy with OStrich, seeds 000 and 001), and
// otherwise reference.
func modelReference(cells []Cell, reference string, references []string) string {
	if reference != DefaultReference {
		return reference
	}
	has := func(policy string) bool {
		return slices.ContainsFunc(cells, func(c Cell) bool { return c.Policy == policy })
	}
	if has(reference) {
		return reference
	}
	for _, r := range references {
		if has(r) {
			return r
		}
	}
	return reference
}

// compare computes the statistics tables of a pairing whose cell values
// are columns, with the policies in order after the reference.
func compare(pairing *Pairing, settings Settings, columns []table.Measure, order []string) *Result {
	r := &Result{Settings: settings, Pairing: pairing, Columns: columns}
	policySet := map[string]bool{}
	for _, g := range pairing.Groups {
		if len(r.Loads) == 0 || r.Loads[len(r.Loads)-1] != g.Key.Load {
			r.Loads = append(r.Loads, g.Key.Load) // groups are sorted by load
		}
		for policy := range g.Cells {
			policySet[policy] = true
		}
	}
	for policy := range policySet {
		r.Policies = append(r.Policies, policy)
	}
	slices.SortFunc(r.Policies, func(a, b string) int {
		rank := func(p string) int {
			if p == settings.Reference {
				return -1
			}
			if i := slices.Index(order, p); i >= 0 {
				return i
			}
			return len(order)
		}
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
	})
	scopes := make([]Scope, 0, len(r.Loads)+1)
	for _, load := range r.Loads {
		scopes = append(scopes, Scope{Load: load})
	}
	if !slices.Equal(r.Loads, []float64{0}) {
		scopes = append(scopes, Scope{Pooled: true})
	}

	// Each comparison draws its own seeded bootstrap, most of the
	// analysis's time: they run at once, and their rows are then appended
	// in the order of the loops, as when they ran one after another.
	var slots []comparisonSlot
	for m, metric := range columns {
		if metric.Better == table.Descriptive {
			continue
		}
		for _, scope := range scopes {
			for _, policy := range r.Policies {
				slots = append(slots, comparisonSlot{metric: m, scope: scope, policy: policy})
			}
		}
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range slots {
		g.Go(func() error {
			slots[i].compute(pairing.Groups, settings.Reference, columns[slots[i].metric])
			return nil
		})
	}
	g.Wait()
	for _, c := range slots {
		name := columns[c.metric].Name
		if c.hasBox {
			r.Boxes = append(r.Boxes, BoxRow{Metric: name, Policy: c.policy, Scope: c.scope, Box: c.box})
		}
		if c.hasMean {
			r.ByLoad = append(r.ByLoad, ByLoadRow{Metric: name, Load: c.scope.Load, Policy: c.policy, MeanInterval: c.mean})
		}
		if c.hasTests {
			r.TTests = append(r.TTests, TTestRow{Metric: name, Scope: c.scope, Reference: settings.Reference, Policy: c.policy, TTest: c.test, PAdjusted: math.NaN()})
			r.Dominance = append(r.Dominance, DominanceRow{Metric: name, Scope: c.scope, Reference: settings.Reference, Policy: c.policy, Dom: c.dom})
			r.RankTests = append(r.RankTests, c.rank)
		}
	}
	r.adjustPValues()
	return r
}

// A comparisonSlot is one policy's metric in one scope: its box plot and
// mean, and against the reference its t-test, dominance and rank test.
type comparisonSlot struct {
	metric int
	scope  Scope
	policy string

	hasBox, hasMean, hasTests bool
	box                       stats.Box
	mean                      stats.MeanInterval
	test                      stats.TTest
	dom                       stats.Dom
	rank                      RankTestRow
}

func (c *comparisonSlot) compute(groups []Group, reference string, metric table.Measure) {
	values := policyValues(groups, c.scope, c.policy, c.metric)
	var err error
	c.box, err = stats.BoxPlot(values)
	c.hasBox = err == nil
	if !c.scope.Pooled {
		c.mean, err = stats.MeanCI(values, 0.95)
		c.hasMean = err == nil
	}
	if c.policy == reference {
		return
	}
	ref, other := pairedValues(groups, c.scope, reference, c.policy, c.metric)
	// Both fail only when no pair has two values: then there is no row,
	// as for a policy absent at this load.
	if c.test, err = stats.PairedTTest(ref, other); err != nil {
		return
	}
	if c.dom, err = stats.Dominance(ref, other, metric.Better == table.LowerIsBetter); err != nil {
		return
	}
	c.rank, c.hasTests = rankTest(metric.Name, c.scope, reference, c.policy, ref, other)
}

func (s Scope) includes(load float64) bool { return s.Pooled || s.Load == load }

// policyValues returns metric m of every successful cell of policy in scope.
func policyValues(groups []Group, scope Scope, policy string, m int) []float64 {
	var values []float64
	for _, g := range groups {
		if c := g.Cells[policy]; c != nil && scope.includes(g.Key.Load) {
			values = append(values, c.Values[m])
		}
	}
	return values
}

// pairedValues returns metric m of reference and policy in every group of
// scope that has both.
func pairedValues(groups []Group, scope Scope, reference, policy string, m int) (ref, other []float64) {
	for _, g := range groups {
		r, o := g.Cells[reference], g.Cells[policy]
		if r != nil && o != nil && scope.includes(g.Key.Load) {
			ref = append(ref, r.Values[m])
			other = append(other, o.Values[m])
		}
	}
	return ref, other
}

// HasLoads reports whether some successful cell has a load, i.e. is a DAG
// cell that seed 004's tables describe.
func (r *Result) HasLoads() bool {
	return slices.ContainsFunc(r.Loads, func(load float64) bool { return load > 0 })
}

// FindDominance returns the dominance row of metric, policy and load.
func (r *Result) FindDominance(metric, policy string, load float64) (DominanceRow, bool) {
	for _, row := range r.Dominance {
		if row.Metric == metric && row.Policy == policy && !row.Pooled && row.Load == load {
			return row, true
		}
	}
	return DominanceRow{}, false
}

// FindByLoad returns the by-load row of metric, policy and load.
func (r *Result) FindByLoad(metric, policy string, load float64) (ByLoadRow, bool) {
	for _, row := range r.ByLoad {
		if row.Metric == metric && row.Policy == policy && row.Load == load {
			return row, true
		}
	}
	return ByLoadRow{}, false
}

// Workloads returns the workload labels of r's groups, in group order.
func (r *Result) Workloads() []string {
	var out []string
	for _, g := range r.Pairing.Groups {
		if !slices.Contains(out, g.Key.Workload) {
			out = append(out, g.Key.Workload)
		}
	}
	return out
}

// MeanOfWorkload returns the mean of metric, with its 95% confidence
// interval, over the successful cells of policy at load whose workload
// label is workload, as ByLoad has it over every workload; false when no
// cell has a value or r has no such metric.
func (r *Result) MeanOfWorkload(metric, policy, workload string, load float64) (stats.MeanInterval, bool) {
	m := r.Column(metric)
	if m < 0 {
		return stats.MeanInterval{}, false
	}
	var values []float64
	for _, g := range r.Pairing.Groups {
		if c := g.Cells[policy]; c != nil && g.Key.Workload == workload && g.Key.Load == load {
			values = append(values, c.Values[m])
		}
	}
	mean, err := stats.MeanCI(values, 0.95)
	return mean, err == nil
}

// ExcludedPairs returns the number of t-test pairs dropped because a value
// was NaN (e.g. the SD of a one-job schedule).
func (r *Result) ExcludedPairs() int {
	n := 0
	for _, row := range r.TTests {
		n += row.Excluded
	}
	return n
}

// NullIfNaN returns v, or null for NaN, which marks an undefined value.
func NullIfNaN(v float64) store.Value {
	if math.IsNaN(v) {
		return store.Null()
	}
	return store.Float64(v)
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
