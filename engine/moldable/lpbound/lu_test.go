package lpbound

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// sameBits reports whether a and b hold the same float64 bit patterns,
// or both a NaN: which NaN an operation on a NaN returns depends on the
// order of its operands in the instruction, and nothing reads a NaN's
// bits (every comparison with any NaN is false, every operation gives a
// NaN).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	})
}

// TestLUIsGonums: factorLU and solveLU give gonum's lapack64.Getrf and
// Getrs results bit for bit (factors, pivots, singularity, solutions of
// both systems) on random matrices up to beyond the unblocked order:
// dense, sparse with ties for the pivot, singular, with huge, tiny and
// subnormal pivots, and with infinities.
func TestLUIsGonums(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 29))
	for trial := range 3000 {
		n := 1 + rng.IntN(12)
		if trial%50 == 0 {
			n = 1 + rng.IntN(unblockedLU+8)
		}
		a := make([]float64, n*n)
		kind := trial % 8
		for i := range a {
			switch kind {
			case 0: // dense
				a[i] = rng.NormFloat64()
			case 1: // sparse small integers: ties and zero pivots
				if rng.IntN(3) == 0 {
					a[i] = float64(rng.IntN(5) - 2)
				}
			case 2: // a basis of the LP: areas and differences of areas
				if rng.IntN(2) == 0 {
					a[i] = 1 + 100*rng.Float64()
				}
			case 3: // huge and tiny
				a[i] = math.Ldexp(rng.Float64(), rng.IntN(2000)-1000)
			case 4: // subnormal pivots
				a[i] = math.SmallestNonzeroFloat64 * float64(rng.IntN(4))
				if rng.IntN(4) == 0 {
					a[i] = rng.NormFloat64()
				}
			case 5: // infinities
				a[i] = rng.NormFloat64()
				if rng.IntN(10) == 0 {
					a[i] = math.Inf(1 - 2*rng.IntN(2))
				}
			case 6: // sparse with signed zeros
				if rng.IntN(3) == 0 {
					a[i] = float64(rng.IntN(5) - 2)
				} else if rng.IntN(4) == 0 {
					a[i] = math.Copysign(0, -1)
				}
			case 7: // sparse with a zero column below a pivot and NaNs
				if rng.IntN(2) == 0 {
					a[i] = rng.NormFloat64()
				}
				if rng.IntN(40) == 0 {
					a[i] = math.NaN()
				}
			}
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		ours, theirs := slices.Clone(a), slices.Clone(a)
		pOurs, pTheirs := make([]int, n), make([]int, n)
		okOurs := factorLU(n, ours, pOurs)
		okTheirs := lapack64.Getrf(blas64.General{Rows: n, Cols: n, Stride: n, Data: theirs}, pTheirs)
		if okOurs != okTheirs || !slices.Equal(pOurs, pTheirs) || !sameBits(ours, theirs) {
			t.Fatalf("trial %d (n %d, kind %d): factors differ from gonum's (ok %v, %v)", trial, n, kind, okOurs, okTheirs)
		}
		for _, trans := range []bool{false, true} {
			xOurs, xTheirs := slices.Clone(b), slices.Clone(b)
			solveLU(n, ours, pOurs, xOurs, trans)
			tr := blas.NoTrans
			if trans {
				tr = blas.Trans
			}
			lapack64.Getrs(tr, blas64.General{Rows: n, Cols: n, Stride: n, Data: theirs},
				blas64.General{Rows: n, Cols: 1, Stride: 1, Data: xTheirs}, pTheirs)
			if !sameBits(xOurs, xTheirs) {
				t.Fatalf("trial %d (n %d, kind %d) trans %v: solution %v, gonum's %v", trial, n, kind, trans, xOurs, xTheirs)
			}
		}
	}
}
