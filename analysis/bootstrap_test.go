package analysis

import (
	"math"
	"slices"
	"testing"
)

func meanOf(values []float64) func([]int) float64 {
	return func(sample []int) float64 {
		sum := 0.0
		for _, i := range sample {
			sum += values[i]
		}
		return sum / float64(len(sample))
	}
}

func TestPercentileBootstrap(t *testing.T) {
	// The mean of two draws from {0, 1} is 0, 0.5 or 1 with probabilities
	// 1/4, 1/2, 1/4, so in 2,000 resamples far more than 2.5% are 0 and
	// far more than 2.5% are 1: the 95% percentile interval is [0, 1].
	got, err := PercentileBootstrap(2, meanOf([]float64{0, 1}), BootstrapResamples, 0.95, 7)
	if err != nil {
		t.Fatal(err)
	}
	if got.Estimate != 0.5 || got.Low != 0 || got.High != 1 || got.Resamples != 2000 || got.Undefined != 0 {
		t.Errorf("mean of {0, 1}: %+v; want estimate 0.5 in [0, 1] over 2000 resamples", got)
	}

	// A constant sample has a degenerate interval at the constant.
	got, err = PercentileBootstrap(5, meanOf([]float64{3, 3, 3, 3, 3}), 100, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Estimate != 3 || got.Low != 3 || got.High != 3 {
		t.Errorf("constant sample: %+v; want 3 in [3, 3]", got)
	}

	// Seeded: one seed gives one interval, another seed another.
	values := []float64{3.412, 5.87, 2.954, 4.103, 7.221, 3.398, 6.015, 4.77, 3.05, 5.412}
	a, _ := PercentileBootstrap(len(values), meanOf(values), BootstrapResamples, 0.95, 11)
	b, _ := PercentileBootstrap(len(values), meanOf(values), BootstrapResamples, 0.95, 11)
	c, _ := PercentileBootstrap(len(values), meanOf(values), BootstrapResamples, 0.95, 12)
	if a != b {
		t.Errorf("seed 11 twice: %+v and %+v", a, b)
	}
	if a == c {
		t.Errorf("seeds 11 and 12 gave the same interval %+v", a)
	}
	// The sample mean is 4.6205; its interval must contain it and lie
	// within the range of the values.
	if !(a.Low < 4.6205 && 4.6205 < a.High && a.Low > 2.954 && a.High < 7.221) {
		t.Errorf("mean of ten values: %+v; want an interval around 4.6205 within [2.954, 7.221]", a)
	}

	// A statistic undefined on some resamples: NaN unless the resample
	// holds index 0. With n = 2 that is 3/4 of the resamples.
	partial := func(sample []int) float64 {
		for _, i := range sample {
			if i == 0 {
				return 1
			}
		}
		return math.NaN()
	}
	got, _ = PercentileBootstrap(2, partial, BootstrapResamples, 0.95, 3)
	if got.Undefined < 400 || got.Undefined > 600 || got.Low != 1 || got.High != 1 {
		t.Errorf("partly undefined statistic: %+v; want about 500 undefined of 2000 and [1, 1]", got)
	}
}

func TestPercentileBootstrapErrors(t *testing.T) {
	stat := meanOf([]float64{1, 2})
	for _, tt := range []struct {
		n, resamples int
		level        float64
	}{{0, 10, 0.95}, {2, 0, 0.95}, {2, 10, 1}, {2, 10, -0.5}} {
		if _, err := PercentileBootstrap(tt.n, stat, tt.resamples, tt.level, 1); err == nil {
			t.Errorf("PercentileBootstrap(n=%d, resamples=%d, level=%v): no error", tt.n, tt.resamples, tt.level)
		}
	}
}

func TestMedianLogRatio(t *testing.T) {
	// python3 -c "import numpy as n; r=n.array([3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412]); o=n.array([3.9,5.61,3.48,4.95,7.02,4.11,6.83,4.72,3.66,6.1]); print(repr(n.median(n.log(r/o))))"
	// -0.13037312383111233 (numpy 1.24.2); with the first nine pairs
	// (the tenth dropped by a NaN) -0.13367792350616803.
	got, err := MedianLogRatio(worstSLRRef, worstSLROther, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 10 || !agreesWithReference(got.Estimate, -0.13037312383111233) {
		t.Errorf("ten pairs: %+v; want N 10, estimate -0.13037312383111233", got)
	}
	if !(got.Low <= got.Estimate && got.Estimate <= got.High) {
		t.Errorf("ten pairs: interval [%v, %v] does not contain the estimate %v", got.Low, got.High, got.Estimate)
	}
	// The interval equals that of sorting each resample's values: the
	// same seed draws the same indices into the sorted log ratios.
	logRatios := make([]float64, len(worstSLRRef))
	for i := range logRatios {
		logRatios[i] = math.Log(worstSLRRef[i] / worstSLROther[i])
	}
	slices.Sort(logRatios)
	direct, err := PercentileBootstrap(len(logRatios), func(sample []int) float64 {
		values := make([]float64, len(sample))
		for k, i := range sample {
			values[k] = logRatios[i]
		}
		slices.Sort(values)
		return Quantile(values, 0.5)
	}, BootstrapResamples, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if direct != got.BootstrapInterval {
		t.Errorf("ten pairs: interval %+v; sorting each resample gives %+v", got.BootstrapInterval, direct)
	}

	ref := append(append([]float64{}, worstSLRRef[:9]...), missing, 2, 0)
	other := append(append([]float64{}, worstSLROther[:9]...), 1, -1, 3)
	got, err = MedianLogRatio(ref, other, 0.95, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 9 || got.Excluded != 3 || !agreesWithReference(got.Estimate, -0.13367792350616803) {
		t.Errorf("with a NaN and non-positive values: %+v; want N 9, 3 excluded, estimate -0.13367792350616803", got)
	}

	// Every ratio 1/2: the estimate and both bounds are log(1/2).
	half, err := MedianLogRatio([]float64{1, 2, 3, 4}, []float64{2, 4, 6, 8}, 0.95, 9)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Log(0.5); half.Estimate != want || half.Low != want || half.High != want {
		t.Errorf("constant ratio 1/2: %+v; want log(1/2) = %v throughout", half, want)
	}

	if _, err := MedianLogRatio([]float64{0, -1}, []float64{1, 1}, 0.95, 1); err == nil {
		t.Error("no positive pair: no error")
	}
}

// pairsOf returns n pairs shaped like seed 004's worst-case SLRs: other is
// ref times a factor between 0.5 and 50, drawn from a fixed LCG.
func pairsOf(n int) (ref, other []float64) {
	state := uint64(1)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	ref, other = make([]float64, n), make([]float64, n)
	for i := range ref {
		ref[i] = 1 + 100*next()
		other[i] = ref[i] * (0.5 + 49.5*next())
	}
	return ref, other
}

// BenchmarkMedianLogRatio450 is one effect size of a 3-replicate seed 004
// table cell: 450 pairs, 2,000 resamples.
func BenchmarkMedianLogRatio450(b *testing.B) {
	ref, other := pairsOf(450)
	for b.Loop() {
		if _, err := MedianLogRatio(ref, other, 0.95, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWilcoxon450 is the rank test of the same cell.
func BenchmarkWilcoxon450(b *testing.B) {
	ref, other := pairsOf(450)
	for b.Loop() {
		if _, err := WilcoxonSignedRank(ref, other); err != nil {
			b.Fatal(err)
		}
	}
}
