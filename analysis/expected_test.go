package analysis

import (
	"math"
	"strings"
	"testing"
)

func TestParseExpected(t *testing.T) {
	tests := []struct {
		text string
		want Expected
	}{
		{"0.423", Expected{Relation: RelationEqual, Value: 0.423}},
		{"> 50", Expected{Relation: RelationGreater, Value: 50}},
		{">=2", Expected{Relation: RelationGreaterEqual, Value: 2}},
		{"< 1.4", Expected{Relation: RelationLess, Value: 1.4}},
		{" <= 0.04 ", Expected{Relation: RelationLessEqual, Value: 0.04}},
		{"6.3 ± 0.5", Expected{Relation: RelationEqual, Value: 6.3, Tolerance: 0.5, ToleranceStated: true}},
		{"6.3 +- 0", Expected{Relation: RelationEqual, Value: 6.3, Tolerance: 0, ToleranceStated: true}},
	}
	for _, tt := range tests {
		got, err := ParseExpected(tt.text)
		if err != nil || got != tt.want {
			t.Errorf("ParseExpected(%q) = %+v, %v; want %+v", tt.text, got, err, tt.want)
		}
	}
	for _, bad := range []string{"≈ 3", "> x", "6.3 ± -1", "", "NaN", "< inf"} {
		if got, err := ParseExpected(bad); err == nil {
			t.Errorf("ParseExpected(%q) = %+v; want an error", bad, got)
		}
	}
}

// TestExpectedMatches checks the bounds and the tolerances: 10% of 12.8 is
// 1.28; a share of 0.013 is widened to 0.02; 10% of the share 0.423 is
// 0.0423, above 0.02.
func TestExpectedMatches(t *testing.T) {
	tests := []struct {
		paper  string
		metric string
		ours   float64
		want   bool
	}{
		{"12.8", "short_user_max_stretch_mean", 13.9, true},  // |1.1| <= 1.28
		{"12.8", "short_user_max_stretch_mean", 14.1, false}, // |1.3| > 1.28
		{"12.8", "short_user_max_stretch_mean", 11.6, true},  // |-1.2| <= 1.28
		{"0.013", "campaign_stretch_over20_share", 0, true},  // |0.013| <= 0.02
		{"0.013", "campaign_stretch_over20_share", 0.034, false},
		{"0.423", "campaign_stretch_over20_share", 0.38, false}, // |0.043| > 0.0423
		{"0.423", "campaign_stretch_over20_share", 0.465, true}, // |0.042| <= 0.0423
		{"6.3 ± 0.5", "long_user_max_stretch_mean", 6.75, true},
		{"6.3 ± 0.5", "long_user_max_stretch_mean", 6.85, false},
		{"> 50", "short_user_max_stretch_mean", 56.2, true},
		{"> 50", "short_user_max_stretch_mean", 50, false},
		{">= 50", "short_user_max_stretch_mean", 50, true},
		{"< 1.4", "campaign_stretch_trimmed_p90", 1, true},
		{"< 1.4", "campaign_stretch_trimmed_p90", 1.4, false},
		{"<= 1.4", "campaign_stretch_trimmed_p90", 1.4, true},
		{"1.12", "campaign_stretch_trimmed_mean", math.NaN(), false},
		{"< 1.4", "campaign_stretch_trimmed_p90", math.NaN(), false},
	}
	for _, tt := range tests {
		e, err := ParseExpected(tt.paper)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Matches(tt.metric, tt.ours); got != tt.want {
			t.Errorf("%q matches %v on %s = %v; want %v (tolerance %v)", tt.paper, tt.ours, tt.metric, got, tt.want, e.ToleranceFor(tt.metric))
		}
	}
}

func TestExpectationsValues(t *testing.T) {
	_, expect, err := ParseManifestSections([]byte(`experiment: x
expect:
  values:
    users10:
      campaign_stretch_over20_share: {fcfs: 0.423, ostrich: 0.013}
      short_user_max_stretch_mean: {fcfs: "> 50"}
    "*":
      short_user_max_stretch_mean: {fcfs: 1, ostrich: "6.8 ± 1"}
`), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		workload, metric, policy string
		want                     string // Expected.String, "" when absent
	}{
		{"users10", "campaign_stretch_over20_share", "fcfs", "0.423"},
		{"users10", "short_user_max_stretch_mean", "fcfs", "> 50"},       // its own entry wins over "*"
		{"users10", "short_user_max_stretch_mean", "ostrich", "6.8 ± 1"}, // from "*"
		{"users4", "short_user_max_stretch_mean", "fcfs", "1"},
		{"users4", "campaign_stretch_over20_share", "fcfs", ""},
	}
	for _, tt := range tests {
		got, ok := expect.PaperValue(tt.workload, tt.metric, tt.policy)
		if tt.want == "" && ok || tt.want != "" && (!ok || got.String() != tt.want) {
			t.Errorf("PaperValue(%s, %s, %s) = %v, %v; want %q", tt.workload, tt.metric, tt.policy, got, ok, tt.want)
		}
	}
}

func TestExpectationsValuesErrors(t *testing.T) {
	tests := []struct{ manifest, want string }{
		{"expect:\n  values:\n    w:\n      stretch_p90: {fcfs: 1}\n", `line 4: expect.values.w: unknown metric "stretch_p90"`},
		{"expect:\n  values:\n    w:\n      campaign_stretch_max:\n        fcfs: \"≈ 3\"\n", `expect.values.w.campaign_stretch_max.fcfs: line 5: "≈ 3"`},
		{"expect:\n  values:\n    w:\n      campaign_stretch_max: {fcfs: \"> x\"}\n", `line 4: "> x"`},
		{"expect:\n  values:\n    w:\n      campaign_stretch_max: {fcfs: [1]}\n", `line 4: want a number or a relation`},
		{"expect:\n  values:\n    w: [1]\n", `line 3: expect.values.w: want a mapping of metric names`},
		{"expect:\n  valuez: {}\n", `line 2: expect: unknown key "valuez"`},
	}
	for _, tt := range tests {
		_, _, err := ParseManifestSections([]byte(tt.manifest), "m.yaml", testMeasures().Columns...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("manifest\n%s: error %v; want one containing %q", tt.manifest, err, tt.want)
		}
	}
}
