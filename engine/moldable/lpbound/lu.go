package lpbound

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// The LU factorization of the working basis and its solves are LAPACK's
// dgetrf and dgetrs with one right-hand side, written out operation for
// operation as gonum v0.17 (the version go.mod requires) computes them,
// so that the simplex's arithmetic stays that of gonum's mat.LU: the
// bases here are small (L is about 10), and the calls through gonum's
// general BLAS cost more than the arithmetic. TestLUIsGonums compares
// both bit for bit. Every a*b+c is written float64(a*b)+c, which forbids
// the compiler to fuse it (on GOAMD64=v3 it may): gonum's assembly
// kernels never do.

// unblockedLU is the largest order gonum's dgetrf factorizes with the
// unblocked dgetf2 (Ilaenv's block size for DGETRF).
const unblockedLU = 64

// factorLU factorizes the n x n row-major matrix a in place into its LU
// factors with partial pivoting, recording the row interchanges in
// pivots, as lapack64.Getrf does; it reports false when a pivot is zero
// (the matrix is singular).
func factorLU(n int, a []float64, pivots []int) (ok bool) {
	if n > unblockedLU {
		return lapack64.Getrf(blas64.General{Rows: n, Cols: n, Stride: n, Data: a}, pivots)
	}
	// dgetf2.
	const sfmin = 0x1p-1022
	ok = true
	for j := range n {
		// idamax: the first row of largest |a_ij| at or below the
		// diagonal.
		jp, largest := j, math.Abs(a[j*n+j])
		for i := j + 1; i < n; i++ {
			if v := math.Abs(a[i*n+j]); v > largest {
				jp, largest = i, v
			}
		}
		pivots[j] = jp
		if a[jp*n+j] == 0 {
			ok = false
		} else {
			if jp != j {
				rj, rp := a[j*n:j*n+n], a[jp*n:jp*n+n]
				for k := range rj {
					rj[k], rp[k] = rp[k], rj[k]
				}
			}
			if j < n-1 {
				aj := a[j*n+j]
				if math.Abs(aj) >= sfmin {
					// dscal by the reciprocal; dscal by 0 stores zeros.
					r := 1 / aj
					for i := j + 1; i < n; i++ {
						if r == 0 {
							a[i*n+j] = 0
						} else {
							a[i*n+j] *= r
						}
					}
				} else {
					// gonum v0.17 divides the first element below the
					// diagonal n-j-1 times here.
					for range n - j - 1 {
						a[(j+1)*n+j] = a[(j+1)*n+j] / a[j*n+j]
					}
				}
			}
		}
		if j < n-1 {
			// dger with alpha = -1: a_ik += (-1 a_ij) a_jk below and
			// right of the pivot.
			rowJ := a[j*n+j+1 : j*n+n]
			for i := j + 1; i < n; i++ {
				t := -1 * a[i*n+j]
				rowI := a[i*n+j+1 : i*n+n][:len(rowJ)]
				for k, v := range rowJ {
					rowI[k] += float64(t * v)
				}
			}
		}
	}
	return ok
}

// solveLU solves A x = b, or A^T x = b with trans, in place in b, with
// the factors of factorLU, as lapack64.Getrs does.
func solveLU(n int, a []float64, pivots []int, b []float64, trans bool) {
	if !trans {
		// dlaswp forward, then dtrsm with the unit lower triangle and
		// with the upper triangle.
		for k := range n {
			if p := pivots[k]; p != k {
				b[k], b[p] = b[p], b[k]
			}
		}
		for i := range n {
			for k, v := range a[i*n : i*n+i] {
				if v != 0 {
					b[i] += float64(-v * b[k])
				}
			}
		}
		for i := n - 1; i >= 0; i-- {
			for k, v := range a[i*n+i+1 : i*n+n] {
				if v != 0 {
					b[i] += float64(-v * b[i+1+k])
				}
			}
			b[i] *= 1 / a[i*n+i]
		}
		return
	}
	// dtrsm with the transposed upper triangle, then with the transposed
	// unit lower triangle, then dlaswp backward.
	for k := range n {
		b[k] *= 1 / a[k*n+k]
		for i, v := range a[k*n+k+1 : k*n+n] {
			if v != 0 {
				b[k+1+i] += float64(-v * b[k])
			}
		}
	}
	for k := n - 1; k >= 0; k-- {
		for i, v := range a[k*n : k*n+k] {
			if v != 0 {
				b[i] += float64(-v * b[k])
			}
		}
	}
	for k := n - 1; k >= 0; k-- {
		if p := pivots[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
}
