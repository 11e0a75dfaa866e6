package analysis

import (
	"slices"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/table"
)

// Measures says what the paired comparison of a run compares: the measures
// of the models whose cells it compares, as their models declare them
// (model.Model.Measures), and what else of them it must know. The caller
// takes them from the registry, so that the analysis knows no model.
type Measures struct {
	// Columns are the candidate measures, in table order; ReadCells keeps
	// those every part file of the cells table has (a run without
	// campaign workloads has no campaign columns).
	Columns []table.Measure
	// Rebase, when set, is a measure taken at a base of each cell's own,
	// which PairCells puts on one base per pair group.
	Rebase *model.Rebase
	// PolicyOrder is the order of policies in the tables after the
	// reference (a paper's); other policies follow in name order.
	PolicyOrder []string
	// References are the policies the models compare others with by
	// default: when the settings keep DefaultReference and no cell has
	// it, the first of them that some cell has is the reference.
	References []string
	// Leave, when set, says which cells of the table the comparison
	// leaves out (another analysis's, such as seed 003's month cells,
	// which share a pair key across months); it sees a cell's values of
	// the columns ReadCells kept.
	Leave func(c *Cell, columns []table.Measure) bool
}

// MeasuresOf returns the measures of models for their paired comparison,
// in the models' order, each measure once (the campaign model has every
// grid measure), with the models' references and rebase
// (model.Referenced, else a model's first policy; model.Rebased).
func MeasuresOf(models ...model.Model) Measures {
	var m Measures
	for _, md := range models {
		for _, c := range md.Measures() {
			if !slices.ContainsFunc(m.Columns, func(o table.Measure) bool { return o.Name == c.Name }) {
				m.Columns = append(m.Columns, c)
			}
		}
		if ref := referenceOf(md); ref != "" && !slices.Contains(m.References, ref) {
			m.References = append(m.References, ref)
		}
		if r, ok := md.(model.Rebased); ok && m.Rebase == nil {
			rebase := r.Rebase()
			m.Rebase = &rebase
		}
	}
	return m
}

// referenceOf returns the policy a model's cells are compared with by
// default: the one it names (model.Referenced), else its first.
func referenceOf(md model.Model) string {
	if r, ok := md.(model.Referenced); ok {
		return r.Reference()
	}
	if policies := md.Policies(); len(policies) > 0 {
		return policies[0].Name
	}
	return ""
}

func columnNames(columns []table.Measure) []string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	return names
}

// Column returns the index in Cell.Values of the measure called name, or
// -1.
func (r *Result) Column(name string) int {
	return slices.IndexFunc(r.Columns, func(c table.Measure) bool { return c.Name == name })
}
