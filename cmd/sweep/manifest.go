package main

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/sweep"
)

// loadManifest loads a manifest with the built-in models, checking the
// sections only the analysis reads as well.
func loadManifest(path string) (*sweep.Manifest, error) {
	return sweep.LoadManifest(path, sweep.WithSectionsCheck(analysis.CheckSections))
}
