// Package radix sorts 64-bit keys that order as unsigned integers (ticks
// and other counts >= 0, the bits of floats > 0) by a least-significant-
// digit radix sort: the simulators sort 10^4 to 10^5 of them per
// schedule or instance, where a comparison sort took a few percent of
// seed 004's run and two thirds of a large moldable instance's lambda*.
package radix

// Sort sorts keys into ascending order using buf, as long as keys, and
// returns whichever of the two holds the result. Every key must be >= 0,
// and there must be fewer than 2^32 of them. The digits are 11 bits: one
// pass counts them all, and a digit that is the same in every key (the
// high bits of small counts, the exponent bits of floats of one
// magnitude) takes no pass.
func Sort[K int64 | uint64](keys, buf []K) []K {
	const bits, digits = 11, 6 // 6 x 11 >= 64
	const mask = 1<<bits - 1
	if len(keys) == 0 {
		return keys
	}
	var count [digits][1 << bits]uint32
	for _, k := range keys {
		u := uint64(k)
		count[0][u&mask]++
		count[1][u>>bits&mask]++
		count[2][u>>(2*bits)&mask]++
		count[3][u>>(3*bits)&mask]++
		count[4][u>>(4*bits)&mask]++
		count[5][u>>(5*bits)&mask]++
	}
	for d := range digits {
		c := &count[d]
		shift := uint(d * bits)
		if int(c[uint64(keys[0])>>shift&mask]) == len(keys) {
			continue
		}
		at := uint32(0)
		for v, n := range c {
			c[v] = at
			at += n
		}
		for _, k := range keys {
			v := uint64(k) >> shift & mask
			buf[c[v]] = k
			c[v]++
		}
		keys, buf = buf, keys
	}
	return keys
}
