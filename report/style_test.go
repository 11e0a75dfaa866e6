package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFigureFiles: every figure of a report links an SVG and a PDF under
// report/figures/ by its stable name, both exist, the PDF is a PDF, and
// the SVG names sans-serif fallbacks after Liberation Sans.
func TestFigureFiles(t *testing.T) {
	page := runAndReport(t, "../sweep/testdata/small.yaml")
	links := regexp.MustCompile(`href="figures/([a-z0-9.-]+)\.svg"`).FindAllStringSubmatch(page, -1)
	var names []string
	for _, l := range links {
		names = append(names, l[1])
	}
	// The five box plots, Fig. 9 and Fig. 7 at the small run's highest load.
	want := []string{"fig06-slr-sd", "fig08-slr-max", "fig10-utilisation", "fig11-cumulative-completion",
		"fig12-peak-in-flight", "fig09-mean-worst-case-slr-by-load", "fig07-mean-slr-by-volume-decile-load-1.2"}
	if !slices.Equal(names, want) {
		t.Fatalf("figure files %q; want %q", names, want)
	}
	dir := reportDirOf(t, page)
	for _, name := range names {
		pdf, err := os.ReadFile(filepath.Join(dir, FiguresDir, name+".pdf"))
		if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("%s.pdf: %v, not a PDF", name, err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, FiguresDir, name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")) {
			t.Errorf("%s.svg: %v, or no sans-serif fallback", name, err)
		}
	}
}

// reportDirOf finds the report directory a test page was written to: its
// provenance-free pages carry no path, so the test's temporary directories
// are searched for the page.
func reportDirOf(t *testing.T, page string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), t.Name()+"*", "*", Dir, "index.html"))
	for _, m := range matches {
		if data, err := os.ReadFile(m); err == nil && string(data) == page {
			return filepath.Dir(m)
		}
	}
	t.Fatalf("no report directory holds the page (looked at %s)", strings.Join(matches, ", "))
	return ""
}

// TestFileName: figure names become stable, lower-case file names.
func TestFileName(t *testing.T) {
	for in, want := range map[string]string{
		"moldable-uniform-weak-C_max": "moldable-uniform-weak-c-max",
		"dev-kth-1996-10-T":           "dev-kth-1996-10-t",
		"Fig. 7 at load 1.2":          "fig.-7-at-load-1.2",
	} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}
