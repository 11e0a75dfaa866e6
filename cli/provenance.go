package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/sweep"
)

// runProvenance reads the provenance of the results directory dir: its
// cells table, and its manifest copy expanded into the planned cells. A
// copy that cannot be loaded (no copy, a trace moved since the run)
// leaves the plan unknown, which the provenance says.
func (a *app) runProvenance(dir string, partial bool) (*analysis.Provenance, error) {
	var planned []analysis.PlannedCell
	note := ""
	m, err := a.runManifest(dir, "")
	if err == nil {
		planned = []analysis.PlannedCell{}
		for _, c := range m.Cells() {
			planned = append(planned, analysis.PlannedCell{ID: c.ID, Workload: c.Workload})
		}
	} else {
		note = "the manifest copy cannot be expanded: " + err.Error()
	}
	p, err := analysis.ReadProvenance(dir, planned, note)
	if err != nil {
		return nil, err
	}
	p.AnalyzedWith = toolVersion()
	p.Manifest = filepath.Join(dir, "manifest.yaml")
	if data, err := os.ReadFile(p.Manifest); err == nil {
		if origin := sweep.CopiedFrom(data); origin != "" {
			p.Manifest = origin
		}
	}
	if m != nil {
		p.Experiment = m.Experiment
		p.RootSeed = strconv.FormatUint(m.Seed, 10)
		p.Replicates = m.ReplicateCount()
		if p.ManifestSHA256 == "" {
			p.ManifestSHA256 = m.Hash()
		}
	}
	p.Partial = partial && len(p.Incomplete()) > 0
	return p, nil
}

// unfinishedError is the refusal to analyse an unfinished run: the cells
// done and planned per workload, and the two ways on.
func unfinishedError(name, dir string, p *analysis.Provenance) error {
	done, failed, planned := p.Totals()
	var lines []string
	for _, w := range p.Workloads {
		line := fmt.Sprintf("  %s: %d of %d cells done", w.Workload, w.Done, w.Planned)
		if w.Failed > 0 {
			line += fmt.Sprintf(", %d failed", w.Failed)
		}
		if !w.Complete() {
			line += " (incomplete)"
		}
		lines = append(lines, line)
	}
	return fmt.Errorf("%s: %s is unfinished: %d of %d cells done (%d failed); per workload:\n%s\n"+
		"finish it (rerun the same `sweep run`, with --retry-failed for failed cells), or give --partial to analyse what is there",
		name, dir, done, planned, failed, strings.Join(lines, "\n"))
}
