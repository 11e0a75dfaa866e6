package moldable

import (
	"reflect"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
)

// TestClaimFamilies checks each family of the paper's claims on small
// hand-made runs: every lower bound is 1, so a cell's ratios are its
// values, and the evidence below is computed by hand from them.
func TestClaimFamilies(t *testing.T) {
	cell := func(generator string, n int64, alg string, cmax, sumWC float64) Cell {
		return Cell{Generator: generator, Algorithm: alg, Tasks: n,
			Cmax: cmax, CmaxBound: 1, SumWC: sumWC, SumWCBound: 1, RunSeconds: 0.1}
	}
	const high, mixed, cirne = "dutot2004/uniform-high", "dutot2004/mixed", "cirne2001/cirne-berman"
	tests := []struct {
		name      string
		generator string
		cells     []Cell
		check     func(d claimData, generator, workload string) []analysis.Claim
		want      []analysis.Claim
	}{
		{"Gang good at small n, Sequential at large n", high, []Cell{
			cell(high, 10, "Gang", 1, 1.2), cell(high, 100, "Gang", 1, 3.0),
			cell(high, 10, "Sequential", 1, 2.5), cell(high, 100, "Sequential", 1, 1.5),
		}, gangSequentialOpposite, []analysis.Claim{{Workload: "uniform-high", Holds: true,
			Text:     "Gang and Sequential behave oppositely on minsum: Gang good at small n, Sequential at large n",
			Evidence: "n=10: Gang 1.200, Sequential 2.500; n=100: Gang 3.000, Sequential 1.500"}}},
		{"Sequential no better at large n", high, []Cell{
			cell(high, 10, "Gang", 1, 1.2), cell(high, 100, "Gang", 1, 3.0),
			cell(high, 10, "Sequential", 1, 2.5), cell(high, 100, "Sequential", 1, 3.5),
		}, gangSequentialOpposite, []analysis.Claim{{Workload: "uniform-high", Holds: false,
			Text:     "Gang and Sequential behave oppositely on minsum: Gang good at small n, Sequential at large n",
			Evidence: "n=10: Gang 1.200, Sequential 2.500; n=100: Gang 3.000, Sequential 3.500"}}},
		{"Gang and Sequential at one n: no claim", high, []Cell{
			cell(high, 10, "Gang", 1, 1.2), cell(high, 10, "Sequential", 1, 2.5),
		}, gangSequentialOpposite, nil},
		{"a list algorithm at 2.1", high, []Cell{
			cell(high, 10, "List-MRT", 1.5, 1), cell(high, 10, "List-wLPTF", 1.6, 1), cell(high, 10, "List-SAF", 1.7, 1),
			cell(high, 100, "List-MRT", 1.9, 1), cell(high, 100, "List-wLPTF", 2.1, 1), cell(high, 100, "List-SAF", 1.8, 1),
		}, listsCmaxBelowTwo, []analysis.Claim{{Workload: "uniform-high", Holds: false,
			Text:     "the list algorithms' C_max ratio is always below 2 (the MRT allotment is good)",
			Evidence: "at 1 of 2 n; largest per-instance ratio 2.100"}}},
		{"DEMT best on minsum at the larger n only", cirne, []Cell{
			cell(cirne, 10, "DEMT", 1, 1.8), cell(cirne, 100, "DEMT", 1, 2.0),
			cell(cirne, 10, "Gang", 1, 1.0), cell(cirne, 100, "Gang", 1, 3.0),
		}, demtBestOnMinsum, []analysis.Claim{{Workload: "cirne-berman", Holds: false,
			Text: "DEMT is the best on minsum", Evidence: "at 1 of 2 n"}}},
		{"DEMT's minsum spread 2.0/1.8, Gang's 3.0/1.0", cirne, []Cell{
			cell(cirne, 10, "DEMT", 1, 1.8), cell(cirne, 100, "DEMT", 1, 2.0),
			cell(cirne, 10, "Gang", 1, 1.0), cell(cirne, 100, "Gang", 1, 3.0),
		}, demtStablest, []analysis.Claim{{Workload: "cirne-berman", Holds: true,
			Text:     "DEMT is the only algorithm with a stable minsum ratio (smallest largest/smallest average over n)",
			Evidence: "largest/smallest average over n: DEMT 1.11, Gang 3.00"}}},
		{"DEMT 0.6 from 2 at n=100", mixed, []Cell{
			cell(mixed, 10, "DEMT", 2.4, 1.6), cell(mixed, 100, "DEMT", 2.6, 2.0),
		}, demtAroundTwo, []analysis.Claim{{Workload: "mixed", Holds: false,
			Text:     "DEMT is stable around 2 on both criteria (average within 2 ± 0.5)",
			Evidence: "at 1 of 2 n; averages range over [1.600, 2.600]"}}},
		{"List-SAF better on C_max, not on minsum", mixed, []Cell{
			cell(mixed, 10, "DEMT", 2.0, 2.0), cell(mixed, 100, "DEMT", 2.0, 2.0),
			cell(mixed, 10, "List-SAF", 1.5, 1.5), cell(mixed, 100, "List-SAF", 1.5, 2.5),
		}, listSAFBeatsDEMT, []analysis.Claim{
			{Workload: "mixed", Holds: true, Text: "List-SAF is better than DEMT on C_max", Evidence: "at 2 of 2 n"},
			{Workload: "mixed", Holds: false, Text: "List-SAF is better than DEMT on minsum", Evidence: "at 1 of 2 n"},
		}},
		{"List-MRT degrades by 1.5, List-wLPTF by 1.17 only", mixed, []Cell{
			cell(mixed, 10, "List-MRT", 1, 1.2), cell(mixed, 100, "List-MRT", 1, 1.8),
			cell(mixed, 10, "List-wLPTF", 1, 1.2), cell(mixed, 100, "List-wLPTF", 1, 1.4),
		}, listsDegrade, []analysis.Claim{{Workload: "mixed", Holds: false,
			Text:     "List-MRT and List-wLPTF degrade as n grows (minsum ratio at the largest n >= 1.25 x at the smallest)",
			Evidence: "List-MRT 1.200 at n=10, 1.800 at n=100; List-wLPTF 1.200 at n=10, 1.400 at n=100"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := claimData{Summarize(tt.cells)}
			got := tt.check(d, tt.generator, ShortWorkload(tt.generator))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestDEMTOverallClaims checks the claims over every DEMT cell on three
// hand-made cells: C_max ratios 1.5, 1.9 and 2.5 (2 of 3 below 2),
// minsum (2.0+2.0+2.6)/3 = 2.2, and the slowest DEMT cell at the
// largest n (100) taking 2.5 s (a slower Gang cell does not count).
func TestDEMTOverallClaims(t *testing.T) {
	cells := []Cell{
		{Algorithm: "DEMT", Tasks: 10, Cmax: 1.5, CmaxBound: 1, SumWC: 2.0, SumWCBound: 1, RunSeconds: 0.2},
		{Algorithm: "DEMT", Tasks: 10, Cmax: 1.9, CmaxBound: 1, SumWC: 2.0, SumWCBound: 1, RunSeconds: 0.3},
		{Algorithm: "DEMT", Tasks: 100, Cmax: 2.5, CmaxBound: 1, SumWC: 2.6, SumWCBound: 1, RunSeconds: 2.5},
		{Algorithm: "Gang", Tasks: 100, Cmax: 9, CmaxBound: 1, SumWC: 9, SumWCBound: 1, RunSeconds: 7},
	}
	want := []analysis.Claim{
		{Workload: "all", Holds: true, Text: "DEMT's minsum ratio is about 2 on average (within 2 ± 0.5)",
			Evidence: "average over every DEMT cell 2.200"},
		{Workload: "all", Holds: false, Text: "DEMT's C_max ratio is almost always below 2 (in >= 95% of the cells)",
			Evidence: "2 of 3 cells (66.7%)"},
		{Workload: "all", Holds: false, Text: "DEMT runs in under 2 s at the largest n",
			Evidence: "slowest DEMT cell at n=100: 2.500 s (lambda* included; machine-dependent)"},
	}
	if got := demtOverallClaims(cells); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestCheckClaimsNeedsWorkloadAndAlgorithms checks that a claim is left
// out when the run lacks its workload or one of its algorithms: a
// uniform-high run of Gang and Sequential only has the Gang/Sequential
// claim, none about DEMT or the lists.
func TestCheckClaimsNeedsWorkloadAndAlgorithms(t *testing.T) {
	const high = "dutot2004/uniform-high"
	cells := []Cell{
		{Generator: high, Algorithm: "Gang", Tasks: 10, Cmax: 1, CmaxBound: 1, SumWC: 1.2, SumWCBound: 1},
		{Generator: high, Algorithm: "Gang", Tasks: 100, Cmax: 1, CmaxBound: 1, SumWC: 3, SumWCBound: 1},
		{Generator: high, Algorithm: "Sequential", Tasks: 10, Cmax: 1, CmaxBound: 1, SumWC: 2.5, SumWCBound: 1},
		{Generator: high, Algorithm: "Sequential", Tasks: 100, Cmax: 1, CmaxBound: 1, SumWC: 1.5, SumWCBound: 1},
	}
	claims := Summarize(cells).Claims
	if len(claims) != 1 || claims[0].Workload != "uniform-high" || !claims[0].Holds ||
		claims[0].Text != "Gang and Sequential behave oppositely on minsum: Gang good at small n, Sequential at large n" {
		t.Errorf("claims %+v, want the Gang/Sequential claim only, holding", claims)
	}
}
