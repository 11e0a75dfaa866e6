package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/moldable"
	"github.com/sweep-sched/sweep/sweep"
)

// runAndReport runs a test manifest of package sweep, analyses it and
// writes its report; it returns the page.
func runAndReport(t *testing.T, manifest string) string {
	t.Helper()
	m, err := sweep.LoadManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := sweep.Run(context.Background(), m, sweep.RunOptions{Out: dir, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	settings, expect, err := analysis.ParseManifestSections(data, manifest)
	if err != nil {
		t.Fatal(err)
	}
	path, err := Write(dir, pairedOf(t, dir, settings, expect))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

var svgElement = regexp.MustCompile(`(?s)<svg.*?</svg>`)

// checkFigures checks that the page has exactly the titled figures, in
// order, each followed by its SVG, and that every SVG is well-formed XML
// with a root svg element that draws something.
func checkFigures(t *testing.T, page string, titles []string) {
	t.Helper()
	svgs := svgElement.FindAllString(page, -1)
	if len(svgs) != len(titles) {
		t.Fatalf("%d SVG figures; want %d (%s)", len(svgs), len(titles), strings.Join(titles, "; "))
	}
	at := 0
	for i, title := range titles {
		// The caption, not the table of contents, which lists the titles too.
		k := strings.Index(page[at:], "<figcaption>"+title)
		if k < 0 {
			t.Fatalf("figure %d %q missing, or out of order", i, title)
		}
		at += k
		if !strings.HasPrefix(page[at+strings.Index(page[at:], "<svg"):], svgs[i]) {
			t.Errorf("figure %q is not followed by SVG %d", title, i)
		}
		dec := xml.NewDecoder(strings.NewReader(svgs[i]))
		var root string
		elements := 0
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("figure %q: SVG is not well-formed XML: %v", title, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
				}
				elements++
			}
		}
		if root != "svg" || elements < 10 {
			t.Errorf("figure %q: root <%s>, %d elements; want an <svg> that draws", title, root, elements)
		}
	}
}

// TestReportFiguresDAG: the small DAG run (two loads, job rows kept) gets
// the five box plots of seed 004, Fig. 9 and Fig. 7 at its highest load.
func TestReportFiguresDAG(t *testing.T) {
	page := runAndReport(t, "../sweep/testdata/small.yaml")
	var titles []string
	for _, f := range boxFigures {
		titles = append(titles, f.title)
	}
	titles = append(titles, "Fig. 9: mean worst-case SLR by load", "Fig. 7: mean SLR by decile of job volume at load 1.2")
	checkFigures(t, page, titles)
	checkOpensOnResults(t, page, false, false)
}

// claimsBlock is the opening of the collapsed claims block, with its
// counts in its summary.
var claimsBlock = regexp.MustCompile(`<details class="claims" id="claims"><summary><h2>The papers' claims: (\d+ hold|\d+ do not hold|\d+ explained|\d+ not checkable)[^<]*</h2>`)

// checkOpensOnResults checks that a report page opens on results (issue
// 35: the report opened with 120 claim rows, 9,400 px, before its first
// table or figure): the provenance collapsed to one line, the claims
// block collapsed with its counts and after every result table and
// figure, so that the first table or figure is on the first screen.
func checkOpensOnResults(t *testing.T, page string, claims, provenance bool) {
	t.Helper()
	loc := claimsBlock.FindStringIndex(page)
	if !claims {
		if loc != nil || strings.Contains(page, "claims") {
			t.Errorf("claims on a page without any")
		}
		loc = []int{len(page), len(page)}
	}
	if loc == nil {
		t.Fatalf("no collapsed claims block with its counts")
	}
	if claims && strings.Count(page, "<details class=\"claims\"") != 1 {
		t.Errorf("%d claims blocks; want one", strings.Count(page, "<details class=\"claims\""))
	}
	results := regexp.MustCompile(`<table>|<figure`).FindAllStringIndex(page, -1)
	if len(results) == 0 || results[0][0] > loc[0] {
		t.Errorf("the first result table or figure comes after the claims block")
	}
	prov := strings.Index(page, `<details class="provenance"><summary><b>Provenance:</b> `)
	if provenance && (prov < 0 || strings.Index(page, `<table class="provenance">`) < prov) {
		t.Errorf("the provenance table is not collapsed under a one-line summary")
	}
	if tail := page[loc[0]:]; strings.Contains(tail, "<figure") {
		t.Errorf("a figure comes after the claims block")
	}
}

// TestReportFiguresCampaigns: the small campaign run gets the stretch ECDF
// of each campaign workload, and the per-user max stretch by profile for
// the synthetic one (the trace's users have no profile).
func TestReportFiguresCampaigns(t *testing.T) {
	page := runAndReport(t, "../sweep/testdata/campaigns.yaml")
	checkFigures(t, page, []string{
		"Campaign stretch distribution, head (seed 000 Figs. 5, 6)",
		"Campaign stretch distribution, synth (seed 000 Figs. 5, 6)",
		"Max campaign stretch per user by profile, synth (seed 001 Fig. 2b)",
	})
	if bytes.Contains([]byte(page), []byte("http://")) && !strings.Contains(page, "http://www.w3.org/") {
		t.Error("report references a remote resource; it must open offline")
	}
}

// TestReportFiguresMoldable: the small moldable run gets, per workload,
// seed 002's two panels (C_max and minsum ratio against n) and the table
// of the paper's claims.
func TestReportFiguresMoldable(t *testing.T) {
	m, err := sweep.LoadManifest("../sweep/testdata/moldable.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := sweep.Run(context.Background(), m, sweep.RunOptions{Out: dir, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	r, err := moldable.Analyze(dir)
	if err != nil {
		t.Fatal(err)
	}
	path, err := WriteMoldable(dir, r, fidelity.Explain("moldable", r.FidelityClaims(), nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, string(page), []string{
		"uniform-high: C_max ratio against n", "uniform-high: minsum ratio against n",
		"cirne-berman: C_max ratio against n", "cirne-berman: minsum ratio against n",
		"Run time of DEMT against n",
	})
	// The run has the high and Cirne-Berman workloads at one n: their
	// claims about the best minsum algorithm are checked, with numbers.
	if !regexp.MustCompile(`DEMT is the best on minsum</span></td><td>as the text says</td><td>at [01] of 1 n</td>`).Match(page) {
		t.Errorf("report lacks the claim on the best minsum algorithm with its evidence")
	}
	checkOpensOnResults(t, string(page), true, false)
}

// The provenance block opens a page as one line, its table collapsed
// (issue 35): the experiment, its cells and the sweep that ran them.
func TestProvenanceCollapsed(t *testing.T) {
	p := &analysis.Provenance{Experiment: "burkimsher2013", RootSeed: "2013", SweepVersions: []string{"v1.2"}, PlanKnown: true,
		Workloads: []analysis.WorkloadProgress{{Workload: "fan", Done: 139, Failed: 1, Planned: 140}, {Workload: "log", Done: 140, Planned: 140}}}
	html, err := provenanceHTML(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `<details class="provenance"><summary><b>Provenance:</b> burkimsher2013, 279 of 280 cells (1 failed), root seed 2013, run by sweep v1.2 (click for the manifest&#39;s hash, versions and run time)</summary>
<table class="provenance">`
	if !strings.HasPrefix(string(html), want) || !strings.HasSuffix(string(html), "</table></details>\n") {
		t.Errorf("got\n%s\nwant it to start with\n%s", html, want)
	}
}
