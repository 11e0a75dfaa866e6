package platform

import (
	"strings"
	"testing"
)

func TestParsePlatform(t *testing.T) {
	p, err := Parse("burkimsher2013")
	if err != nil || p.TotalCores() != 4000 || len(p.Clusters) != 4 || p.Clusters[3].Kind != "Kind2" {
		t.Fatalf("burkimsher2013: %+v %v", p, err)
	}
	if p, err := Parse("single:7"); err != nil || p.TotalCores() != 7 {
		t.Fatalf("single:7: %v %v", p, err)
	}
	for spec, want := range map[string]string{
		"single:0":          "want single:N with N a whole number of cores >= 1",
		"nosuch.yaml":       "not a preset (burkimsher2013, single:N) and no such file",
		"testdata/bad.yaml": `line 4: field nodes not found`,
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	p, err = Parse("testdata/tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.TotalCores(); got != 14 || p.Clusters[2].Name != "e2" || p.Root.Children[1].Name != "east" {
		t.Errorf("tree.yaml: %d cores, clusters %+v", got, p.Clusters)
	}
}
