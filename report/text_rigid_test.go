package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/analysis/rigid"
)

// TestWithTableIX: the paper's Table IX (SDSC 06/00; analysis/rigid's
// PaperTableIX, transcribed from seed 003) goes beside the mean wait,
// maximum wait and slowdown of the paper's four columns in that month
// only; the p99 wait, which the paper does not give, stays bare.
func TestWithTableIX(t *testing.T) {
	ours := []string{"1.00", "2.0", "3.0", "4.0"}
	tests := []struct {
		name                  string
		trace, month, variant string
		policy                string
		want                  []string
	}{
		{"RelShare T", "sdsc", "2000-06", "T", rigid.RelShare, []string{"1.00 (0.8)", "2.0 (94.2)", "3.0", "4.0 (7.9)"}},
		{"Tradeoff-fs R", "sdsc", "2000-06", "R", rigid.TradeoffFS, []string{"1.00 (0.8)", "2.0 (103.3)", "3.0", "4.0 (12.9)"}},
		{"fcfs-easy: not a paper column", "sdsc", "2000-06", "T", rigid.FCFSEasy, ours},
		{"another month", "sdsc", "2000-07", "T", rigid.RelShare, ours},
		{"another trace", "kth", "2000-06", "T", rigid.RelShare, ours},
	}
	for _, tc := range tests {
		text := slices.Clone(ours)
		withTableIX(text, rigid.Cell{Trace: tc.trace, Month: tc.month, Variant: tc.variant, Policy: tc.policy})
		if !slices.Equal(text, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, text, tc.want)
		}
	}
}

// TestPaperRunningDevs: each column's running sum of total |dev| adds
// the months it has a cell in ("-" adds nothing), and the paper's running
// sum (kth 1997-06 and 1997-07: 155120, 160202 for RelShare T; 166703
// for RelShare R; Table VI) goes beside the paper's four columns only.
func TestPaperRunningDevs(t *testing.T) {
	cell := func(month, variant, policy string, totalAbsDev float64) rigid.Cell {
		return rigid.Cell{Trace: "kth", Month: month, Variant: variant, Policy: policy, TotalAbsDev: totalAbsDev}
	}
	r := &rigid.Result{Cells: []rigid.Cell{
		cell("1997-06", "T", rigid.RelShare, 100), cell("1997-07", "T", rigid.RelShare, 50),
		cell("1997-06", "R", rigid.RelShare, 20),
		cell("1997-07", "R", rigid.FCFSEasy, 7),
	}}
	var b strings.Builder
	printPaperRunningDevs(&b, r, "kth", r.Months("kth"))
	var rows []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "1997-") {
			rows = append(rows, strings.Join(strings.Fields(line), " "))
		}
	}
	want := []string{
		"1997-06 100, 100 / 155120 20, 20 / 166703 - - - -",
		"1997-07 50, 150 / 160202 - - - - 7, 7",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows\n%q\nwant\n%q\nin\n%s", rows, want, b.String())
	}
}
