package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/analysis/moldable"
	"github.com/sweep-sched/sweep/analysis/rigid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/report"
)

// A modelAnalysis is the analysis `sweep analyze` and `sweep report` run
// for the cells of one model.
type modelAnalysis struct {
	model string // as the runner records it under analysis.ModelsKey
	// analyze adds the model's analysis to run: a section of its own, or
	// its part of a section it shares.
	analyze func(run *analysisRun) error
}

// modelAnalyses are the analyses by model, in the order their sections
// print. A new model's analysis is one line here.
var modelAnalyses = []modelAnalysis{
	{"rigid", analyzeRigid},
	{"moldable", analyzeMoldable},
	{"grid", analyzeGrid},
	{"campaign", analyzeCampaign},
}

// probeModels tells the models of a run that did not record them from its
// cells table's columns, as sweep did before runs recorded their models:
// fair-share measures are the rigid model's, moldable measures the
// moldable model's, and anything else is compared across policies (the
// grid and campaign models, which analyzeGrid then tells apart by the
// cells' loads).
func probeModels(run *analysisRun) ([]string, error) {
	if rigid.IsRun(run.dir) {
		return []string{"rigid"}, nil
	}
	_, err := moldable.Analyze(run.dir)
	switch {
	case err == nil:
		return []string{"moldable"}, nil
	case !errors.Is(err, moldable.ErrNoMeasures):
		return nil, fmt.Errorf("%s: %w", run.name, err)
	}
	return []string{"grid", "campaign"}, nil
}

// analyzeRigid adds seed 003's fair-share tables, which compare each
// month's cells with the paper rather than by paired tests.
func analyzeRigid(run *analysisRun) error {
	r, err := rigid.Analyze(run.dir)
	if err != nil {
		return fmt.Errorf("%s: %w", run.name, err)
	}
	run.sections = append(run.sections, &rigidSection{dir: run.dir, result: r, provenance: run.provenance})
	return nil
}

// analyzeMoldable adds seed 002's ratios per workload, n and algorithm,
// and the paper's claims.
func analyzeMoldable(run *analysisRun) error {
	r, err := moldable.Analyze(run.dir)
	if err != nil {
		return fmt.Errorf("%s: %w", run.name, err)
	}
	run.sections = append(run.sections, &moldableSection{dir: run.dir, result: r, provenance: run.provenance})
	return nil
}

// analyzeGrid adds seed 004's part of the paired section: the SLR by
// job-volume decile. A run whose models were probed has it when some cell
// has a load or no cell is a campaign cell.
func analyzeGrid(run *analysisRun) error {
	s, err := run.pairedSection()
	if err != nil {
		return err
	}
	r := s.run.Comparison
	if run.probed && !r.HasLoads() && len(campaign.Workloads(r)) > 0 {
		return nil
	}
	g, err := grid.Analyze(run.dir, r)
	if err != nil {
		return fmt.Errorf("%s: %w", run.name, err)
	}
	s.run.Grid = g
	return nil
}

// analyzeCampaign adds seeds 000 and 001's part of the paired section:
// the figures of merit, orderings and campaign comparisons.
func analyzeCampaign(run *analysisRun) error {
	s, err := run.pairedSection()
	if err != nil {
		return err
	}
	c, err := campaign.Analyze(run.dir, s.run.Comparison, s.run.Expect)
	if err != nil {
		return fmt.Errorf("%s: %w", run.name, err)
	}
	s.run.Campaign = c
	return nil
}

// pairedSection returns the section the grid and campaign models share,
// comparing the run's cells across policies the first time.
func (run *analysisRun) pairedSection() (*pairedSection, error) {
	if run.paired != nil {
		return run.paired, nil
	}
	r, expect, err := compareRun(run.name, run.dir, run.flags, run.note)
	if err != nil {
		return nil, err
	}
	run.paired = &pairedSection{dir: run.dir, note: run.note, run: report.Paired{Comparison: r, Expect: expect, Provenance: run.provenance}}
	run.sections = append(run.sections, run.paired)
	return run.paired, nil
}

// rigidSection is seed 003's fair-share analysis; it writes no tables of
// its own (its claims go to the claims table).
type rigidSection struct {
	dir        string
	result     *rigid.Result
	provenance *analysis.Provenance
}

func (s *rigidSection) print(w io.Writer) error { return report.PrintFairShare(w, s.result) }

func (s *rigidSection) tables() []analysis.Table { return nil }

func (s *rigidSection) page(_ context.Context, _ bool, claims []fidelity.Claim) (string, error) {
	return report.WriteFairShare(s.dir, s.result, claims, s.provenance)
}

// moldableSection is seed 002's moldable-task analysis.
type moldableSection struct {
	dir        string
	result     *moldable.Result
	provenance *analysis.Provenance
}

func (s *moldableSection) print(w io.Writer) error { return report.PrintMoldable(w, s.result) }

func (s *moldableSection) tables() []analysis.Table { return s.result.Tables() }

func (s *moldableSection) page(_ context.Context, _ bool, claims []fidelity.Claim) (string, error) {
	return report.WriteMoldable(s.dir, s.result, claims, s.provenance)
}

// pairedSection is the comparison of the cells across policies with the
// grid and campaign parts built on it.
type pairedSection struct {
	dir  string
	note io.Writer
	run  report.Paired
	// models replay the worst cells for the page's Gantt charts.
	models *model.Registry
	// ganttFull draws the worst cells' whole schedules (report --gantt-full).
	ganttFull bool
}

func (s *pairedSection) print(w io.Writer) error { return report.Print(w, s.run) }

// tables returns the comparison's tables, the grid's, the campaign's,
// then the per-replicate ones, each with the comparison's settings as
// metadata.
func (s *pairedSection) tables() []analysis.Table {
	r := s.run.Comparison
	tables := r.ComparisonTables()
	if s.run.Grid != nil {
		tables = append(tables, s.run.Grid.Tables()...)
	}
	if s.run.Campaign != nil {
		tables = append(tables, s.run.Campaign.Tables()...)
	}
	tables = append(tables, r.ReplicateTables()...)
	metadata := r.Settings.Metadata()
	for i := range tables {
		tables[i].Metadata = metadata
	}
	return tables
}

// page writes the report, with claims and with each policy's worst cell drawn as a Gantt
// chart when gantts is set and the run has grid cells with a load.
func (s *pairedSection) page(ctx context.Context, gantts bool, claims []fidelity.Claim) (string, error) {
	var links []report.GanttLink
	if gantts && s.run.Grid != nil && s.run.Comparison.HasLoads() {
		var err error
		if links, err = worstGantts(ctx, s.models, s.dir, s.run.Comparison, s.ganttFull, s.note); err != nil {
			return "", err
		}
	}
	run := s.run
	run.Claims = claims
	return report.Write(s.dir, run, links...)
}
