package analysis

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPrintGolden prints the small run of smallRun beside made-up paper
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
	r, err := Analyze(smallRunDir(t), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	_, expect, err := ParseManifestSections([]byte(`
expect:
  dominance:
    slr_max:
      srtf: {1.0: 40, 1.2: 80}
      lrtf: {1.0: 50}
  nonsignificant:
    slr_max: {lrtf: [1.0]}
`), "expect")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Print(&out, r, expect); err != nil {
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
