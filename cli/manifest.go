package cli

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/sweep"
)

// loadManifest loads a manifest with the program's models, checking the
// sections only the analysis reads as well.
func (a *app) loadManifest(path string) (*sweep.Manifest, error) {
	return sweep.LoadManifest(path, sweep.WithModels(a.models), sweep.WithSectionsCheck(analysis.SectionsCheck(allMeasures(a.models))))
}
