package analysis

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/sweep/store"
)

// AnalysisDir is the directory, under a results directory, of the tables
// WriteTables writes.
const AnalysisDir = "analysis"

// The analysis tables. Booleans are int64 0/1, since the store has no
// boolean type; load is null in rows that pool all loads and in rows of
// cells without a load (campaign workloads, in closed loop); a statistic that
// is undefined (the t of identical samples) is null. Box-plot outliers are
// a string of comma-separated values in ascending order, each printed with
// the fewest digits that read back to the same float64 (in DuckDB:
// string_split(outliers, ',')::DOUBLE[]); quartiles are numpy's default
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
		{Name: "whisker_high", Type: store.TypeFloat64}, {Name: "outliers", Type: store.TypeString},
		{Name: "mean", Type: store.TypeFloat64},
	}}
	byLoadSchema = store.Schema{Table: "by_load", Columns: []store.Column{
		{Name: "metric", Type: store.TypeString}, {Name: "load", Type: store.TypeFloat64, Nullable: true},
		{Name: "policy", Type: store.TypeString}, {Name: "n", Type: store.TypeInt64},
		{Name: "mean", Type: store.TypeFloat64},
		{Name: "ci95_low", Type: store.TypeFloat64, Nullable: true}, {Name: "ci95_high", Type: store.TypeFloat64, Nullable: true},
	}}
	decileSchema = store.Schema{Table: "deciles", Columns: []store.Column{
		{Name: "load", Type: store.TypeFloat64, Nullable: true}, {Name: "policy", Type: store.TypeString},
		{Name: "decile", Type: store.TypeInt64}, {Name: "jobs", Type: store.TypeInt64},
		{Name: "slr_mean", Type: store.TypeFloat64}, {Name: "slr_max", Type: store.TypeFloat64},
	}}
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
)

func (s Scope) value() store.Value {
	if s.Pooled {
		return store.Null()
	}
	return loadValue(s.Load)
}

// loadValue returns load, or null for 0, the load of cells without one.
func loadValue(load float64) store.Value {
	if load == 0 {
		return store.Null()
	}
	return store.Float64(load)
}

func boolValue(b bool) store.Value {
	if b {
		return store.Int64(1)
	}
	return store.Int64(0)
}

// tables returns the rows of every analysis table, by schema.
func (r *Result) tables(expect Expectations) []tableRows {
	var tTests, rankTests, dominance, boxes, byLoad, deciles, figures []store.Row
	for _, t := range r.TTests {
		tTests = append(tTests, store.Row{
			store.String(t.Metric), t.Scope.value(), store.String(t.Reference), store.String(t.Policy),
			store.Int64(int64(t.N)), nullIfNaN(t.MeanDiff), nullIfNaN(t.T), store.Int64(int64(t.DF)),
			nullIfNaN(t.P), nullIfNaN(t.PAdjusted), boolValue(t.Significant),
		})
	}
	for _, w := range r.RankTests {
		median, low, high := store.Null(), store.Null(), store.Null()
		if w.HasEffect {
			median, low, high = nullIfNaN(w.Effect.Estimate), nullIfNaN(w.Effect.Low), nullIfNaN(w.Effect.High)
		}
		rankTests = append(rankTests, store.Row{
			store.String(w.Metric), w.Scope.value(), store.String(w.Reference), store.String(w.Policy),
			store.Int64(int64(w.N)), store.Int64(int64(w.Zeros)), store.Float64(w.Statistic), boolValue(w.Exact),
			nullIfNaN(w.Z), nullIfNaN(w.P), nullIfNaN(w.PAdjusted), boolValue(w.Significant),
			boolValue(w.TTestSignificant), store.Int64(int64(w.Effect.N)), median, low, high,
		})
	}
	for _, d := range r.Dominance {
		dominance = append(dominance, store.Row{
			store.String(d.Metric), d.Scope.value(), store.String(d.Reference), store.String(d.Policy),
			store.Int64(int64(d.N)), store.Float64(d.Percent), store.Float64(d.Low), store.Float64(d.High),
			boolValue(d.Significant),
		})
	}
	for _, b := range r.Boxes {
		outliers := make([]string, len(b.Outliers))
		for i, x := range b.Outliers {
			outliers[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		boxes = append(boxes, store.Row{
			store.String(b.Metric), store.String(b.Policy), b.Scope.value(), store.Int64(int64(b.N)),
			store.Float64(b.Min), store.Float64(b.Q1), store.Float64(b.Median), store.Float64(b.Q3),
			store.Float64(b.Max), store.Float64(b.WhiskerLow), store.Float64(b.WhiskerHigh),
			store.String(strings.Join(outliers, ",")), store.Float64(b.Mean),
		})
	}
	for _, m := range r.ByLoad {
		byLoad = append(byLoad, store.Row{
			store.String(m.Metric), loadValue(m.Load), store.String(m.Policy), store.Int64(int64(m.N)),
			store.Float64(m.Mean), nullIfNaN(m.Low), nullIfNaN(m.High),
		})
	}
	if r.Deciles != nil {
		for _, d := range r.Deciles.Rows {
			deciles = append(deciles, store.Row{
				loadValue(d.Load), store.String(d.Policy), store.Int64(int64(d.Decile)),
				store.Int64(d.Jobs), store.Float64(d.SLRMean), store.Float64(d.SLRMax),
			})
		}
	}
	for _, f := range r.Figures(expect) {
		mean, paper, relation, tolerance, matches := store.Null(), store.Null(), store.Null(), store.Null(), store.Null()
		if f.HasOurs() {
			mean = nullIfNaN(f.Mean)
		}
		if f.Paper != nil {
			paper, relation = store.Float64(f.Paper.Value), store.String(f.Paper.Relation)
			if f.Paper.Relation == RelationEqual {
				tolerance = store.Float64(f.Paper.ToleranceFor(f.Metric))
			}
			if f.HasOurs() {
				matches = boolValue(f.Matches)
			}
		}
		figures = append(figures, store.Row{
			store.String(f.Workload), store.String(f.Metric), store.String(f.Policy), store.Int64(int64(f.N)),
			mean, nullIfNaN(f.Low), nullIfNaN(f.High), paper, relation, tolerance, matches,
		})
	}
	return append([]tableRows{
		{tTestSchema, tTests}, {wilcoxonSchema, rankTests}, {dominanceSchema, dominance}, {boxSchema, boxes},
		{byLoadSchema, byLoad}, {decileSchema, deciles}, {figuresSchema, figures},
	}, append(r.campaignTables(expect), r.replicateTables()...)...)
}

type tableRows struct {
	schema store.Schema
	rows   []store.Row
}

// WriteTables writes the analysis as DIR/analysis/<table>.parquet, one file
// per table that has rows, with metadata in each file (the figures table
// compares with expect's values), and returns the paths
// written. It builds the new directory beside the old one and then swaps
// them, so a reader sees the old analysis or the new one, never a mix
// (between the two renames, DIR/analysis is briefly absent).
func WriteTables(dir string, r *Result, expect Expectations, metadata map[string]string) ([]string, error) {
	return writeAnalysisDir(dir, r.tables(expect), metadata)
}

// writeAnalysisDir writes the non-empty tables into a new DIR/analysis
// that replaces the previous one at once, and returns their paths.
func writeAnalysisDir(dir string, tables []tableRows, metadata map[string]string) ([]string, error) {
	temp, err := os.MkdirTemp(dir, ".analysis-new-")
	if err != nil {
		return nil, fmt.Errorf("writing analysis: %w", err)
	}
	defer os.RemoveAll(temp) // a no-op once renamed into place
	var names []string
	for _, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		if err := writeTable(temp, t, metadata); err != nil {
			return nil, fmt.Errorf("writing analysis table %s: %w", t.schema.Table, err)
		}
		names = append(names, t.schema.Table+".parquet")
	}
	final := filepath.Join(dir, AnalysisDir)
	aside, err := os.MkdirTemp(dir, ".analysis-old-")
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
func writeTable(dir string, t tableRows, metadata map[string]string) error {
	w, err := store.NewPartWriter(dir, t.schema, store.WriterOptions{Tag: "analysis", Metadata: metadata})
	if err != nil {
		return err
	}
	for _, row := range t.rows {
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
	if err := os.Rename(part, filepath.Join(dir, t.schema.Table+".parquet")); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dir, t.schema.Table))
}
