package analysis

import "math"

// agreesWithReference reports whether got is within 1e-12 of want
// (relative), the tolerance of package stats' tests against scipy, or both
// are NaN, or both are the same infinity.
func agreesWithReference(got, want float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0) || want == 0:
		return got == want
	}
	return math.Abs(got-want) <= 1e-12*math.Abs(want)
}
