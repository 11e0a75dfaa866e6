package grid

import "math/bits"

// Exact integer arithmetic for the comparisons the model defines as
// ratios (P-SLR values, expected queue lengths): products of two int64
// tick counts can exceed 63 bits at paper scale, so they are formed in
// 128 bits and never rounded.

func mul64(a, b uint64) (hi, lo uint64) { return bits.Mul64(a, b) }

// div128 divides the 128-bit hi:lo by d, which must exceed hi.
func div128(hi, lo, d uint64) (q, r uint64) { return bits.Div64(hi, lo, d) }

// cmpRatio compares a/b with c/d for a, c >= 0 and b, d > 0, returning
// -1, 0 or +1.
func cmpRatio(a, b, c, d int64) int {
	lh, ll := bits.Mul64(uint64(a), uint64(d))
	rh, rl := bits.Mul64(uint64(c), uint64(b))
	switch {
	case lh != rh:
		if lh < rh {
			return -1
		}
		return 1
	case ll != rl:
		if ll < rl {
			return -1
		}
		return 1
	}
	return 0
}
