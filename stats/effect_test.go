package stats

import (
	"math"
	"slices"
	"testing"
)

func TestMedianLogRatio(t *testing.T) {
	// python3 -c "import numpy as n; r=n.array([3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412]); o=n.array([3.9,5.61,3.48,4.95,7.02,4.11,6.83,4.72,3.66,6.1]); print(repr(n.median(n.log(r/o))))"
	// -0.13037312383111233 (numpy 1.24.2); with the first nine pairs
	// (the tenth dropped by a NaN) -0.13367792350616803.
	got, err := MedianLogRatio(worstSLRRef, worstSLROther, 0.95, BootstrapSeed("effect test"))
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
	direct, err := PercentileBootstrap(len(logRatios), BootstrapResamples, BootstrapSeed("effect test"), 0.95, func(sample []int) float64 {
		values := make([]float64, len(sample))
		for k, i := range sample {
			values[k] = logRatios[i]
		}
		slices.Sort(values)
		return Quantile(values, 0.5)
	})
	if err != nil {
		t.Fatal(err)
	}
	if direct[0] != got.BootstrapInterval {
		t.Errorf("ten pairs: interval %+v; sorting each resample gives %+v", got.BootstrapInterval, direct[0])
	}

	ref := append(append([]float64{}, worstSLRRef[:9]...), missing, 2, 0)
	other := append(append([]float64{}, worstSLROther[:9]...), 1, -1, 3)
	got, err = MedianLogRatio(ref, other, 0.95, BootstrapSeed("effect test 2"))
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 9 || got.Excluded != 3 || !agreesWithReference(got.Estimate, -0.13367792350616803) {
		t.Errorf("with a NaN and non-positive values: %+v; want N 9, 3 excluded, estimate -0.13367792350616803", got)
	}

	// Every ratio 1/2: the estimate and both bounds are log(1/2).
	half, err := MedianLogRatio([]float64{1, 2, 3, 4}, []float64{2, 4, 6, 8}, 0.95, BootstrapSeed("effect test 3"))
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Log(0.5); half.Estimate != want || half.Low != want || half.High != want {
		t.Errorf("constant ratio 1/2: %+v; want log(1/2) = %v throughout", half, want)
	}

	if _, err := MedianLogRatio([]float64{0, -1}, []float64{1, 1}, 0.95, BootstrapSeed("effect test")); err == nil {
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
		if _, err := MedianLogRatio(ref, other, 0.95, BootstrapSeed("bench")); err != nil {
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
