package radix

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortIsSlicesSort: random keys of every magnitude up to 2^62 and up
// to 2^64 - 1, with many duplicates, short and long, sort as slices.Sort
// sorts them.
func TestSortIsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 2, 255, 1000, 10_000} {
		for _, bits := range []int{1, 8, 11, 12, 22, 33, 62, 64} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64() >> (64 - bits)
				if r.IntN(5) == 0 && i > 0 {
					keys[i] = keys[r.IntN(i)]
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			if got := Sort(keys, make([]uint64, n)); !slices.Equal(got, want) {
				t.Fatalf("n %d, keys below 2^%d: sorted wrong", n, bits)
			}
			if bits == 64 {
				continue
			}
			signed := make([]int64, n)
			for i, k := range want {
				signed[i] = int64(k)
			}
			r.Shuffle(n, func(i, j int) { signed[i], signed[j] = signed[j], signed[i] })
			got := Sort(signed, make([]int64, n))
			for i := range got {
				if uint64(got[i]) != want[i] {
					t.Fatalf("n %d, int64 keys below 2^%d: sorted wrong at %d", n, bits, i)
				}
			}
		}
	}
}
