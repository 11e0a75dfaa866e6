package report

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/analysis/moldable"
	"github.com/sweep-sched/sweep/analysis/rigid"
	"github.com/sweep-sched/sweep/model"
	mrigid "github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/store/table"
)

// FairShareStudy is the rigid model's study. Seed 003's trace months
// (Vasupongayya et al. 2012) get its fair-share tables, which compare each
// month's cells with the paper rather than by paired tests; every other
// rigid cell (a whole trace, a window, a Batsim or generated workload, at
// its recorded arrivals or at a load) the paired comparison of the
// model's measures per load, with the mean bounded slowdown against the
// offered load drawn one line per policy and the achieved-load check.
type FairShareStudy struct{}

// Recognizes a run with the fair-share deviation among its columns.
func (FairShareStudy) Recognizes(columns []string) bool {
	return slices.Contains(columns, table.FairTotalAbsDev)
}

// Pair leaves the trace months out of the comparison and compares with
// fcfs-easy by default.
func (FairShareStudy) Pair(m *analysis.Measures) {
	m.Leave = isRigidMonth
	m.References = append([]string{rigid.FCFSEasy}, slices.DeleteFunc(m.References, func(r string) bool { return r == rigid.FCFSEasy })...)
}

// Analyze adds the paired section when the run has rigid cells that are
// not trace months (first, so that the report's page is the load
// study's), then the fair-share section when it has trace months.
func (FairShareStudy) Analyze(run *Run) error {
	r, err := rigid.Analyze(run.Dir)
	if errors.Is(err, analysis.ErrNoCells) {
		// A directory without cells (probed as every paired study's):
		// the comparison says what it lacks.
		_, err = run.Paired()
		return err
	}
	if err != nil {
		return run.errorOf(err)
	}
	months := slices.DeleteFunc(slices.Clone(r.Cells), func(c rigid.Cell) bool { return c.Month == "" })
	if len(months) < len(r.Cells) {
		s, err := run.Paired()
		if err != nil {
			return err
		}
		s.Measures = append(s.Measures, mrigid.Model{}.Measures()...)
		if s.Comparison.HasLoads() {
			s.Figures = append(s.Figures, model.Figure{Kind: model.MeanByLoadPerWorkload, Measure: rigidBSLDMean,
				Title: "mean bounded slowdown (tau = 10 s, lower is better) against offered load, one line per policy, with 95% confidence intervals"})
		} else {
			// Every cell at its recorded arrivals: no load axis to draw on.
			s.Figures = append(s.Figures, model.Figure{Kind: model.BoxByPolicy, Measure: rigidBSLDMean,
				Title: "mean bounded slowdown (tau = 10 s, lower is better) of each cell, by policy"})
		}
		s.AchievedLoads = achievedLoads(s.Comparison)
		u, err := rigid.AnalyzeNodes(run.Dir, s.Comparison)
		if err != nil {
			return run.errorOf(err)
		}
		if u != nil {
			s.Nodes = u
			s.SetGantts(worstRigidCells)
		}
	}
	if len(months) > 0 {
		r.Cells = months
		run.Add(&fairShareSection{dir: run.OutDir(), result: r, provenance: run.Provenance})
	}
	return nil
}

// fairShareSection writes no tables of its own (its claims go to the
// claims table).
type fairShareSection struct {
	dir        string
	result     *rigid.Result
	provenance *analysis.Provenance
}

func (s *fairShareSection) Print(w io.Writer) error  { return PrintFairShare(w, s.result) }
func (s *fairShareSection) Tables() []analysis.Table { return nil }
func (s *fairShareSection) Claims() []fidelity.Claim { return s.result.FidelityClaims() }
func (s *fairShareSection) Page(_ context.Context, claims []fidelity.Claim, file string) (string, error) {
	return writeFairShare(s.dir, file, s.result, claims, s.provenance)
}

// MoldableStudy is seed 002's study (Dutot et al. 2004) of moldable
// cells: the ratios per workload, n and algorithm, and the paper's claims.
type MoldableStudy struct{}

// Recognizes a run with moldable lower bounds among its columns.
func (MoldableStudy) Recognizes(columns []string) bool {
	return slices.Contains(columns, table.MoldableCmaxBound)
}

// Analyze adds the moldable section.
func (MoldableStudy) Analyze(run *Run) error {
	r, err := moldable.Analyze(run.Dir)
	if err != nil {
		return run.errorOf(err)
	}
	run.Add(&moldableSection{dir: run.OutDir(), result: r, provenance: run.Provenance})
	return nil
}

type moldableSection struct {
	dir        string
	result     *moldable.Result
	provenance *analysis.Provenance
}

func (s *moldableSection) Print(w io.Writer) error  { return PrintMoldable(w, s.result) }
func (s *moldableSection) Tables() []analysis.Table { return s.result.Tables() }
func (s *moldableSection) Claims() []fidelity.Claim { return s.result.FidelityClaims() }
func (s *moldableSection) Page(_ context.Context, claims []fidelity.Claim, file string) (string, error) {
	return writeMoldable(s.dir, file, s.result, claims, s.provenance)
}

// ticksPerHour is 3600: seed 004's tick is one second (its work is in
// core-seconds).
const ticksPerHour = 3600

// worstMeasure is the measure whose worst cell per policy the report
// draws: seed 004's worst-case SLR.
const worstMeasure = "slr_max"

// GridStudy is seed 004's study (Burkimsher et al. 2013) of DAG cells,
// built on the paired comparison: Tables 3 and 4 in the paper's order of
// policies, the SLR by job-volume decile, each policy's worst cell drawn
// as a Gantt chart.
type GridStudy struct{}

// Recognizes a run with schedule measures among its columns; a run that
// recorded no models holds DAG cells, campaign cells or both.
func (GridStudy) Recognizes(columns []string) bool { return slices.Contains(columns, worstMeasure) }

// Pair orders the policies as seed 004's tables do.
func (GridStudy) Pair(m *analysis.Measures) { m.PolicyOrder = grid.PolicyOrder() }

// Analyze adds seed 004's part of the paired section. A run whose models
// were probed has it when some cell has a load or no cell is a campaign
// cell.
func (GridStudy) Analyze(run *Run) error {
	s, err := run.Paired()
	if err != nil {
		return err
	}
	r := s.Comparison
	if run.Probed && !r.HasLoads() && len(campaign.Workloads(r)) > 0 {
		return nil
	}
	g, err := grid.Analyze(run.Dir, r)
	if err != nil {
		return run.errorOf(err)
	}
	s.Grid = g
	if r.HasLoads() {
		s.AddClaims(grid.FidelityClaims(r, s.Expect)...)
		s.SetGantts(worstGridCells)
	}
	return nil
}

// worstGridCells are each policy's cell of the largest worst-case SLR.
func worstGridCells(r *analysis.Result) []GanttCell {
	var out []GanttCell
	for _, w := range grid.WorstCells(r, worstMeasure) {
		out = append(out, GanttCell{Policy: w.Policy, CellID: w.Cell.ID, Measure: "worst-case SLR", Value: w.Value, TicksPerHour: ticksPerHour})
	}
	return out
}

// worstRigidMeasure is the measure whose worst cell per policy the
// report draws for cells on nodes.
const worstRigidMeasure = rigidBSLDMean

// worstRigidCells are each policy's cell of the largest mean bounded
// slowdown.
func worstRigidCells(r *analysis.Result) []GanttCell {
	var out []GanttCell
	for _, w := range grid.WorstCells(r, worstRigidMeasure) {
		out = append(out, GanttCell{Policy: w.Policy, CellID: w.Cell.ID, Measure: "mean bounded slowdown", Value: w.Value, TicksPerHour: 3600})
	}
	return out
}

// CampaignStudy is seeds 000 and 001's study (OStrich, 2013) of
// campaign cells, built on the paired comparison: the figures of merit,
// orderings and campaign comparisons.
type CampaignStudy struct{}

// Recognizes the schedule measures that campaign cells share with DAG
// cells, as GridStudy does.
func (CampaignStudy) Recognizes(columns []string) bool { return slices.Contains(columns, worstMeasure) }

// Pair leaves the comparison as the models declare it.
func (CampaignStudy) Pair(*analysis.Measures) {}

// Analyze adds the campaign part of the paired section.
func (CampaignStudy) Analyze(run *Run) error {
	s, err := run.Paired()
	if err != nil {
		return err
	}
	c, err := campaign.Analyze(run.Dir, s.Comparison, s.Expect)
	if err != nil {
		return run.errorOf(err)
	}
	s.Campaign = c
	s.AddClaims(c.FidelityClaims()...)
	return nil
}

// ComparePaired adds the paired comparison of the measures of models
// without a study: a dominance table and the means of each ranked measure
// in the text, and on the page the figures the models ask for
// (model.Figured), else a box plot of each ranked measure.
func ComparePaired(run *Run, models ...model.Model) error {
	s, err := run.Paired()
	if err != nil {
		return err
	}
	for _, m := range models {
		s.Measures = append(s.Measures, m.Measures()...)
		s.Figures = append(s.Figures, figuresOf(m)...)
	}
	return nil
}

// figuresOf returns the figures of a model's measures: those it asks for,
// else a box plot per policy of each ranked measure.
func figuresOf(m model.Model) []model.Figure {
	if f, ok := m.(model.Figured); ok {
		return f.Figures()
	}
	var out []model.Figure
	for _, ms := range m.Measures() {
		if ms.Better != table.Descriptive {
			out = append(out, model.Figure{Kind: model.BoxByPolicy, Measure: ms.Name})
		}
	}
	return out
}

// Probe returns the bindings of a run that recorded no models (written
// before runs recorded them, each of one study), told from its cells
// table's columns: the first binding whose study recognizes them and,
// when that one is a PairedStudy, every other paired study that does
// (DAG and campaign cells shared one comparison). When none does, it
// returns the paired studies, whose comparison says what the run lacks.
func Probe(bindings []Binding, columns []string) []Binding {
	paired := func(b Binding) bool { _, ok := b.Study.(PairedStudy); return ok }
	first := slices.IndexFunc(bindings, func(b Binding) bool { return b.Study.Recognizes(columns) })
	if first >= 0 && !paired(bindings[first]) {
		return bindings[first : first+1]
	}
	var out []Binding
	for _, b := range bindings {
		if paired(b) && (first < 0 || b.Study.Recognizes(columns)) {
			out = append(out, b)
		}
	}
	return out
}
