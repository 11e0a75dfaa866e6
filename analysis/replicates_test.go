package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/resultstest"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

func TestAnalyzeReplicates(t *testing.T) {
	dir := resultstest.ReplicatedRunDir(t)
	r, err := Analyze(dir, Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Replicates) != 2 {
		t.Fatalf("replicates %v; want [0 1]", r.Replicates)
	}
	// Pooled over both replicates: 8 pairs at 1.0, pslr at least as good
	// in 4 + 3 = 7.
	if row, ok := r.FindDominance("slr_max", "srtf", 1); !ok || row.N != 8 || row.Wins != 7 {
		t.Errorf("pooled srtf at 1.0: %+v; want 7 of 8", row)
	}
	// Spread: 100 and 75; mean 87.5, sample SD 12.5·√2, so the t interval
	// with 1 degree of freedom is 87.5 ± t(1, 0.975)·12.5, where the t
	// quantile with one degree of freedom (Cauchy) is tan(0.475π).
	// scipy 1.10.1: t.interval(0.95, 1, loc=87.5, scale=sem([100, 75]))
	// = (-71.3275592054012, 246.3275592054012).
	s, ok := r.FindSpread("slr_max", "srtf", 1)
	half := 12.5 * math.Tan(0.475*math.Pi)
	if !ok || len(s.Percents) != 2 || s.Percents[0] != 100 || s.Percents[1] != 75 || s.Min != 75 || s.Max != 100 ||
		s.Mean != 87.5 || math.Abs(s.Low-(87.5-half)) > 1e-9 || math.Abs(s.High-(87.5+half)) > 1e-9 {
		t.Errorf("spread of srtf at 1.0: %+v; want 100, 75 in [75, 100], mean 87.5 ± %v", s, half)
	}
	if in, inInterval := s.Contains(80); !in || !inInterval {
		t.Errorf("80 inside [75, 100] and the interval: %v %v", in, inInterval)
	}
	if in, _ := s.Contains(70); in {
		t.Error("70 inside the range [75, 100]")
	}
	// lrtf at 1.0 is 50% in both replicates: a range of one value and a
	// zero-width interval.
	if s, ok := r.FindSpread("slr_max", "lrtf", 1); !ok || s.Min != 50 || s.Max != 50 || s.Low != 50 || s.High != 50 {
		t.Errorf("spread of lrtf at 1.0: %+v; want 50 throughout", s)
	}
	n := 0
	for _, row := range r.ByReplicate {
		if row.Metric == "slr_max" && row.Policy == "srtf" && row.Load == 1 {
			n++
			want := map[int64]int{0: 4, 1: 3}[row.Replicate]
			if row.N != 4 || row.Wins != want {
				t.Errorf("replicate %d srtf at 1.0: %+v; want %d of 4", row.Replicate, row, want)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d per-replicate rows of srtf at 1.0; want 2", n)
	}

	if _, err := WriteDir(dir, append(r.ComparisonTables(), r.ReplicateTables()...)); err != nil {
		t.Fatal(err)
	}
	spread := readAnalysisTable(t, dir, "replicate_spread", "metric", "load", "policy", "dominance_pcts", "min", "max")
	found := false
	for i := range spread.Rows {
		if spread.Columns[0].Strings[i] == "slr_max" && spread.Columns[2].Strings[i] == "srtf" && spread.Columns[1].Float64s[i] == 1 {
			found = true
			if got := spread.Columns[3].Strings[i]; got != "100,75" || spread.Columns[4].Float64s[i] != 75 || spread.Columns[5].Float64s[i] != 100 {
				t.Errorf("replicate_spread srtf at 1.0: %q, min %v, max %v; want 100,75 in [75, 100]", got, spread.Columns[4].Float64s[i], spread.Columns[5].Float64s[i])
			}
		}
	}
	if !found {
		t.Error("replicate_spread has no row for srtf at 1.0")
	}
	byReplicate := readAnalysisTable(t, dir, "replicate_dominance", "replicate", "n")
	if byReplicate.Rows != len(r.ByReplicate) {
		t.Errorf("replicate_dominance has %d rows; want %d", byReplicate.Rows, len(r.ByReplicate))
	}

}

// TestAnalyzeReplicatesMixedParts: a results directory written before
// replicates existed (its part has no replicate column) and then grown by
// a second replicate reads as two replicates: the old part's cells are
// replicate 0.
func TestAnalyzeReplicatesMixedParts(t *testing.T) {
	dir := t.TempDir()
	old := resultstest.CellsSchema()
	old.Columns = slices.DeleteFunc(old.Columns, func(c store.Column) bool { return c.Name == table.Replicate })
	w, err := parquet.NewPartWriter(dir, old, parquet.WriterOptions{Tag: "old"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range resultstest.SmallRun() {
		if c.Failed {
			continue
		}
		row := store.Row{
			store.String(c.ID), store.String("test"), store.String("log-independent"), store.String("gen"),
			store.Int64(c.Instance), store.Float64(c.Load), store.String("grid"), store.String(c.Policy),
			store.Int64(7), store.String("ok"), store.Null(), store.Int64(3),
		}
		row = append(row, c.Metrics()...)
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var second []resultstest.Cell
	for _, c := range resultstest.SmallRun() {
		c.ID += "-r1"
		c.Replicate = 1
		second = append(second, c)
	}
	resultstest.WriteCellsPart(t, dir, "new", nil, second)
	r, err := Analyze(dir, Settings{}, testMeasures())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Replicates, []int64{0, 1}) {
		t.Fatalf("replicates %v; want [0 1]", r.Replicates)
	}
	// Both replicates have SmallRun's numbers: srtf at 1.0 is 100% in each.
	if s, ok := r.FindSpread("slr_max", "srtf", 1); !ok || !slices.Equal(s.Percents, []float64{100, 100}) {
		t.Errorf("spread of srtf at 1.0: %+v; want 100 in both replicates", s)
	}
}
