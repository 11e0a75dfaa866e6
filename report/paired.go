package report

import (
	"github.com/sweep-sched/sweep/analysis/rigid"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/campaign"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Paired is what the text and HTML reports of a run whose cells are
// compared across policies draw: the comparison, the paper values of the
// manifest, and the part of each model of the run that builds on the
// comparison.
type Paired struct {
	Comparison *analysis.Result
	Expect     analysis.Expectations
	// Grid is seed 004's part, nil when the run has no grid cells.
	Grid *grid.Result
	// Campaign is seeds 000 and 001's part, nil when the run has no
	// campaign cells.
	Campaign *campaign.Result
	// Claims are the papers' claims about the run with their status,
	// shown first on the page.
	Claims []fidelity.Claim
	// Provenance opens the page; nil for none.
	Provenance *analysis.Provenance
	// Measures are the measures of models without a study
	// (ComparePaired), whose dominance tables and means the text shows,
	// and Figures their figures on the page.
	Measures []table.Measure
	Figures  []model.Figure
	// AchievedLoads is the rigid study's achieved-load check, one row
	// per load; nil for none.
	AchievedLoads []AchievedLoad
	// Nodes is the rigid study's analysis of cells on platforms of nodes;
	// nil for none.
	Nodes *rigid.NodeUse
	// File is the page's file name in DIR/report; index.html when empty.
	File string
}

// problems returns the unreadable part files of every table read: cells,
// then volume deciles or jobs, then campaigns.
func (run Paired) problems() []parquet.Problem {
	problems := slices.Clone(run.Comparison.Problems)
	if run.Grid != nil {
		problems = append(problems, run.Grid.Problems...)
	}
	if run.Campaign != nil {
		problems = append(problems, run.Campaign.Problems...)
	}
	if run.Nodes != nil {
		problems = append(problems, run.Nodes.Problems...)
	}
	return problems
}
