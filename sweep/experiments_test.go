package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExperimentManifestsLoad: every shipped manifest loads, with its
// analysis and expect sections (which the runner keeps without reading);
// a manifest whose trace is not on this machine is skipped, saying so.
func TestExperimentManifestsLoad(t *testing.T) {
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) < 5 {
		t.Fatalf("experiments: %v, %d manifests; want the five studies", err, len(paths))
	}
	for _, path := range paths {
		m, err := LoadManifest(path)
		if err != nil {
			if strings.Contains(err.Error(), "trace:") && strings.Contains(err.Error(), os.ErrNotExist.Error()) {
				t.Logf("%s: skipped, its trace is absent: %v", path, err)
				continue
			}
			t.Errorf("%s: %v", path, err)
			continue
		}
		if len(m.Cells()) == 0 {
			t.Errorf("%s: no cells", path)
		}
	}
}
