package report

import (
	"math"
	"testing"
)

func TestFormatMean(t *testing.T) {
	for _, tt := range []struct {
		mean, half float64
		want       string
	}{
		{293.8, 258.4, "294 ± 258"},
		{7.51, 2.6, "7.51 ± 2.60"},
		{479249, 400012, "479000 ± 400000"},
		{5.207e6, 4.1e6, "5.21e+06 ± 4.1e+06"},
		{0.4231, 0.0123, "0.423 ± 0.0123"},
		{3, math.NaN(), "3.00"},
	} {
		if got := FormatMean(tt.mean, tt.half); got != tt.want {
			t.Errorf("FormatMean(%v, %v) = %q; want %q", tt.mean, tt.half, got, tt.want)
		}
	}
}
