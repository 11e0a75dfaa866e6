package analysis

import (
	"os"
	"strings"
	"testing"
)

func TestParseManifestSections(t *testing.T) {
	manifest := `name: burkimsher2013
sweep: {policies: [pslr, srtf]}   # another section's keys are not ours to check
analysis:
  alpha: 0.01
  base: 1000
  adjust: holm
expect:
  dominance:
    slr_max:
      srtf: {0.8: 54, 1.1: 58}
      fairshare: {1.0: 98.6}
  nonsignificant:
    slr_max: {srtf: [0.8, 1.1]}
`
	settings, expect, err := ParseManifestSections([]byte(manifest), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if settings.Reference != "pslr" || settings.Alpha != 0.01 || settings.BaseTicks == nil || *settings.BaseTicks != 1000 || settings.Adjust != AdjustHolm {
		t.Errorf("settings %+v; want reference pslr (default), alpha 0.01, base 1000, adjust holm", settings)
	}
	if p, ok := expect.PaperPercent("slr_max", "fairshare", 1.0); !ok || p != 98.6 {
		t.Errorf("fairshare at 1.0: %v %v; want 98.6", p, ok)
	}
	if p, ok := expect.PaperPercent("slr_max", "srtf", 0.9); ok {
		t.Errorf("srtf at 0.9: %v; want no value", p)
	}
	for _, tt := range []struct {
		policy            string
		load              float64
		significant, know bool
	}{
		{"srtf", 0.8, false, true},
		{"srtf", 1.1, false, true},
		{"fairshare", 1.0, true, true},
		{"srtf", 1.2, false, false},
	} {
		significant, known := expect.PaperSignificant("slr_max", tt.policy, tt.load)
		if significant != tt.significant || known != tt.know {
			t.Errorf("PaperSignificant(%s, %v) = %v, %v; want %v, %v", tt.policy, tt.load, significant, known, tt.significant, tt.know)
		}
	}

	settings, _, err = ParseManifestSections([]byte("name: x\n"), "m.yaml")
	if err != nil || settings.Reference != DefaultReference || settings.Alpha != DefaultAlpha || settings.BaseTicks != nil || settings.Adjust != AdjustNone {
		t.Errorf("no sections: %+v, %v; want the defaults", settings, err)
	}
}

func TestParseManifestSectionsErrors(t *testing.T) {
	tests := []struct {
		name, manifest, want string
	}{
		{"unknown analysis key", "analysis:\n  alpah: 0.1\n", `m.yaml: line 2: analysis: unknown key "alpah"; valid keys: reference, alpha, base, adjust`},
		{"unknown adjustment", "analysis:\n  adjust: bonferroni\n", `m.yaml: line 2: analysis: adjust: "bonferroni"; want none or holm`},
		{"alpha out of range", "analysis:\n  alpha: 5\n", "m.yaml: line 2: analysis: alpha: 5 is not strictly between 0 and 1"},
		{"unknown expect key", "expect:\n  dominance: {}\n  nonsignficant: {}\n", `m.yaml: line 3: expect: unknown key "nonsignficant"; valid keys: dominance, nonsignificant`},
		{"unknown metric", "expect:\n  dominance:\n    slr_worst: {srtf: {0.8: 54}}\n", `m.yaml: line 3: expect.dominance: unknown metric "slr_worst"`},
		{"descriptive metric", "expect:\n  dominance:\n    jobs: {srtf: {0.8: 54}}\n", `line 3: expect.dominance: unknown metric "jobs"`},
		{"percent over 100", "expect:\n  dominance:\n    slr_max:\n      srtf: {0.8: 540}\n", `m.yaml: expect.dominance.slr_max.srtf: line 4: percent "540"; want a number from 0 to 100`},
		{"bad load", "expect:\n  nonsignificant:\n    slr_max:\n      srtf: [0.8, high]\n", `expect.nonsignificant.slr_max.srtf: line 4: load "high"; want a positive load ratio`},
	}
	for _, tt := range tests {
		_, _, err := ParseManifestSections([]byte(tt.manifest), "m.yaml", testMeasures().Columns...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestPaperExpectations parses the expect block written for
// experiments/burkimsher2013.yaml and checks cells of seed 004's Tables 3
// and 4 against the paper's text.
func TestPaperExpectations(t *testing.T) {
	data, err := os.ReadFile("testdata/burkimsher2013_expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := ParseManifestSections(data, "burkimsher2013_expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, metric := range []string{"slr_max", "slr_mean"} {
		for _, policy := range []string{"lrtf", "srtf", "random", "fifo-task", "fifo-job", "fairshare"} {
			for _, load := range []float64{0.8, 0.9, 1.0, 1.1, 1.2} {
				if _, ok := expect.PaperPercent(metric, policy, load); ok {
					cells++
				}
			}
		}
	}
	if cells != 60 {
		t.Errorf("%d cells; want 60 (two tables of 6 policies by 5 loads)", cells)
	}
	for _, tt := range []struct {
		metric, policy string
		load, percent  float64
		significant    bool
	}{
		{"slr_max", "random", 1.1, 93.3, true},
		{"slr_max", "srtf", 0.9, 47, false},
		{"slr_max", "srtf", 1.2, 57, false},
		{"slr_mean", "srtf", 1.0, 44, false},
		{"slr_mean", "srtf", 1.1, 26, true},
		{"slr_mean", "fifo-task", 0.9, 98.3, true},
		{"slr_mean", "fairshare", 1.2, 99.3, true},
	} {
		percent, _ := expect.PaperPercent(tt.metric, tt.policy, tt.load)
		significant, _ := expect.PaperSignificant(tt.metric, tt.policy, tt.load)
		if percent != tt.percent || significant != tt.significant {
			t.Errorf("%s %s %v: %v%%, significant %v; want %v%%, %v", tt.metric, tt.policy, tt.load, percent, significant, tt.percent, tt.significant)
		}
	}
}
