package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis/moldable"
)

// TestPrintMoldable prints DEMT's n=25 ratios of two hand-made instances,
// 3/2 and 5/2: the average (3+5)/(2+2) = 2 with the range 1.50-2.50.
func TestPrintMoldable(t *testing.T) {
	cell := func(alg string, cmax float64) moldable.Cell {
		return moldable.Cell{Generator: "dutot2004/uniform-weak", Workload: "w", Algorithm: alg, Tasks: 25,
			Cmax: cmax, CmaxBound: 2, SumWC: 10, SumWCBound: 10, RunSeconds: 0.5}
	}
	r := moldable.Summarize([]moldable.Cell{cell("DEMT", 3), cell("DEMT", 5)})
	var out bytes.Buffer
	if err := PrintMoldable(&out, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "25  2.000 (1.50-2.50)") {
		t.Errorf("printed table lacks DEMT's n=25 C_max cell:\n%s", out.String())
	}
}
