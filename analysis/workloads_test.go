package analysis

import (
	"math"
	"testing"

	"github.com/sweep-sched/sweep/store/table"
)

// MeanOfWorkload takes the cells of one workload label at one load: two
// instances of workload a with bsld 2 and 4 give mean 3 and the Student t
// interval 3 ± t(0.975, 1 df) x sd/sqrt(2) = 3 ± 12.7062 (sd sqrt(2));
// workload b's one cell gives its value without an interval; the cells at
// another load, of another policy or workload are left out.
func TestMeanOfWorkload(t *testing.T) {
	cell := func(policy string, v float64) *Cell { return &Cell{Policy: policy, Values: []float64{v}} }
	group := func(workload string, instance int64, load float64, cells ...*Cell) Group {
		g := Group{Key: PairKey{Workload: workload, Instance: instance, Load: load}, Cells: map[string]*Cell{}}
		for _, c := range cells {
			g.Cells[c.Policy] = c
		}
		return g
	}
	r := &Result{Columns: []table.Measure{{Name: "bsld_mean"}}, Pairing: &Pairing{Groups: []Group{
		group("a", 1, 0.5, cell("p", 2), cell("q", 100)),
		group("a", 2, 0.5, cell("p", 4)),
		group("b", 1, 0.5, cell("p", 10)),
		group("a", 1, 0.9, cell("p", 50)),
	}}}
	if got := r.Workloads(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("workloads %v, want [a b]", got)
	}
	const t975df1 = 12.706204736174698 // scipy.stats.t.ppf(0.975, 1)
	m, ok := r.MeanOfWorkload("bsld_mean", "p", "a", 0.5)
	if !ok || m.N != 2 || m.Mean != 3 || math.Abs(m.High-(3+t975df1)) > 1e-9 || math.Abs(m.Low-(3-t975df1)) > 1e-9 {
		t.Errorf("workload a: %+v %v, want mean 3 ± %v over 2 cells", m, ok, t975df1)
	}
	if m, ok := r.MeanOfWorkload("bsld_mean", "p", "b", 0.5); !ok || m.N != 1 || m.Mean != 10 || !math.IsNaN(m.Low) {
		t.Errorf("workload b: %+v %v, want 10 without an interval", m, ok)
	}
	if _, ok := r.MeanOfWorkload("bsld_mean", "q", "b", 0.5); ok {
		t.Errorf("policy q has no cell of workload b, yet a mean")
	}
	if _, ok := r.MeanOfWorkload("wait", "p", "a", 0.5); ok {
		t.Errorf("a measure the result lacks has a mean")
	}
}
