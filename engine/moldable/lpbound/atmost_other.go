//go:build !amd64 || noasm || gccgo || safe

package lpbound

// firstAtMost returns the first t with cost[t] - duals[t] - area[t] price
// <= best, or len(cost); duals and area are at least as long as cost.
func firstAtMost(cost, duals, area []float64, price, best float64) int {
	duals, area = duals[:len(cost)], area[:len(cost)]
	for t, c := range cost {
		if c-duals[t]-area[t]*price <= best {
			return t
		}
	}
	return len(cost)
}
