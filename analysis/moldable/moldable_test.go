package moldable

import (
	"strings"
	"testing"
)

func TestSummarizeMoldable(t *testing.T) {
	const weak = "dutot2004/uniform-weak"
	cell := func(n int64, alg string, cmax, cmaxBound, sum, sumBound float64) Cell {
		return Cell{Generator: weak, Workload: "w", Algorithm: alg, Tasks: n,
			Cmax: cmax, CmaxBound: cmaxBound, SumWC: sum, SumWCBound: sumBound, RunSeconds: 0.5}
	}
	cells := []Cell{
		// n = 25: DEMT ratios 3/2 and 5/2, average (3+5)/(2+2) = 2, not
		// the mean of ratios; Gang worse, List-SAF better.
		cell(25, "DEMT", 3, 2, 30, 10), cell(25, "DEMT", 5, 2, 10, 10),
		cell(25, "Gang", 20, 2, 100, 10), cell(25, "Gang", 20, 2, 100, 10),
		cell(25, "List-SAF", 3, 2, 15, 10), cell(25, "List-SAF", 3, 2, 15, 10),
		// n = 50: DEMT 2.2 on C_max, better than List-SAF on minsum.
		cell(50, "DEMT", 4.4, 2, 10, 10), cell(50, "Gang", 40, 2, 100, 10), cell(50, "List-SAF", 3, 2, 15, 10),
	}
	r := Summarize(cells)
	if len(r.Points) != 6 || len(r.Generators) != 1 || strings.Join(r.Algorithms, ",") != "DEMT,Gang,List-SAF" {
		t.Fatalf("points %d, generators %v, algorithms %v", len(r.Points), r.Generators, r.Algorithms)
	}
	p, _ := r.Point(weak, 25, "DEMT")
	if p.Instances != 2 || p.Cmax != (RatioSummary{2, 1.5, 2.5}) || p.SumWC != (RatioSummary{2, 1, 3}) || p.RunSecondsMean != 0.5 {
		t.Errorf("DEMT at n=25: %+v", p)
	}
	want := map[string]bool{
		"DEMT's average C_max ratio is worse than every algorithm's but Gang's":  true,
		"DEMT's average minsum ratio is worse than every algorithm's but Gang's": false, // n=50: DEMT 1 < SAF 1.5
		"DEMT's average C_max ratio is no more than 2":                           false, // 2.2 at n=50
	}
	for _, c := range r.Claims {
		if holds, ok := want[c.Text]; ok {
			if c.Holds != holds {
				t.Errorf("claim %q holds = %v (%s), want %v", c.Text, c.Holds, c.Evidence, holds)
			}
			delete(want, c.Text)
		}
		if c.Text == "DEMT's average C_max ratio is no more than 2" && c.Evidence != "at 1 of 2 n; largest 2.200" {
			t.Errorf("evidence %q", c.Evidence)
		}
		if strings.HasPrefix(c.Text, "DEMT's minsum ratio is about 2") && c.Evidence != "average over every DEMT cell 1.667" {
			t.Errorf("evidence %q, want the pooled (30+10+10)/(10+10+10)", c.Evidence)
		}
	}
	if len(want) > 0 {
		t.Errorf("claims not checked: %v", want)
	}
}
