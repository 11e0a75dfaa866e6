package report

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/resultstest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPrintGolden prints the small run of resultstest.SmallRun beside made-up paper
// values. The numbers in the golden file follow from TestAnalyzeSmallRun
// (slr_max: pslr dominates srtf 100% at 1.0, 50% at 1.2; lrtf 50% at 1.0;
// slr_mean = slr_max/2 gives the same percentages; no difference is
// significant by either test, so no "!") and from the paper values here:
// srtf 1.0 at 40 lies outside our Wilson interval [51.0, 100] ("x", diff
// +60.0), srtf 1.2 at 80 inside [9.5, 90.5] ("=", diff -30.0, although 30
// points off), lrtf 1.0 at 50 inside [15.0, 85.0] and marked not
// significant (as ours). Fig. 9's pslr mean at 1.0 is 3.5 ± 2.054 (the
// interval of TestAnalyzeSmallRun); at 1.2, (2.5+3.5+3)/3 = 3. The ratios
// are exp of the effects of TestAnalyzeSmallRun: exp(-0.405) = 0.67,
// exp(-0.158) = 0.85, exp(0.0527) = 1.054 (three decimals near 1).
func TestPrintGolden(t *testing.T) {
	expect := expectOf(t, `
expect:
  dominance:
    slr_max:
      srtf: {1.0: 40, 1.2: 80}
      lrtf: {1.0: 50}
  nonsignificant:
    slr_max: {lrtf: [1.0]}
`)
	dir := resultstest.SmallRunDir(t)
	var out bytes.Buffer
	if err := Print(&out, pairedOf(t, dir, analysis.Settings{}, expect)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/print_small.golden", out.Bytes())
	for i, line := range strings.Split(out.String(), "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line %d is %d columns; want at most 100: %q", i+1, len([]rune(line)), line)
		}
	}
}

// checkGolden compares printed output with a golden file; -update rewrites
// the file.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("printed:\n%s\nwant (%s):\n%s", got, golden, want)
	}
}

// TestWrapped: a list too long for one line breaks between items, every
// line at most 100 columns, continuation lines indented by two.
func TestWrapped(t *testing.T) {
	var out bytes.Buffer
	p := &printer{w: &out}
	items := []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)}
	p.wrapped("head:", items)
	want := "head: " + items[0] + ", " + items[1] + ",\n  " + items[2] + "\n"
	if out.String() != want {
		t.Errorf("wrapped:\n%q\nwant\n%q", out.String(), want)
	}
}

// TestPrintCampaignsGolden prints resultstest.CampaignRun beside resultstest.CampaignExpect; the
// numbers are those of package campaign's TestFigureTable.
func TestPrintCampaignsGolden(t *testing.T) {
	dir := t.TempDir()
	resultstest.WriteCampaignCells(t, dir, resultstest.CampaignRun())
	var out bytes.Buffer
	if err := Print(&out, pairedOf(t, dir, analysis.Settings{}, expectOf(t, resultstest.CampaignExpect))); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/print_campaigns.golden", out.Bytes())
}

// TestPrintCampaignComparisonsGolden prints the compared run: the
// orderings under the figures, the campaign-by-campaign comparison with
// its bootstrap intervals and the per-user medians (numbers as in
// package campaign's TestCompareCampaigns and TestOrderings).
func TestPrintCampaignComparisonsGolden(t *testing.T) {
	dir := t.TempDir()
	resultstest.WriteCampaignCells(t, dir, resultstest.CampaignRun())
	resultstest.WriteCampaignRows(t, dir)
	var out bytes.Buffer
	if err := Print(&out, pairedOf(t, dir, analysis.Settings{}, expectOf(t, resultstest.OrderingExpect))); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/print_campaign_comparisons.golden", out.Bytes())
}

// TestPrintReplicates prints ReplicatedRunDir's spread of Table 3: srtf at
// 1.0 is 100% in replicate 0 and 75% in replicate 1 (package analysis's
// TestAnalyzeReplicates), and the paper's 80 lies inside both the range
// and the t interval of the mean.
func TestPrintReplicates(t *testing.T) {
	dir := resultstest.ReplicatedRunDir(t)
	expect := analysis.Expectations{Dominance: map[string]map[string]map[float64]float64{"slr_max": {"srtf": {1: 80}}}}
	var out bytes.Buffer
	if err := Print(&out, pairedOf(t, dir, analysis.Settings{}, expect)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Table 3 across 2 replicates (slr_max)", "100/75", "75.0-100.0", "80 ri",
		"paper inside the replicates' range: 1 of 1 cells; inside the t interval of their mean: 1 of 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("printed output lacks %q:\n%s", want, out.String())
		}
	}
}
