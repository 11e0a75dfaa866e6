//go:build !noasm && !gccgo && !safe

package lpbound

// firstAtMost returns the first t with cost[t] - duals[t] - area[t] price
// <= best, or len(cost); duals and area are at least as long as cost.
// It computes each reduced cost with the operations of the Go
// expression, two at a time in SSE2 lanes, so the values are the same.
//
//go:noescape
func firstAtMost(cost, duals, area []float64, price, best float64) int
