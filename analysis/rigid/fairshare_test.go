package rigid

import "testing"

// TestClaims checks seed 003's claims on hand-made cells. KTH running
// totals of |dev|: RelShare 100 then 200 under both variants; Tradeoff-fs
// 50 then 110 under T (lower in both months) but 50 then 250 under R
// (higher in 1997-07), so the claim fails with 1997-07 R as evidence.
// SDSC 06/00 under T: the paper's maximum waits, 94.2 h to 38.9 h, below
// three quarters.
func TestClaims(t *testing.T) {
	cell := func(trace, month, variant, policy string, totalAbsDev, waitMaxHours float64) Cell {
		return Cell{ID: trace + month + variant + policy, Trace: trace, Month: month, Variant: variant, Policy: policy,
			TotalAbsDev: totalAbsDev, WaitMaxHours: waitMaxHours}
	}
	r := &Result{Cells: []Cell{
		cell("kth", "1997-06", "T", RelShare, 100, 0), cell("kth", "1997-07", "T", RelShare, 100, 0),
		cell("kth", "1997-06", "R", RelShare, 100, 0), cell("kth", "1997-07", "R", RelShare, 100, 0),
		cell("kth", "1997-06", "T", TradeoffFS, 50, 0), cell("kth", "1997-07", "T", TradeoffFS, 60, 0),
		cell("kth", "1997-06", "R", TradeoffFS, 50, 0), cell("kth", "1997-07", "R", TradeoffFS, 200, 0),
		cell("sdsc", "2000-06", "T", RelShare, 0, 94.2), cell("sdsc", "2000-06", "T", TradeoffFS, 0, 38.9),
	}}
	claims := r.Claims()
	if len(claims) != 2 {
		t.Fatalf("%d claims %+v; want the KTH running total and the SDSC maximum wait", len(claims), claims)
	}
	if c := claims[0]; c.Workload != "kth" || c.Holds || c.Evidence != "not in 1997-07 R" {
		t.Errorf("KTH running total: %+v; want not holding, not in 1997-07 R", c)
	}
	if c := claims[1]; c.Workload != "sdsc" || !c.Holds || c.Evidence != "94.2 h to 38.9 h" {
		t.Errorf("SDSC maximum wait: %+v; want holding, 94.2 h to 38.9 h", c)
	}
}
