package grid

import (
	"math/big"
	"slices"
	"strings"
	"testing"
)

func TestArrivals(t *testing.T) {
	cases := []struct {
		name    string
		volumes []int64
		cores   int
		load    float64
		want    []int64
	}{
		// C x L = 3.6: gaps ceil(10/3.6) = 3, ceil(7/3.6) = 2, ceil(1/3.6) = 1;
		// the last job's volume makes no gap.
		{"hand example", []int64{10, 7, 1, 5}, 4, 0.9, []int64{0, 3, 5, 6}},
		// 63 / (90 x 0.7) is exactly 1, but float64 computes 1.0000000000000002
		// and would round it up to 2.
		{"exact where float64 is not", []int64{63, 63, 1}, 90, 0.7, []int64{0, 1, 2}},
		// Overload halves the gaps: 4000 x 2 = 8000 core-ticks per tick.
		{"load 2", []int64{16000, 8001, 1}, 4000, 2, []int64{0, 2, 4}},
		{"one job", []int64{99}, 10, 1, []int64{0}},
		{"zero volume", []int64{0, 5, 5}, 5, 1, []int64{0, 0, 1}},
	}
	for _, c := range cases {
		got, err := Arrivals(c.volumes, c.cores, c.load)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Arrivals(%v, %d, %v) = %v; want %v", c.name, c.volumes, c.cores, c.load, got, c.want)
		}
	}
	for _, bad := range []struct {
		cores    int
		load     float64
		contains string
	}{{0, 1, "want >= 1"}, {10, 0, "positive ratio"}, {10, -1, "positive ratio"}, {10, 1e-300, "fit 64 bits"}} {
		if _, err := Arrivals([]int64{1, 2}, bad.cores, bad.load); err == nil || !strings.Contains(err.Error(), bad.contains) {
			t.Errorf("Arrivals(cores %d, load %v): error %v; want one containing %q", bad.cores, bad.load, err, bad.contains)
		}
	}
}

// What "total volume / (cores x arrival span) matches L" means: the span
// a(n-1) - a(0) = sum over k < n-1 of ceil(v_k / (C L)) covers every job's
// volume but the last one's, so with V' = that volume,
// V' / (C L) <= span < V' / (C L) + (n-1), i.e. exactly
//
//	0 <= C L span - V' < (n-1) C L,
//
// checked here in integers with L = num/den. At Table 2 scale (V' about
// 1e11 core-ticks, n = 10,000, C = 4000) the ratio V'/(C span) is then
// within (n-1) C L / V' (about 5e-4) of L, also checked.
func TestArrivalsMatchLoad(t *testing.T) {
	w, _ := generate(t, "burkimsher2013/log-independent", 2)
	const cores = 4000
	for _, load := range []float64{0.8, 0.9, 1.0, 1.1, 1.2} {
		if err := SetArrivals(w, cores, load); err != nil {
			t.Fatal(err)
		}
		n := len(w.Jobs)
		var volume int64
		for k := 0; k < n-1; k++ {
			volume += w.Jobs[k].Volume()
		}
		if *w.Jobs[0].Arrival != 0 {
			t.Fatalf("load %v: first arrival %d; want 0", load, *w.Jobs[0].Arrival)
		}
		span := *w.Jobs[n-1].Arrival
		num, den, err := loadRatio(load)
		if err != nil {
			t.Fatal(err)
		}
		// slack = C num span - V' den, which must lie in [0, (n-1) C num).
		cNum := new(big.Int).Mul(big.NewInt(cores), new(big.Int).SetUint64(num))
		slack := new(big.Int).Mul(cNum, big.NewInt(span))
		slack.Sub(slack, new(big.Int).Mul(big.NewInt(volume), new(big.Int).SetUint64(den)))
		limit := new(big.Int).Mul(cNum, big.NewInt(int64(n-1)))
		if slack.Sign() < 0 || slack.Cmp(limit) >= 0 {
			t.Errorf("load %v: C L span - V' = %v/%d; want in [0, %v/%d)", load, slack, den, limit, den)
		}
		ratio := float64(volume) / (cores * float64(span))
		if rel := (load - ratio) / load; rel < 0 || rel > 1e-3 {
			t.Errorf("load %v: V'/(C span) = %.6f, %.2g below L; want within 1e-3 of L", load, ratio, rel)
		}
	}
}
