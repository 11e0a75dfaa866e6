package fidelity_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/analysis/moldable"
	"github.com/sweep-sched/sweep/analysis/rigid"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"

	"gopkg.in/yaml.v3"
)

// claimsFile is docs/fidelity-claims.yaml, written by
// experiments/fidelity/claims.py from the five shipped runs.
const claimsFile = "../../docs/fidelity-claims.yaml"

type fileClaim struct {
	Study        string `yaml:"study"`
	Claim        string `yaml:"claim"`
	Status       string `yaml:"status"`
	Reason       string `yaml:"reason"`
	Section      string `yaml:"section"`
	ReproducedBy string `yaml:"reproduced_by"`
}

func readClaimsFile(t *testing.T) []fileClaim {
	t.Helper()
	data, err := os.ReadFile(claimsFile)
	if err != nil {
		t.Fatal(err)
	}
	var claims []fileClaim
	if err := yaml.Unmarshal(data, &claims); err != nil {
		t.Fatalf("%s: %v", claimsFile, err)
	}
	return claims
}

// TestExplanationsMatchClaimsFile: the explanations built into sweep are
// exactly the entries of docs/fidelity-claims.yaml that do not hold, with
// the same status, reason, section and reproducing setting, and every
// section is an anchor of docs/fidelity.md. The file's header counts
// (141 hold, 24 explained, 3 do not hold on the shipped runs) bound it.
func TestExplanationsMatchClaimsFile(t *testing.T) {
	registered, err := fidelity.Registered()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/fidelity.md")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	seen := 0
	for _, c := range readClaimsFile(t) {
		counts[c.Status]++
		e, ok := registered[[2]string{c.Study, c.Claim}]
		if c.Status == string(fidelity.Holds) {
			if ok {
				t.Errorf("%s %s holds on the shipped run but has an explanation", c.Study, c.Claim)
			}
			continue
		}
		if !ok {
			t.Errorf("%s %s is %s in %s but has no explanation in explanations.yaml", c.Study, c.Claim, c.Status, claimsFile)
			continue
		}
		seen++
		got := fileClaim{Study: e.Study, Claim: e.Claim, Status: string(e.Status), Reason: e.Reason, Section: e.Section, ReproducedBy: e.ReproducedBy}
		if got != c {
			t.Errorf("explanation of %s %s:\n got %+v\nwant %+v (%s)", c.Study, c.Claim, got, c, claimsFile)
		}
		if !strings.Contains(string(doc), "{#"+e.Section+"}") {
			t.Errorf("%s %s: section %q is not an anchor of docs/fidelity.md", c.Study, c.Claim, e.Section)
		}
	}
	if seen != len(registered) {
		t.Errorf("%d explanations, %d of them in %s", len(registered), seen, claimsFile)
	}
	if counts["holds"] != 141 || counts["explained"] != 24 || counts["does-not-hold"] != 3 || len(registered) != 27 {
		t.Errorf("claims file counts %v, %d explanations; want 141 hold, 24 explained, 3 do not hold, 27 explanations", counts, len(registered))
	}
}

// TestClaimIDsAreAnalyzeIDs: every claim id of docs/fidelity-claims.yaml,
// hence every explanation's, is one that analyze gives a claim of the
// shipped studies: seed 004's from the cells of expect.dominance, the
// campaign studies' from expect.values and expect.orderings over the
// manifests' workload labels, seed 002's and 003's from the claims their
// analyses check on a run with every workload, n and month they name.
func TestClaimIDsAreAnalyzeIDs(t *testing.T) {
	produced := map[string][]string{
		"burkimsher2013":        gridIDs(t),
		"ostrich2013-lpc-egee":  campaignIDs(t, "ostrich2013-lpc-egee"),
		"ostrich2013-synthetic": campaignIDs(t, "ostrich2013-synthetic"),
		"dutot2004":             ids(moldableRun().FidelityClaims()),
		"vasupongayya2012":      ids(rigidRun().FidelityClaims()),
	}
	if n := len(produced["dutot2004"]); n != 15 {
		t.Errorf("seed 002: %d claims on a run of every workload, want the 15 of the claims file", n)
	}
	for _, c := range readClaimsFile(t) {
		if !slices.Contains(produced[c.Study], c.Claim) {
			t.Errorf("%s %q is not a claim id analyze gives", c.Study, c.Claim)
		}
	}
}

func ids(claims []fidelity.Claim) []string {
	var out []string
	for _, c := range claims {
		out = append(out, c.ID)
	}
	return out
}

func manifestExpect(t *testing.T, study string) (analysis.Expectations, []string) {
	t.Helper()
	path := filepath.Join("../../experiments", study+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := analysis.ParseManifestSections(data, path)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Workloads []struct {
			Label string `yaml:"label"`
		} `yaml:"workloads"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, w := range m.Workloads {
		labels = append(labels, w.Label)
	}
	return expect, labels
}

func gridIDs(t *testing.T) []string {
	expect, _ := manifestExpect(t, "burkimsher2013")
	var out []string
	for metric, policies := range expect.Dominance {
		for policy, loads := range policies {
			for load := range loads {
				out = append(out, grid.ClaimID("dominance", metric, policy, load), grid.ClaimID("significance", metric, policy, load))
			}
		}
	}
	return out
}

func campaignIDs(t *testing.T, study string) []string {
	expect, labels := manifestExpect(t, study)
	workloads := func(key string) []string {
		if key == analysis.AnyWorkload {
			return labels
		}
		return []string{key}
	}
	var out []string
	for key, metrics := range expect.Values {
		for metric, policies := range metrics {
			for policy := range policies {
				for _, w := range workloads(key) {
					out = append(out, campaign.FigureClaimID(w, metric, policy))
				}
			}
		}
	}
	for key, metrics := range expect.Orderings {
		for metric, orderings := range metrics {
			for _, o := range orderings {
				for _, w := range workloads(key) {
					out = append(out, campaign.OrderingClaimID(w, metric, o))
				}
			}
		}
	}
	return out
}

// moldableRun is a run of seed 002's four workloads at two n under its six
// algorithms, every ratio 1.5: every claim is checked.
func moldableRun() *moldable.Result {
	var cells []moldable.Cell
	for _, g := range []string{"uniform-weak", "uniform-high", "mixed", "cirne-berman"} {
		for _, n := range []int64{25, 50} {
			for _, alg := range emoldable.Algorithms() {
				cells = append(cells, moldable.Cell{Generator: "dutot2004/" + g, Workload: g, Algorithm: alg, Tasks: n,
					Cmax: 1.5, SumWC: 1.5, CmaxBound: 1, SumWCBound: 1})
			}
		}
	}
	return moldable.Summarize(cells)
}

// rigidRun is a fair-share run of the months seed 003's claims name
// (KTH 10/96, 11/96, SDSC 06/00) under both variants and policies.
func rigidRun() *rigid.Result {
	r := &rigid.Result{}
	for _, tm := range [][2]string{{"kth", "1996-10"}, {"kth", "1996-11"}, {"sdsc", "2000-06"}} {
		for _, v := range []string{"T", "R"} {
			for _, p := range []string{rigid.RelShare, rigid.TradeoffFS} {
				r.Cells = append(r.Cells, rigid.Cell{ID: tm[0] + tm[1] + v + p, Trace: tm[0], Month: tm[1], Variant: v, Policy: p,
					TopUser: 3, TotalAbsDev: 1000, WaitMaxHours: 10})
			}
		}
	}
	return r
}

// TestExplain: a registered explanation turns a claim that does not hold
// into its status with its reason and section, and leaves a claim that
// holds, a claim that is not checkable and a claim of another study alone.
func TestExplain(t *testing.T) {
	explanations, err := fidelity.ParseExplanations([]byte(`
- study: "s"
  claim: "w/m/a"
  status: "explained"
  reason: "the cut"
  section: "sec"
  reproduced_by: "campaign: {cut: 4}"
- {study: s, claim: w/m/b, status: does-not-hold, reason: "no setting", section: sec}
- {study: s, claim: w/m/c, status: explained, reason: "r", section: sec}
- {study: s, claim: w/m/d, status: explained, reason: "r", section: sec}
`), "test")
	if err != nil {
		t.Fatal(err)
	}
	claims := []fidelity.Claim{
		fidelity.Checked("w/m/a", "", "1", "2", false),
		fidelity.Checked("w/m/b", "", "1", "2", false),
		fidelity.Checked("w/m/c", "", "1", "1", true),
		fidelity.Checked("w/m/d", "", "1", "", false).NotChecked("no value"),
		fidelity.Checked("w/m/e", "", "1", "2", false),
	}
	got := fidelity.Explain("s", claims, explanations)
	want := []struct {
		status  fidelity.Status
		reason  string
		section string
	}{
		{fidelity.Explained, "the cut", "sec"},
		{fidelity.DoesNotHold, "no setting", "sec"},
		{fidelity.Holds, "", ""},
		{fidelity.NotCheckable, "no value", ""},
		{fidelity.DoesNotHold, "", ""},
	}
	for i, w := range want {
		if g := got[i]; g.Study != "s" || g.Status != w.status || g.Reason != w.reason || g.Section != w.section {
			t.Errorf("%s: got %s %q %q, want %s %q %q", g.ID, g.Status, g.Reason, g.Section, w.status, w.reason, w.section)
		}
	}
	if got[0].ReproducedBy != "campaign: {cut: 4}" || !math.IsNaN(got[0].Low) {
		t.Errorf("explained claim: reproduced by %q, interval %v-%v", got[0].ReproducedBy, got[0].Low, got[0].High)
	}
	if s := fidelity.Summary(got); s != "1 holds, 1 explained, 2 do not hold, 1 not checkable" {
		t.Errorf("summary %q", s)
	}
	if other := fidelity.Explain("other", claims[:1], explanations); other[0].Status != fidelity.DoesNotHold {
		t.Errorf("another study's claim: %s, want it left does-not-hold", other[0].Status)
	}
}

// TestParseExplanationsErrors: a bad entry is named by its line.
func TestParseExplanationsErrors(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"- {study: s, claim: c, status: holds, reason: r, section: x}", `line 1: status "holds"; want explained or does-not-hold`},
		{"- {study: s, claim: c, status: explained, reason: r}", "line 1: s c: an explanation needs a reason and the section"},
		{"- {study: s, claim: c, status: explained, reason: r, section: x, because: y}", `line 1: unknown key "because"`},
		{"- {study: s, claim: c, status: explained, reason: r, section: x}\n- {study: s, claim: c, status: explained, reason: r, section: x}", "line 2: s c is explained twice"},
		{"study: s", "line 1: want a list of explanations"},
	} {
		_, err := fidelity.ParseExplanations([]byte(tt.yaml), "x.yaml")
		if err == nil || !regexp.MustCompile(regexp.QuoteMeta("x.yaml: "+tt.want)).MatchString(err.Error()) {
			t.Errorf("%q: error %v, want %q", tt.yaml, err, tt.want)
		}
	}
}
