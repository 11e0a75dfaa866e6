package stats

import (
	"math"
	"testing"
)

func TestHolmAdjust(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		ps, want []float64
	}{
		{
			// By hand, m = 4: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3,
			// 2, 1 = 0.02, 0.03, 0.06, 0.04; the running maximum makes
			// the last 0.06. R: p.adjust(c(0.01, 0.04, 0.03, 0.005),
			// "holm") gives the same 0.03 0.06 0.06 0.02.
			name: "four comparisons",
			ps:   []float64{0.01, 0.04, 0.03, 0.005},
			want: []float64{0.03, 0.06, 0.06, 0.02},
		},
		{
			// A NaN is not in the family, so m = 2: 0.02*2 = 0.04,
			// then max(0.04, 0.5*1) = 0.5.
			name: "undefined p left out",
			ps:   []float64{0.5, nan, 0.02},
			want: []float64{0.5, nan, 0.04},
		},
		{
			// 0.4*2 = 0.8, then max(0.8, min(1, 0.6)) = 0.8; 0.7*3 caps
			// at 1 first: sorted 0.4, 0.6, 0.7 -> 1.2 -> 1, then 1, 1.
			name: "capped at 1",
			ps:   []float64{0.6, 0.4, 0.7},
			want: []float64{1, 1, 1},
		},
	}
	for _, tt := range tests {
		got := HolmAdjust(tt.ps)
		for i := range tt.want {
			if !agreesWithReference(got[i], tt.want[i]) {
				t.Errorf("%s: HolmAdjust(%v) = %v; want %v", tt.name, tt.ps, got, tt.want)
				break
			}
		}
	}
}
