package report

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/store/table"
)

// TestProbe: a run that recorded no models is of one study, told from its
// columns' names (as sweep told them before runs recorded their models):
// fair-share measures are seed 003's, moldable bounds seed 002's, and
// schedule measures the grid and campaign studies' together, and a
// directory without a cells table every paired study's (seed 003's rigid
// study included, which builds its load comparison on the paired one),
// whose comparison says what it lacks.
func TestProbe(t *testing.T) {
	bindings := []Binding{
		{"rigid", FairShareStudy{}}, {"moldable", MoldableStudy{}}, {"grid", GridStudy{}}, {"campaign", CampaignStudy{}},
	}
	head := []string{table.CellID, table.Workload, table.Policy}
	tests := []struct {
		name    string
		columns []string
		want    []string
	}{
		{"fair share", append(head, table.FairMonth, table.FairTotalAbsDev), []string{"rigid"}},
		{"moldable", append(head, table.MoldableTasks, table.MoldableCmaxBound), []string{"moldable"}},
		{"DAG", append(head, "makespan", "slr_max"), []string{"grid", "campaign"}},
		{"campaign", append(head, "makespan", "slr_max", table.CampaignCount), []string{"grid", "campaign"}},
		{"no cells table", nil, []string{"rigid", "grid", "campaign"}},
	}
	for _, tt := range tests {
		var got []string
		for _, b := range Probe(bindings, tt.columns) {
			got = append(got, b.Model)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Probe = %v; want %v", tt.name, got, tt.want)
		}
	}
}
