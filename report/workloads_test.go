package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/table"
)

// A figure drawn per workload prints each workload's means by load: two
// instances of workload a at 2 and 4 give 3 ± t(0.975, 1) x sqrt(2)/sqrt(2)
// = 3 ± 12.7 (scipy.stats.t.ppf(0.975, 1) = 12.706); workload b's one cell
// 10 without an interval; a policy without a cell of b "-". A run of one
// workload, or a figure pooled over workloads, prints none.
func TestPrintWorkloadMeans(t *testing.T) {
	cell := func(policy string, v float64) *analysis.Cell {
		return &analysis.Cell{Policy: policy, Values: []float64{v}}
	}
	group := func(workload string, instance int64, cells ...*analysis.Cell) analysis.Group {
		g := analysis.Group{Key: analysis.PairKey{Workload: workload, Instance: instance, Load: 0.5}, Cells: map[string]*analysis.Cell{}}
		for _, c := range cells {
			g.Cells[c.Policy] = c
		}
		return g
	}
	r := &analysis.Result{Columns: []table.Measure{{Name: "bsld_mean", Unit: "ratio", Better: table.LowerIsBetter}},
		Policies: []string{"p", "q"}, Loads: []float64{0.5},
		Pairing: &analysis.Pairing{Groups: []analysis.Group{
			group("a", 1, cell("p", 2), cell("q", 1)),
			group("a", 2, cell("p", 4), cell("q", 1)),
			group("b", 1, cell("p", 10)),
		}}}
	perWorkload := []model.Figure{{Kind: model.MeanByLoadPerWorkload, Measure: "bsld_mean"}}
	var out bytes.Buffer
	p := &printer{w: &out}
	printWorkloadMeans(r, p, perWorkload)
	text := out.String()
	for _, want := range []string{
		"mean bsld_mean (ratio, lower is better) by load, workload a (± half-width of the 95% confidence interval)",
		"  p       3.00 ± 12.7", "  q          1.00 ± 0",
		"mean bsld_mean (ratio, lower is better) by load, workload b",
		"  p       10.0", "  q          -",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	printWorkloadMeans(r, p, []model.Figure{{Kind: model.MeanByLoad, Measure: "bsld_mean"}})
	r.Pairing.Groups = r.Pairing.Groups[:2]
	printWorkloadMeans(r, p, perWorkload)
	if out.Len() != 0 {
		t.Errorf("a pooled figure or one workload printed %q", out.String())
	}
}
