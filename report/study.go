package report

import (
	"context"
	"fmt"
	"io"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
)

// A Study is a model's paper analysis for `sweep analyze` and `sweep
// report`: the tables, figures and claims of the papers that its cells
// reproduce. A study is bound to the name of its model in one place above
// analysis, report and the models (package studies), and the command line
// receives the bindings (cli.Main); a model without a study gets the
// paired comparison of its measures across policies (Run.Paired).
type Study interface {
	// Recognizes reports, from the names of a cells table's columns,
	// whether a run that recorded no models (one written before runs
	// recorded them) holds the model's cells.
	Recognizes(columns []string) bool
	// Analyze adds the study's analysis of the run's cells to run: a
	// section of its own (Run.Add), or its part of the paired section
	// (Run.Paired).
	Analyze(run *Run) error
}

// A PairedStudy is a study built on the paired comparison of the run's
// cells across policies (Run.Paired), which then compares its model's
// measures.
type PairedStudy interface {
	Study
	// Pair sets what the comparison takes from the study, such as a
	// paper's order of policies.
	Pair(m *analysis.Measures)
}

// A Binding binds a study to the name of the model whose cells it
// analyses (model.Model.Name).
type Binding struct {
	Model string
	Study Study
}

// A Section is what one analysis contributes to `sweep analyze` (text and
// tables) and `sweep report` (a page).
type Section interface {
	// Print writes the section's text.
	Print(w io.Writer) error
	// Tables returns the section's analysis tables; nil for a section
	// that writes none.
	Tables() []analysis.Table
	// Claims returns the papers' claims the section checks, with the
	// status the data gives.
	Claims() []fidelity.Claim
	// Page writes the section's page, with claims, as DIR/report/FILE
	// (index.html for a run's first section) and returns its path.
	Page(ctx context.Context, claims []fidelity.Claim, file string) (string, error)
}

// A GanttCell is a policy's worst cell, to draw as a Gantt chart on the
// report's page.
type GanttCell struct {
	Policy, CellID string
	// Measure says, for the chart's title, what the cell is the worst
	// in ("worst-case SLR"), Value its value there.
	Measure string
	Value   float64
	// TicksPerHour scales the chart's time axis: the model's ticks in an
	// hour.
	TicksPerHour int64
}

// Run is the analysis of one results directory: the sections its studies
// add, in the order of the bindings, then the paired comparison of models
// without a study.
type Run struct {
	// Name names the command in errors, Dir is the results directory.
	Name, Dir string
	// Out is the directory the report's folder goes into; "" for Dir.
	Out string
	// Note receives remarks for the user.
	Note io.Writer
	// Probed says that the run recorded no models, which were told from
	// its columns (Study.Recognizes).
	Probed bool
	// Provenance opens every output.
	Provenance *analysis.Provenance
	// Measures are what the paired comparison compares.
	Measures analysis.Measures
	// Compare compares the run's cells across policies on measures, with
	// the settings and paper values of the run's manifest and the
	// command's flags.
	Compare func(measures analysis.Measures) (*analysis.Result, analysis.Expectations, error)
	// Gantts draws worst cells as Gantt charts for the page and returns
	// their links; nil draws none.
	Gantts func(ctx context.Context, worst []GanttCell) ([]GanttLink, error)

	sections []Section
	paired   *PairedSection
}

// Add adds a section.
func (run *Run) Add(s Section) { run.sections = append(run.sections, s) }

// Sections returns the sections added, in order.
func (run *Run) Sections() []Section { return run.sections }

// Paired returns the section of the paired comparison of the run's cells
// across policies, comparing them the first time.
func (run *Run) Paired() (*PairedSection, error) {
	if run.paired != nil {
		return run.paired, nil
	}
	r, expect, err := run.Compare(run.Measures)
	if err != nil {
		return nil, err
	}
	run.paired = &PairedSection{run: run, Paired: Paired{Comparison: r, Expect: expect, Provenance: run.Provenance}}
	run.Add(run.paired)
	return run.paired, nil
}

// PairedSection is the comparison of the run's cells across policies,
// with the parts of the studies built on it.
type PairedSection struct {
	run *Run
	Paired
	// gantt picks the worst cells the page draws; nil for none.
	gantt func(r *analysis.Result) []GanttCell
	// claims are the studies' claims, in the order they were added.
	claims []fidelity.Claim
}

// SetGantts has the page draw the cells that worst picks (see Run.Gantts).
func (s *PairedSection) SetGantts(worst func(r *analysis.Result) []GanttCell) { s.gantt = worst }

// Print writes the comparison with the studies' parts.
func (s *PairedSection) Print(w io.Writer) error { return Print(w, s.Paired) }

// Tables returns the comparison's tables, the grid's, the campaign's,
// then the per-replicate ones, each with the comparison's settings as
// metadata.
func (s *PairedSection) Tables() []analysis.Table {
	r := s.Comparison
	tables := r.ComparisonTables()
	if s.Grid != nil {
		tables = append(tables, s.Grid.Tables()...)
	}
	if s.Campaign != nil {
		tables = append(tables, s.Campaign.Tables()...)
	}
	if s.Nodes != nil {
		tables = append(tables, s.Nodes.Tables()...)
	}
	tables = append(tables, r.ReplicateTables()...)
	metadata := r.Settings.Metadata()
	for i := range tables {
		tables[i].Metadata = metadata
	}
	return tables
}

// OutDir is the directory the report's folder goes into: Out, else Dir.
func (r *Run) OutDir() string {
	if r.Out != "" {
		return r.Out
	}
	return r.Dir
}

// Claims are the claims of the studies built on the comparison.
func (s *PairedSection) Claims() []fidelity.Claim { return s.claims }

// AddClaims adds a study's claims.
func (s *PairedSection) AddClaims(claims ...fidelity.Claim) { s.claims = append(s.claims, claims...) }

// Page writes the report, with claims and with the worst cells a study
// asked for drawn as Gantt charts (when the run's Gantts draws them).
func (s *PairedSection) Page(ctx context.Context, claims []fidelity.Claim, file string) (string, error) {
	var links []GanttLink
	if s.gantt != nil && s.run.Gantts != nil {
		var err error
		if links, err = s.run.Gantts(ctx, s.gantt(s.Comparison)); err != nil {
			return "", err
		}
	}
	run := s.Paired
	run.Claims, run.File = claims, file
	return WriteTo(s.run.Dir, s.run.OutDir(), run, links...)
}

// errorOf wraps err with the run's command name.
func (run *Run) errorOf(err error) error { return fmt.Errorf("%s: %w", run.Name, err) }
