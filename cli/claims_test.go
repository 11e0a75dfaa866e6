package cli

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/resultstest"
	"github.com/sweep-sched/sweep/store/parquet"
)

// TestAnalyzeClaimStatuses: a hand-made campaign run named as seed 001's
// study (two instances of users20 under ostrich and fcfs) where, against
// its manifest's paper values,
//
//	over20 share, ostrich: 0.010, 0.016, mean 0.013 = the paper's 0.013: holds
//	short users' max stretch, ostrich: 22, 22.5, mean 22.25 against 12.8,
//	  outside 10%: does not hold, and explained by the registered cause
//	over20 share, fcfs: 0.2, 0.3, mean 0.25 against 0.423 +- 0.0423: does
//	  not hold, no explanation registered
//	short users' max stretch, fcfs: no value in any cell: not checkable
//
// analyze prints each status and writes them to claims.parquet with the
// t intervals over the two instances (t(1, 0.975) = 12.7062047, standard
// errors 0.003 and 0.25); the report carries the summary and the link.
func TestAnalyzeClaimStatuses(t *testing.T) {
	dir := t.TempDir()
	nan := math.NaN()
	cell := func(policy string, instance int64, over20, short float64) resultstest.CampaignCell {
		return resultstest.CampaignCell{ID: policy + string(rune('0'+instance)), Workload: "users20", Policy: policy, Instance: instance,
			Values: map[string]float64{"campaign_stretch_over20_share": over20, "short_user_max_stretch_mean": short}}
	}
	resultstest.WriteCampaignCells(t, dir, []resultstest.CampaignCell{
		cell("ostrich", 0, 0.010, 22), cell("ostrich", 1, 0.016, 22.5),
		cell("fcfs", 0, 0.2, nan), cell("fcfs", 1, 0.3, nan),
	})
	manifest := `experiment: ostrich2013-synthetic
analysis: {reference: ostrich}
expect:
  values:
    users20:
      campaign_stretch_over20_share: {fcfs: 0.423, ostrich: 0.013}
      short_user_max_stretch_mean: {fcfs: "> 50", ostrich: 12.8}
`
	if err := os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"analyze", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("analyze: exit %d; stderr %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"The papers' claims, ostrich2013-synthetic: 1 holds, 1 explained, 1 does not hold, 1 not checkable",
		"holds          users20/campaign_stretch_over20_share/ostrich: paper 0.013, ours 0.013 [-0.02512, 0.05112]",
		"explained      users20/short_user_max_stretch_mean/ostrich: paper 12.8, ours 22.25 [19.07, 25.43]",
		"               the virtual-start hold (the paper's text) gives 22; without it 11.1 +- 0.5 (12.1 at 40 users) (docs/fidelity.md#seed-001-short-users-max-stretch)",
		"does not hold  users20/campaign_stretch_over20_share/fcfs: paper 0.423, ours 0.25 [-0.3853, 0.8853]",
		"not checkable  users20/short_user_max_stretch_mean/fcfs: paper > 50, ours -\n",
		"               no successful cell of fcfs on users20 has a value",
		filepath.Join(dir, "analysis", "claims.parquet"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze output lacks %q:\n%s", want, out)
		}
	}

	set, err := parquet.ReadPart(filepath.Join(dir, "analysis", "claims.parquet"),
		[]string{"study", "claim", "paper_text", "paper_value", "ours_value", "ci95_low", "ci95_high", "status", "reason", "section"})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		claim, status, section string
		paper, ours, low, high float64
	}
	want := map[string]row{
		"users20/campaign_stretch_over20_share/ostrich": {status: "holds", paper: 0.013, ours: 0.013, low: 0.013 - 12.7062047*0.003, high: 0.013 + 12.7062047*0.003},
		"users20/short_user_max_stretch_mean/ostrich":   {status: "explained", section: "seed-001-short-users-max-stretch", paper: 12.8, ours: 22.25, low: 22.25 - 12.7062047*0.25, high: 22.25 + 12.7062047*0.25},
		"users20/campaign_stretch_over20_share/fcfs":    {status: "does-not-hold", paper: 0.423, ours: 0.25, low: 0.25 - 12.7062047*0.05, high: 0.25 + 12.7062047*0.05},
		"users20/short_user_max_stretch_mean/fcfs":      {status: "not-checkable", paper: 50, ours: nan, low: nan, high: nan},
	}
	if set.Rows != len(want) {
		t.Errorf("claims.parquet has %d rows, want %d", set.Rows, len(want))
	}
	float := func(name string, i int) float64 {
		if c := set.Column(name); !c.IsNull(i) {
			return c.Float64s[i]
		}
		return nan
	}
	near := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-6 }
	for i := range set.Rows {
		id := set.Column("claim").Strings[i]
		w, ok := want[id]
		section := ""
		if c := set.Column("section"); !c.IsNull(i) {
			section = c.Strings[i]
		}
		if !ok || set.Column("study").Strings[i] != "ostrich2013-synthetic" || set.Column("status").Strings[i] != w.status || section != w.section ||
			!near(float("paper_value", i), w.paper) || !near(float("ours_value", i), w.ours) || !near(float("ci95_low", i), w.low) || !near(float("ci95_high", i), w.high) {
			t.Errorf("claims.parquet row %s: status %s, section %q, paper %v, ours %v [%v, %v]; want %+v", id, set.Column("status").Strings[i], section,
				float("paper_value", i), float("ours_value", i), float("ci95_low", i), float("ci95_high", i), w)
		}
	}

	stdout.Reset()
	if code := run(context.Background(), []string{"report", dir, "--gantt=false"}, &stdout, &stderr); code != 0 {
		t.Fatalf("report: exit %d; stderr %s", code, stderr.String())
	}
	html, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	summary := "<b>The papers' claims:</b> 1 holds, 1 explained, 1 does not hold, 1 not checkable"
	if i := strings.Index(page, summary); i < 0 || i > strings.Index(page, `<nav class="toc">`) {
		t.Errorf("report lacks the summary line %q before its contents", summary)
	}
	if !strings.Contains(page, `<a href="`+fidelity.SectionURL("seed-001-short-users-max-stretch")+`">docs/fidelity.md#seed-001-short-users-max-stretch</a>`) {
		t.Errorf("report lacks the link to the explained claim's section")
	}
}
