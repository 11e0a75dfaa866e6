package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// AnalysisDir is the directory, under a results directory, of the tables
// WriteDir writes.
const AnalysisDir = "analysis"

// The analysis tables. Booleans are int64 0/1, since the store has no
// boolean type; load is null in rows that pool all loads and in rows of
// cells without a load (campaign workloads, in closed loop); a statistic that
// is undefined (the t of identical samples) is null. Box-plot outliers are
// a list of doubles in ascending order (empty when there are none);
// quartiles are numpy's default
// (linear, Hyndman-Fan type 7). Dominance rows carry the Wilson 95%
// interval of the percentage; p_adjusted is null unless analysis.adjust
// names an adjustment, and significant reads the adjusted p when there is
// one. The wilcoxon table is the signed-rank test of each comparison
// (statistic min(R+, R-), z null when exact) with the effect size, the
// median of ln(reference/policy) and its percentile bootstrap 95%
// interval (null without a pair of positive values), and whether the
// t-test of the comparison is significant.
var (
	tTestSchema = store.Schema{Table: "ttest", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "reference", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "n", Type: store.TypeInt64}, {Name: "mean_diff", Type: store.TypeFloat64, Nullable: true},
		{Name: "t", Type: store.TypeFloat64, Nullable: true}, {Name: "df", Type: store.TypeInt64},
		{Name: "p", Type: store.TypeFloat64, Nullable: true}, {Name: "p_adjusted", Type: store.TypeFloat64, Nullable: true},
		{Name: "significant", Type: store.TypeInt64},
	}}
	wilcoxonSchema = store.Schema{Table: "wilcoxon", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "reference", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "n", Type: store.TypeInt64}, {Name: "zeros", Type: store.TypeInt64},
		{Name: "statistic", Type: store.TypeFloat64}, {Name: "exact", Type: store.TypeInt64},
		{Name: "z", Type: store.TypeFloat64, Nullable: true}, {Name: "p", Type: store.TypeFloat64, Nullable: true},
		{Name: "p_adjusted", Type: store.TypeFloat64, Nullable: true}, {Name: "significant", Type: store.TypeInt64},
		{Name: "ttest_significant", Type: store.TypeInt64},
		{Name: "effect_n", Type: store.TypeInt64}, {Name: "log_ratio_median", Type: store.TypeFloat64, Nullable: true},
		{Name: "log_ratio_ci95_low", Type: store.TypeFloat64, Nullable: true},
		{Name: "log_ratio_ci95_high", Type: store.TypeFloat64, Nullable: true},
	}}
	dominanceSchema = store.Schema{Table: "dominance", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "reference", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "n", Type: store.TypeInt64}, {Name: "dominance_pct", Type: store.TypeFloat64},
		{Name: "ci95_low", Type: store.TypeFloat64}, {Name: "ci95_high", Type: store.TypeFloat64},
		{Name: "significant", Type: store.TypeInt64},
	}}
	boxSchema = store.Schema{Table: "boxplot", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "policy", Type: store.TypeString},
		{Name: "load", Type: store.TypeFloat64, Nullable: true}, {Name: "n", Type: store.TypeInt64},
		{Name: "min", Type: store.TypeFloat64}, {Name: "q1", Type: store.TypeFloat64},
		{Name: "median", Type: store.TypeFloat64}, {Name: "q3", Type: store.TypeFloat64},
		{Name: "max", Type: store.TypeFloat64}, {Name: "whisker_low", Type: store.TypeFloat64},
		{Name: "whisker_high", Type: store.TypeFloat64}, {Name: "outliers", Type: store.TypeFloat64List},
		{Name: "mean", Type: store.TypeFloat64},
	}}
	byLoadSchema = store.Schema{Table: "by_load", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "policy", Type: store.TypeString}, {Name: "n", Type: store.TypeInt64},
		{Name: "mean", Type: store.TypeFloat64},
		{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
	}}
)

// Value returns the scope's load column: null when pooled.
func (s Scope) Value() store.Value {
	if s.Pooled {
		return store.Null()
	}
	return LoadValue(s.Load)
}

// LoadValue returns load, or null for 0, the load of cells without one.
func LoadValue(load float64) store.Value {
	if load == 0 {
		return store.Null()
	}
	return store.Float64(load)
}

// BoolValue returns b as the int64 0/1 of the analysis tables.
func BoolValue(b bool) store.Value {
	if b {
		return store.Int64(1)
	}
	return store.Int64(0)
}

// ComparisonTables returns the tables of the pooled comparison: ttest,
// wilcoxon, dominance, boxplot and by_load.
func (r *Result) ComparisonTables() []Table {
	var tTests, rankTests, dominance, boxes, byLoad []store.Row
	for _, t := range r.TTests {
		tTests = append(tTests, store.Row{
			store.String(t.Metric), t.Scope.Value(), store.String(t.Reference), store.String(t.Policy),
			store.Int64(int64(t.N)), NullIfNaN(t.MeanDiff), NullIfNaN(t.T), store.Int64(int64(t.DF)),
			NullIfNaN(t.P), NullIfNaN(t.PAdjusted), BoolValue(t.Significant),
		})
	}
	for _, w := range r.RankTests {
		median, low, high := store.Null(), store.Null(), store.Null()
		if w.HasEffect {
			median, low, high = NullIfNaN(w.Effect.Estimate), NullIfNaN(w.Effect.Low), NullIfNaN(w.Effect.High)
		}
		rankTests = append(rankTests, store.Row{
			store.String(w.Metric), w.Scope.Value(), store.String(w.Reference), store.String(w.Policy),
			store.Int64(int64(w.N)), store.Int64(int64(w.Zeros)), store.Float64(w.Statistic), BoolValue(w.Exact),
			NullIfNaN(w.Z), NullIfNaN(w.P), NullIfNaN(w.PAdjusted), BoolValue(w.Significant),
			BoolValue(w.TTestSignificant), store.Int64(int64(w.Effect.N)), median, low, high,
		})
	}
	for _, d := range r.Dominance {
		dominance = append(dominance, store.Row{
			store.String(d.Metric), d.Scope.Value(), store.String(d.Reference), store.String(d.Policy),
			store.Int64(int64(d.N)), store.Float64(d.Percent), store.Float64(d.Low), store.Float64(d.High),
			BoolValue(d.Significant),
		})
	}
	for _, b := range r.Boxes {
		boxes = append(boxes, store.Row{
			store.String(b.Metric), store.String(b.Policy), b.Scope.Value(), store.Int64(int64(b.N)),
			store.Float64(b.Min), store.Float64(b.Q1), store.Float64(b.Median), store.Float64(b.Q3),
			store.Float64(b.Max), store.Float64(b.WhiskerLow), store.Float64(b.WhiskerHigh),
			store.Float64List(b.Outliers), store.Float64(b.Mean),
		})
	}
	for _, m := range r.ByLoad {
		byLoad = append(byLoad, store.Row{
			store.String(m.Metric), LoadValue(m.Load), store.String(m.Policy), store.Int64(int64(m.N)),
			store.Float64(m.Mean), NullIfNaN(m.Low), NullIfNaN(m.High),
		})
	}
	return []Table{
		{Schema: tTestSchema, Rows: tTests}, {Schema: wilcoxonSchema, Rows: rankTests}, {Schema: dominanceSchema, Rows: dominance},
		{Schema: boxSchema, Rows: boxes}, {Schema: byLoadSchema, Rows: byLoad},
	}
}

// A Table is the rows of one analysis table, written as
// DIR/analysis/<table>.parquet with Metadata in its footer.
type Table struct {
	Schema   store.Schema
	Rows     []store.Row
	Metadata map[string]string
}

// WriteDir writes the tables that have rows as DIR/analysis/<table>.parquet
// and returns the paths written, in the order of tables. Their policy,
// reference, algorithm (the moldable study's policies), workload and
// platform columns state the categories of the cells table's policy,
// workload and platform columns (the manifest's order; see
// CellCategories). It builds the new
// directory beside the old one and then swaps them, so a reader sees the
// old analysis or the new one, never a mix (between the two renames,
// DIR/analysis is briefly absent).
func WriteDir(dir string, tables []Table) ([]string, error) {
	temp, err := parquet.MkdirTemp(dir, ".analysis-new-")
	if err != nil {
		return nil, fmt.Errorf("writing analysis: %w", err)
	}
	defer os.RemoveAll(temp) // a no-op once renamed into place
	categories, err := CellCategories(dir)
	if err != nil {
		return nil, fmt.Errorf("writing analysis: %w", err)
	}
	var names []string
	for _, t := range tables {
		if len(t.Rows) == 0 {
			continue
		}
		t.Schema = withCategories(t.Schema, categories)
		if err := writeTable(temp, t); err != nil {
			return nil, fmt.Errorf("writing analysis table %s: %w", t.Schema.Table, err)
		}
		names = append(names, t.Schema.Table+".parquet")
	}
	final := filepath.Join(dir, AnalysisDir)
	aside, err := parquet.MkdirTemp(dir, ".analysis-old-")
	if err != nil {
		return nil, fmt.Errorf("writing analysis: %w", err)
	}
	defer os.RemoveAll(aside)
	old := filepath.Join(aside, AnalysisDir)
	hadOld := true
	if err := os.Rename(final, old); errors.Is(err, fs.ErrNotExist) {
		hadOld = false
	} else if err != nil {
		return nil, fmt.Errorf("writing analysis: moving the previous analysis aside: %w", err)
	}
	if err := os.Rename(temp, final); err != nil {
		if hadOld {
			err = errors.Join(err, os.Rename(old, final))
		}
		return nil, fmt.Errorf("writing analysis: putting the new analysis in place: %w", err)
	}
	paths := make([]string, len(names))
	for i, name := range names {
		paths[i] = filepath.Join(final, name)
	}
	return paths, nil
}

// writeTable writes one table as dir/<table>.parquet through a part writer.
func writeTable(dir string, t Table) error {
	w, err := parquet.NewPartWriter(dir, t.Schema, parquet.WriterOptions{Tag: "analysis", Metadata: t.Metadata})
	if err != nil {
		return err
	}
	for _, row := range t.Rows {
		if err := w.Append(row); err != nil {
			w.Close()
			return err
		}
	}
	part, err := w.Flush()
	if err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := os.Rename(part, filepath.Join(dir, t.Schema.Table+".parquet")); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dir, t.Schema.Table))
}

// CellCategories returns the categories the cells table's string columns
// state (store.CategoriesKey in its part files' metadata), by column: the
// first part's, then values that later parts add (a manifest extended with
// policies and run again); nil for results written before categories
// were, or without cells.
func CellCategories(dir string) (map[string][]string, error) {
	parts, _, err := parquet.ListParts(dir, table.Cells)
	if err != nil {
		return nil, err
	}
	var out map[string][]string
	for _, p := range parts {
		text, ok := p.Metadata[store.CategoriesKey]
		if !ok {
			continue
		}
		var categories map[string][]string
		if err := json.Unmarshal([]byte(text), &categories); err != nil {
			return nil, fmt.Errorf("%s: metadata %s: %w", p.Path, store.CategoriesKey, err)
		}
		if out == nil {
			out = map[string][]string{}
		}
		for column, values := range categories {
			for _, v := range values {
				if !slices.Contains(out[column], v) {
					out[column] = append(out[column], v)
				}
			}
		}
	}
	return out, nil
}

// withCategories returns schema with the cells' categories on its columns
// of the same names, and the policy categories on a reference or
// algorithm column. The schema's columns are copied: the analysis schemas
// are shared.
func withCategories(schema store.Schema, categories map[string][]string) store.Schema {
	if len(categories) == 0 {
		return schema
	}
	schema.Columns = slices.Clone(schema.Columns)
	for i, c := range schema.Columns {
		name := c.Name
		if name == "reference" || name == "algorithm" {
			name = table.Policy
		}
		if c.Type == store.TypeString {
			schema.Columns[i].Categories = categories[name]
		}
	}
	return schema
}
