package stats

import (
	"cmp"
	"math"
	"slices"
)

// HolmAdjust returns Holm's step-down adjusted p-values (Holm 1979), in
// the order of ps: with the m defined p-values sorted ascending,
// p(1) <= ... <= p(m), the adjusted value of p(i) is
//
//	max over j <= i of min(1, (m - j + 1) · p(j)),
//
// the adjustment of R's p.adjust(method = "holm") and of statsmodels'
// multipletests(method='holm'). Rejecting where the adjusted p is below
// alpha controls the family-wise error rate at alpha. A NaN p-value (an
// undefined test) is not part of the family and stays NaN.
func HolmAdjust(ps []float64) []float64 {
	adjusted := make([]float64, len(ps))
	var order []int
	for i, p := range ps {
		adjusted[i] = math.NaN()
		if !math.IsNaN(p) {
			order = append(order, i)
		}
	}
	// Stable, so tied p-values keep their input order (their adjusted
	// values are equal anyway).
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	m := len(order)
	running := 0.0
	for j, i := range order {
		running = max(running, min(1, float64(m-j)*ps[i]))
		adjusted[i] = running
	}
	return adjusted
}
