package stats

import (
	"math"
	"testing"
)

// Reference values: scipy 1.10.1 (Debian python3-scipy 1.10.1-2,
// /usr/bin/python3). For a vector d of differences (other = 0):
//
//	python3 -c "from scipy.stats import wilcoxon; r=wilcoxon(D); print(repr(r.statistic), repr(r.pvalue))"
//
// and for the normal approximation's z, wilcoxon(D, method='approx').zstatistic.
func TestWilcoxonSignedRank(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name       string
		ref, other []float64
		want       Wilcoxon
	}{
		{
			// Darwin's Zea mays height differences (Fisher 1935, the
			// example of scipy's wilcoxon docs): n = 15, no ties, exact.
			// scipy: 24.0 0.041259765625
			name: "Darwin, exact",
			ref:  []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75},
			want: Wilcoxon{N: 15, Statistic: 24, Exact: true, Z: nan, P: 0.041259765625},
		},
		{
			// Hollander and Wolfe (1973, p. 29), the example of R's
			// wilcox.test (V = 40, p = 0.03906): n = 9 < 10, exact.
			// scipy: wilcoxon(x, y) -> 5.0 0.0390625
			name:  "Hollander-Wolfe, n < 10",
			ref:   []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30},
			other: []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29},
			want:  Wilcoxon{N: 9, Statistic: 5, Exact: true, Z: nan, P: 0.0390625},
		},
		{
			// Hand-written, ties and two zeros: normal approximation with
			// the tie correction. scipy: 10.0 0.0737088432946028,
			// z = -1.788416456076586
			name: "ties and zeros",
			ref:  []float64{0, 0, 1, -2, 3, 3, -3, 4, 5, 6, 7, -1.5},
			want: Wilcoxon{N: 12, Zeros: 2, Statistic: 10, Z: -1.788416456076586, P: 0.0737088432946028},
		},
		{
			// Hand-written, zeros and n < 10. scipy: 2.0 0.13801073756865956,
			// z = -1.4832396974191326
			name: "zeros, n < 10",
			ref:  []float64{0, 1.5, -2, 3, 4, 0, 5},
			want: Wilcoxon{N: 7, Zeros: 2, Statistic: 2, Z: -1.4832396974191326, P: 0.13801073756865956},
		},
		{
			// Hand-written, ties without zeros, n = 7. Issue 15's rule
			// takes the normal approximation: scipy wilcoxon(D,
			// method='approx') -> 4.0 0.08981434395829534, z =
			// -1.696377859359942. (scipy 1.10.1's method='auto' gives
			// 0.109375, the exact p of the truncated rank sum R+ = 24.)
			name: "ties without zeros",
			ref:  []float64{1, 2, 2, -3, 4, 4, 5},
			want: Wilcoxon{N: 7, Statistic: 4, Z: -1.696377859359942, P: 0.08981434395829534},
		},
		{
			// d_i = (37 i mod 101) - 50.5 for i = 1..60: n > 50, so the
			// normal approximation (with ties, e.g. ±18.5). scipy: 890.0
			// 0.8539771261060107, z = -0.1840463089326127
			name: "n = 60",
			ref: []float64{-13.5, 23.5, -40.5, -3.5, 33.5, -30.5, 6.5, 43.5, -20.5, 16.5, -47.5, -10.5,
				26.5, -37.5, -0.5, 36.5, -27.5, 9.5, 46.5, -17.5, 19.5, -44.5, -7.5, 29.5, -34.5, 2.5,
				39.5, -24.5, 12.5, 49.5, -14.5, 22.5, -41.5, -4.5, 32.5, -31.5, 5.5, 42.5, -21.5, 15.5,
				-48.5, -11.5, 25.5, -38.5, -1.5, 35.5, -28.5, 8.5, 45.5, -18.5, 18.5, -45.5, -8.5, 28.5,
				-35.5, 1.5, 38.5, -25.5, 11.5, 48.5},
			want: Wilcoxon{N: 60, Statistic: 890, Z: -0.1840463089326127, P: 0.8539771261060107},
		},
		{
			// Twenty negative differences -0.5, -1.5, ..., -19.5: the
			// exact p is 2 * 2^-20. scipy: 0.0 1.9073486328125e-06
			name: "all one sign",
			ref: []float64{-0.5, -1.5, -2.5, -3.5, -4.5, -5.5, -6.5, -7.5, -8.5, -9.5,
				-10.5, -11.5, -12.5, -13.5, -14.5, -15.5, -16.5, -17.5, -18.5, -19.5},
			want: Wilcoxon{N: 20, Statistic: 0, Exact: true, Z: nan, P: 1.9073486328125e-06},
		},
		{
			// |d| = 1..50 with signs in runs of three: n = 50, the largest
			// exact case. scipy: 600.0 0.7232586770768918
			name: "n = 50, exact",
			ref:  signedRun(50),
			want: Wilcoxon{N: 50, Statistic: 600, Exact: true, Z: nan, P: 0.7232586770768918},
		},
		{
			// The same and 51: n = 51, normal approximation without ties.
			// scipy: 651.0 0.9104415563099536, z = -0.11248160241432363
			name: "n = 51, approximate",
			ref:  append(signedRun(50), 51),
			want: Wilcoxon{N: 51, Statistic: 651, Z: -0.11248160241432363, P: 0.9104415563099536},
		},
		{
			// A NaN pair is dropped: the Hollander-Wolfe pairs again.
			name:  "NaN pair dropped",
			ref:   []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, nan, 1.55, 3.06, 1.30},
			other: []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 7, 1.06, 3.14, 1.29},
			want:  Wilcoxon{N: 9, Excluded: 1, Statistic: 5, Exact: true, Z: nan, P: 0.0390625},
		},
		{
			// scipy raises "zero_method 'wilcox' and 'pratt' do not work
			// if x - y is zero for all elements"; here p is undefined.
			name:  "all zero",
			ref:   []float64{2, 3, 4},
			other: []float64{2, 3, 4},
			want:  Wilcoxon{N: 3, Zeros: 3, Statistic: 0, Z: nan, P: nan},
		},
		{
			// The exact distribution's centre, n = 3 (R+ = 3 of 6): p = 1.
			// scipy: wilcoxon([1, 2, -3]) -> 3.0 1.0
			name: "centre",
			ref:  []float64{1, 2, -3},
			want: Wilcoxon{N: 3, Statistic: 3, Exact: true, Z: nan, P: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			other := tt.other
			if other == nil {
				other = make([]float64, len(tt.ref))
			}
			got, err := WilcoxonSignedRank(tt.ref, other)
			if err != nil {
				t.Fatal(err)
			}
			if got.N != tt.want.N || got.Zeros != tt.want.Zeros || got.Excluded != tt.want.Excluded || got.Exact != tt.want.Exact ||
				!agreesWithReference(got.Statistic, tt.want.Statistic) || !agreesWithReference(got.Z, tt.want.Z) ||
				!agreesWithReference(got.P, tt.want.P) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestWilcoxonSignedRankErrors(t *testing.T) {
	if _, err := WilcoxonSignedRank([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("different lengths: no error")
	}
	if _, err := WilcoxonSignedRank([]float64{math.NaN()}, []float64{1}); err == nil {
		t.Error("no usable pair: no error")
	}
}

// signedRun returns the differences -1, -2, 3, 4, 5, -6, -7, -8, 9, ... up
// to n in absolute value, written in the test source as
// python3 -c "print([(-1)**i*(i+1)*(1 if i%3 else -1) for i in range(50)])".
func signedRun(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		sign := 1.0
		if i%2 == 1 {
			sign = -1
		}
		if i%3 == 0 {
			sign = -sign
		}
		d[i] = sign * float64(i+1)
	}
	return d
}
