package draw

import (
	"math/rand/v2"
	"testing"
)

// TestIntNMatchesRand: IntN draws what math/rand/v2's IntN draws from
// the same PCG state, for small and large bounds, powers of two, and
// bounds near 2^63 where the rejection loop runs often.
func TestIntNMatchesRand(t *testing.T) {
	if ^uint(0)>>32 == 0 {
		t.Skip("rand.Rand.IntN draws 32 bits on a 32-bit platform")
	}
	bounds := []int{1, 2, 3, 5, 7, 64, 100, 1000, 1 << 20, 1<<20 + 1, 1<<62 + 1, 1<<63 - 1, 3 << 61, 1 << 62}
	src := rand.NewPCG(3, 4)
	ref := rand.New(rand.NewPCG(3, 4))
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200_000 {
		n := bounds[i%len(bounds)]
		if i%3 == 0 {
			n = 1 + r.IntN(5000)
		}
		if got, want := IntN(src, n), ref.IntN(n); got != want {
			t.Fatalf("draw %d, bound %d: IntN %d, rand's IntN %d", i, n, got, want)
		}
	}
}
