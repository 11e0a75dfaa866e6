// Package draw draws uniform integers from a PCG as math/rand/v2's
// Rand.IntN does on 64-bit platforms, calling the PCG directly: Rand
// calls its Source through an interface, which cannot be inlined, and
// that call was a quarter of each draw where the simulators and the
// bootstrap draw millions (the random policy's head at every pass, the
// resamples of an analysis).
package draw

import (
	"math/bits"
	"math/rand/v2"
)

// IntN returns a uniform draw in [0, n) from src, n > 0: the number
// rand.New(src).IntN(n) returns on a 64-bit platform, by the same steps
// (a mask for a power of two, else Lemire's multiply with rejection), so
// streams that used Rand keep their draws.
func IntN(src *rand.PCG, n int) int {
	u := uint64(n)
	if u&(u-1) == 0 {
		return int(src.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(src.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), u)
		}
	}
	return int(hi)
}
