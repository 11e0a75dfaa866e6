package campaign

import (
	"math"
	"testing"
)

// TestQuantile: reference values of numpy.quantile (default "linear",
// Hyndman-Fan type 7) on [1, 2, 3, 4]: q=0.9 -> 3.7, q=0.5 -> 2.5,
// q=0.99 -> 3.97, q=0 -> 1, q=1 -> 4.
func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ q, want float64 }{{0.9, 3.7}, {0.5, 2.5}, {0.99, 3.97}, {0, 1}, {1, 4}} {
		if got := Quantile(xs, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v, %g) = %g, want %g", xs, tc.q, got, tc.want)
		}
	}
}

// TestSummarize on hand rows: stretches s: 1 (exact), 30, 2000, 3 for a
// short user S (1, 30) and long users L1 (2000) and L2 (3).
// mean = 2034/4 = 508.5; over 20: 30 and 2000, 1/2; outliers > 1000:
// 2000, 1/4; trimmed {1, 3, 30}: mean 34/3, exact1 1/3, median 3;
// per-user max: S 30, L1 2000, L2 3: all 2033/3, short 30, long 1001.5.
func TestSummarize(t *testing.T) {
	rows := []Row{
		{User: "S", Profile: ProfileShort, Stretch: 1, Exact1: true},
		{User: "S", Profile: ProfileShort, Stretch: 30},
		{User: "L1", Profile: ProfileLong, Stretch: 2000},
		{User: "L2", Profile: ProfileLong, Stretch: 3},
	}
	s := Summarize(rows)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", s.StretchMean, 508.5},
		{"max", s.StretchMax, 2000},
		{"over20", s.Over20Share, 0.5},
		{"outliers", s.OutlierShare, 0.25},
		{"trimmed mean", s.TrimmedMean, 34.0 / 3},
		{"trimmed exact1", s.TrimmedExact1, 1.0 / 3},
		{"trimmed p50", s.TrimmedP50, 3},
		{"user max", s.UserMaxMean, 2033.0 / 3},
		{"short user max", s.ShortUserMaxMean, 30},
		{"long user max", s.LongUserMaxMean, 1001.5},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	cols := SummaryColumns()
	if cols[0].Name != "campaigns" || cols[0].Int(&s) != 4 {
		t.Errorf("first column %s = %d, want campaigns = 4", cols[0].Name, cols[0].Int(&s))
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			t.Errorf("column %s twice", c.Name)
		}
		seen[c.Name] = true
	}
	if got := cols[3].Float(&s); cols[3].Name != "campaign_stretch_over20_share" || got != 0.5 {
		t.Errorf("column %s = %g, want campaign_stretch_over20_share = 0.5", cols[3].Name, got)
	}
}
