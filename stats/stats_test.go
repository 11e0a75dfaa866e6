package stats

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// Reference values in this file were printed by Debian's python3-scipy 1.10.1,
// python3-numpy 1.24.2 and python3-mpmath 1.2.1 (/usr/bin/python3); each
// one-liner and its output sits beside the values it produced. Confidence
// intervals use mpmath at 40 digits because scipy 1.10's Student t quantile
// (stdtrit) is only accurate to about 1e-11 relative, while gonum's is
// accurate to the last bits.

const referenceRelTolerance = 1e-12

// agreesWithReference reports whether got is within referenceRelTolerance
// of want (relative), or both are NaN, or both are the same infinity.
func agreesWithReference(got, want float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0) || want == 0:
		return got == want
	}
	return math.Abs(got-want) <= referenceRelTolerance*math.Abs(want)
}

// missing is the NaN that marks an unmeasured value.
var missing = math.NaN()

// Worst-case SLRs of two policies over ten paired instances, shaped like
// seed 004's data; reused by the t-test and confidence-interval tests.
var (
	worstSLRRef   = []float64{3.412, 5.87, 2.954, 4.103, 7.221, 3.398, 6.015, 4.77, 3.05, 5.412}
	worstSLROther = []float64{3.9, 5.61, 3.48, 4.95, 7.02, 4.11, 6.83, 4.72, 3.66, 6.1}
)

func TestPairedTTest(t *testing.T) {
	tests := []struct {
		name       string
		ref, other []float64
		want       TTest
	}{
		{
			// python3 -c "import scipy.stats as s; r=s.ttest_rel([3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412],[3.9,5.61,3.48,4.95,7.02,4.11,6.83,4.72,3.66,6.1]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// -3.115439829643865 0.01240952294908585 9
			// python3 -c "import numpy as n; print(repr(n.mean(n.array([3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412])-n.array([3.9,5.61,3.48,4.95,7.02,4.11,6.83,4.72,3.66,6.1]))))"
			// -0.4175000000000001
			name: "ten realistic pairs",
			ref:  worstSLRRef, other: worstSLROther,
			want: TTest{N: 10, MeanDiff: -0.4175000000000001, T: -3.115439829643865, DF: 9, P: 0.01240952294908585},
		},
		{
			// python3 -c "import scipy.stats as s; r=s.ttest_rel([1.02,1.11,0.97,1.05,1.08,1.01,0.99,1.04,1.07,1.03,1.00,1.06],[1.52,1.58,1.49,1.60,1.55,1.50,1.47,1.57,1.61,1.53,1.51,1.56]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// -66.99582076517902 1.0165406391290769e-15 11
			// Mean difference by hand: sum(ref)=12.43, sum(other)=18.49, (12.43-18.49)/12 = -0.505.
			name:  "far tail p-value",
			ref:   []float64{1.02, 1.11, 0.97, 1.05, 1.08, 1.01, 0.99, 1.04, 1.07, 1.03, 1.00, 1.06},
			other: []float64{1.52, 1.58, 1.49, 1.60, 1.55, 1.50, 1.47, 1.57, 1.61, 1.53, 1.51, 1.56},
			want:  TTest{N: 12, MeanDiff: -0.505, T: -66.99582076517902, DF: 11, P: 1.0165406391290769e-15},
		},
		{
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([1.5,2.25],[1.0,2.5]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// 0.3333333333333333 0.7951672353008665 1
			// By hand: d = (0.5, -0.25), mean 0.125, s^2 = 2*0.375^2 = 0.28125,
			// t = 0.125/sqrt(0.28125/2) = 0.125/0.375 = 1/3; p = 1-(2/pi)atan(1/3) for df 1.
			name: "two pairs",
			ref:  []float64{1.5, 2.25}, other: []float64{1.0, 2.5},
			want: TTest{N: 2, MeanDiff: 0.125, T: 0.3333333333333333, DF: 1, P: 0.7951672353008665},
		},
		{
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([1.2,3.4,5.6],[1.2,3.4,5.6]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// nan nan 2
			name: "all differences zero",
			ref:  []float64{1.2, 3.4, 5.6}, other: []float64{1.2, 3.4, 5.6},
			want: TTest{N: 3, MeanDiff: 0, T: missing, DF: 2, P: missing},
		},
		{
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([3,5,9,4],[1,3,7,2]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// inf 0.0 3
			name: "constant positive difference",
			ref:  []float64{3, 5, 9, 4}, other: []float64{1, 3, 7, 2},
			want: TTest{N: 4, MeanDiff: 2, T: math.Inf(1), DF: 3, P: 0},
		},
		{
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([1,3,7,2],[3,5,9,4]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// -inf 0.0 3
			name: "constant negative difference",
			ref:  []float64{1, 3, 7, 2}, other: []float64{3, 5, 9, 4},
			want: TTest{N: 4, MeanDiff: -2, T: math.Inf(-1), DF: 3, P: 0},
		},
		{
			// The mean of three 0.1s rounds to 0.10000000000000002, so a plain
			// variance is not exactly 0; scipy shows the artifact:
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([0.1,0.1,0.1],[0,0,0]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// 1.0190482676041238e+16 9.629649721936175e-33 2
			// The exact answer for equal differences is t = +Inf, p = 0, mean 0.1.
			name: "equal differences whose mean rounds",
			ref:  []float64{0.1, 0.1, 0.1}, other: []float64{0, 0, 0},
			want: TTest{N: 3, MeanDiff: 0.1, T: math.Inf(1), DF: 2, P: 0},
		},
		{
			// Pairs 1, 2 and 5 have a NaN side; scipy on the remaining pairs:
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([2.1,4.0,5.2],[1.8,3.1,5.5]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// 0.866025403784439 0.4777670321329064 2
			// and scipy's own pairwise omission agrees:
			// python3 -W ignore -c "import scipy.stats as s, numpy as n; r=s.ttest_rel([2.1,n.nan,3.3,4.0,5.2,1.9],[1.8,2.0,n.nan,3.1,5.5,n.nan],nan_policy='omit'); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// 0.866025403784439 0.4777670321329064 2
			// Mean difference: (0.3 + 0.9 - 0.3)/3 = 0.3, up to rounding of the decimal inputs.
			name: "NaN pairs excluded",
			ref:  []float64{2.1, missing, 3.3, 4.0, 5.2, 1.9}, other: []float64{1.8, 2.0, missing, 3.1, 5.5, missing},
			want: TTest{N: 3, Excluded: 3, MeanDiff: 0.30000000000000004, T: 0.866025403784439, DF: 2, P: 0.4777670321329064},
		},
		{
			// python3 -W ignore -c "import scipy.stats as s; r=s.ttest_rel([4.2],[3.0]); print(repr(r.statistic), repr(r.pvalue), r.df)"
			// nan nan 0
			// Only one pair survives the NaN exclusion.
			name: "one pair",
			ref:  []float64{4.2, missing}, other: []float64{3.0, 1.0},
			want: TTest{N: 1, Excluded: 1, MeanDiff: 4.2 - 3.0, T: missing, DF: 0, P: missing},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PairedTTest(tt.ref, tt.other)
			if err != nil {
				t.Fatalf("PairedTTest: %v", err)
			}
			if got.N != tt.want.N || got.Excluded != tt.want.Excluded || got.DF != tt.want.DF {
				t.Errorf("N, Excluded, DF = %d, %d, %d; want %d, %d, %d", got.N, got.Excluded, got.DF, tt.want.N, tt.want.Excluded, tt.want.DF)
			}
			if !agreesWithReference(got.MeanDiff, tt.want.MeanDiff) {
				t.Errorf("MeanDiff = %v, want %v", got.MeanDiff, tt.want.MeanDiff)
			}
			if !agreesWithReference(got.T, tt.want.T) {
				t.Errorf("T = %v, want %v", got.T, tt.want.T)
			}
			if !agreesWithReference(got.P, tt.want.P) {
				t.Errorf("P = %v, want %v", got.P, tt.want.P)
			}
		})
	}
}

func TestPairedInputErrors(t *testing.T) {
	tests := []struct {
		name       string
		ref, other []float64
	}{
		{"length mismatch", []float64{1, 2, 3}, []float64{1, 2}},
		{"empty", nil, nil},
		{"every pair has a NaN", []float64{1, missing}, []float64{missing, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := PairedTTest(tt.ref, tt.other); err == nil {
				t.Errorf("PairedTTest = %+v, want an error", got)
			}
			if got, err := Dominance(tt.ref, tt.other, true); err == nil {
				t.Errorf("Dominance = %+v, want an error", got)
			}
		})
	}
}

func TestDominance(t *testing.T) {
	ref := []float64{1, 2, 3, 4, missing}
	other := []float64{2, 2, 1, 5, 3}
	tests := []struct {
		name          string
		lowerIsBetter bool
		want          Dom
	}{
		// Pair 4 is excluded (NaN). Lower is better: 1<=2 yes, 2<=2 yes (a tie
		// counts for ref), 3<=1 no, 4<=5 yes: 3 of 4 = 75%. Wilson interval:
		// python3 -c "from scipy.stats import binomtest; ci=binomtest(3,4).proportion_ci(0.95,'wilson'); print(repr(100*ci.low), repr(100*ci.high))"
		// 30.064184258240186 95.44127391902994 (scipy 1.10.1)
		{"lower is better", true, Dom{N: 4, Excluded: 1, Wins: 3, Percent: 75, Low: 30.064184258240186, High: 95.44127391902994}},
		// Higher is better: 1>=2 no, 2>=2 yes, 3>=1 yes, 4>=5 no: 2 of 4 = 50%.
		// binomtest(2,4): 15.003898915214952 84.99610108478505
		{"higher is better", false, Dom{N: 4, Excluded: 1, Wins: 2, Percent: 50, Low: 15.003898915214952, High: 84.99610108478505}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Dominance(ref, other, tt.lowerIsBetter)
			if err != nil {
				t.Fatalf("Dominance: %v", err)
			}
			low, high := got.Low, got.High
			got.Low, got.High = tt.want.Low, tt.want.High
			if got != tt.want || !agreesWithReference(low, tt.want.Low) || !agreesWithReference(high, tt.want.High) {
				got.Low, got.High = low, high
				t.Errorf("Dominance = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		name     string
		sorted   []float64
		percents []float64
		want     []float64
	}{
		{
			// python3 -c "import numpy as n; print([repr(v) for v in n.percentile([0.8,1.1,1.25,1.9,2.05,2.6,3.3,4.75,9.4],[0,10,25,33,50,75,90,95,100])])"
			// (printed with n.quantile and q = percent/100; same output)
			// ['0.8', '1.04', '1.25', '1.666', '2.05', '3.3', '5.680000000000001', '7.539999999999998', '9.4']
			name:     "nine values",
			sorted:   []float64{0.8, 1.1, 1.25, 1.9, 2.05, 2.6, 3.3, 4.75, 9.4},
			percents: []float64{0, 10, 25, 33, 50, 75, 90, 95, 100},
			want:     []float64{0.8, 1.04, 1.25, 1.666, 2.05, 3.3, 5.680000000000001, 7.539999999999998, 9.4},
		},
		{
			// python3 -c "import numpy as n; print([repr(v) for v in n.percentile([0.3,0.7,1.9,2.2,2.2,3.1,4.4,5.8,6.05,12.5],[0,10,25,33,50,66.7,75,90,99,100])])"
			// ['0.3', '0.6599999999999999', '1.975', '2.1910000000000003', '2.6500000000000004', '4.4042', '5.45', '6.694999999999998', '11.919500000000001', '12.5']
			name:     "ten values with a tie",
			sorted:   []float64{0.3, 0.7, 1.9, 2.2, 2.2, 3.1, 4.4, 5.8, 6.05, 12.5},
			percents: []float64{0, 10, 25, 33, 50, 66.7, 75, 90, 99, 100},
			want:     []float64{0.3, 0.6599999999999999, 1.975, 2.1910000000000003, 2.6500000000000004, 4.4042, 5.45, 6.694999999999998, 11.919500000000001, 12.5},
		},
		{
			// python3 -c "import numpy as n; print([repr(v) for v in n.quantile([7.5],[0,0.25,0.5,1])])"
			// ['7.5', '7.5', '7.5', '7.5']
			name:     "one value",
			sorted:   []float64{7.5},
			percents: []float64{0, 25, 50, 100},
			want:     []float64{7.5, 7.5, 7.5, 7.5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, percent := range tt.percents {
				// Divided at run time, as numpy.percentile does, so p is the
				// same float64 numpy used.
				p := percent / 100
				// Exact equality: Quantile repeats numpy's arithmetic.
				if got := Quantile(tt.sorted, p); got != tt.want[i] {
					t.Errorf("Quantile(%v) = %v, want %v", p, got, tt.want[i])
				}
			}
		})
	}
}

func TestQuantileUndefined(t *testing.T) {
	tests := []struct {
		name   string
		sorted []float64
		p      float64
	}{
		{"empty", nil, 0.5},
		{"p below 0", []float64{1, 2}, -0.1},
		{"p above 1", []float64{1, 2}, 1.5},
		{"p NaN", []float64{1, 2}, missing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quantile(tt.sorted, tt.p); !math.IsNaN(got) {
				t.Errorf("Quantile(%v, %v) = %v, want NaN", tt.sorted, tt.p, got)
			}
		})
	}
}

func TestBoxPlot(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want Box
	}{
		{
			// Sorted without the NaN: -20 1 2 3 4 5 6 7 8 9 30 (n=11).
			// Q1 at index 10*0.25 = 2.5 -> (2+3)/2 = 2.5; median at index 5 -> 5;
			// Q3 at index 7.5 -> (7+8)/2 = 7.5. IQR 5, fences 2.5-7.5 = -5 and
			// 7.5+7.5 = 15, so the whiskers are 1 and 9 and -20, 30 are outliers.
			// Mean (45 - 20 + 30)/11 = 5.
			name: "clear outliers, unsorted, one NaN",
			xs:   []float64{5, 30, 1, 9, missing, 2, -20, 8, 3, 7, 4, 6},
			want: Box{N: 11, Excluded: 1, Min: -20, Q1: 2.5, Median: 5, Q3: 7.5, Max: 30,
				WhiskerLow: 1, WhiskerHigh: 9, Outliers: []float64{-20, 30}, Mean: 5},
		},
		{
			// Q1 = 4, Q3 = 6 (indices 1 and 3), IQR 2, fences 1 and 9: values
			// exactly on a fence are inside, so the whiskers reach 1 and 9.
			// Mean 25/5 = 5.
			name: "values on the fences",
			xs:   []float64{9, 1, 5, 4, 6},
			want: Box{N: 5, Min: 1, Q1: 4, Median: 5, Q3: 6, Max: 9,
				WhiskerLow: 1, WhiskerHigh: 9, Outliers: []float64{}, Mean: 5},
		},
		{
			// Same quartiles and fences as above; 0 and 10 lie just outside,
			// leaving the whiskers on the quartile values 4 and 6.
			name: "whiskers collapse onto the box",
			xs:   []float64{10, 0, 5, 4, 6},
			want: Box{N: 5, Min: 0, Q1: 4, Median: 5, Q3: 6, Max: 10,
				WhiskerLow: 4, WhiskerHigh: 6, Outliers: []float64{0, 10}, Mean: 5},
		},
		{
			name: "one value",
			xs:   []float64{7.5},
			want: Box{N: 1, Min: 7.5, Q1: 7.5, Median: 7.5, Q3: 7.5, Max: 7.5,
				WhiskerLow: 7.5, WhiskerHigh: 7.5, Outliers: []float64{}, Mean: 7.5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := slices.Clone(tt.xs)
			got, err := BoxPlot(tt.xs)
			if err != nil {
				t.Fatalf("BoxPlot: %v", err)
			}
			if !slices.Equal(got.Outliers, tt.want.Outliers) {
				t.Errorf("Outliers = %v, want %v", got.Outliers, tt.want.Outliers)
			}
			got.Outliers, tt.want.Outliers = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("BoxPlot = %+v, want %+v", got, tt.want)
			}
			if !slices.EqualFunc(input, tt.xs, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Errorf("BoxPlot modified its input: %v, was %v", tt.xs, input)
			}
		})
	}
}

func TestBoxPlotNoValues(t *testing.T) {
	for _, xs := range [][]float64{nil, {missing, missing}} {
		if got, err := BoxPlot(xs); err == nil {
			t.Errorf("BoxPlot(%v) = %+v, want an error", xs, got)
		}
	}
}

func TestMeanCI(t *testing.T) {
	tests := []struct {
		name  string
		xs    []float64
		level float64
		want  MeanInterval
	}{
		{
			// python3 -c "import mpmath as m; m.mp.dps=40; x,c=[3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412],0.95; x=[m.mpf(v) for v in x]; n=len(x); mu=sum(x)/n; s=m.sqrt(sum((v-mu)**2 for v in x)/(n-1)); q=m.findroot(lambda t: 1-m.betainc((n-1)/2.,.5,0,(n-1)/(n-1+t*t),regularized=True)/2-(1+m.mpf(c))/2, 2); print([m.nstr(v,17) for v in (mu, mu-q*s/m.sqrt(n), mu+q*s/m.sqrt(n))])"
			// ['4.6204999999999999', '3.5706656922978069', '5.6703343077021929']
			// scipy 1.10 is 2.6e-12 off here (its t.ppf is accurate to ~1e-11):
			// python3 -c "import scipy.stats as s, numpy as n; x=[3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412]; print([repr(v) for v in s.t.interval(0.95, len(x)-1, loc=n.mean(x), scale=s.sem(x))])"
			// ['3.570665692324358', '5.67033430767564']
			name: "95% over ten values", xs: worstSLRRef, level: 0.95,
			want: MeanInterval{N: 10, Mean: 4.6204999999999999, Low: 3.5706656922978069, High: 5.6703343077021929},
		},
		{
			// python3 -c "import mpmath as m; m.mp.dps=40; x,c=[3.412,5.87,2.954,4.103,7.221,3.398,6.015,4.77,3.05,5.412],0.99; x=[m.mpf(v) for v in x]; n=len(x); mu=sum(x)/n; s=m.sqrt(sum((v-mu)**2 for v in x)/(n-1)); q=m.findroot(lambda t: 1-m.betainc((n-1)/2.,.5,0,(n-1)/(n-1+t*t),regularized=True)/2-(1+m.mpf(c))/2, 2); print([m.nstr(v,17) for v in (mu, mu-q*s/m.sqrt(n), mu+q*s/m.sqrt(n))])"
			// ['4.6204999999999999', '3.1122984912537668', '6.128701508746233']
			name: "99% over ten values with NaNs", xs: append([]float64{missing}, append(slices.Clone(worstSLRRef), missing)...), level: 0.99,
			want: MeanInterval{N: 10, Excluded: 2, Mean: 4.6204999999999999, Low: 3.1122984912537668, High: 6.128701508746233},
		},
		{
			// python3 -c "import mpmath as m; m.mp.dps=40; x,c=[12.0,15.5],0.95; x=[m.mpf(v) for v in x]; n=len(x); mu=sum(x)/n; s=m.sqrt(sum((v-mu)**2 for v in x)/(n-1)); q=m.findroot(lambda t: 1-m.betainc((n-1)/2.,.5,0,(n-1)/(n-1+t*t),regularized=True)/2-(1+m.mpf(c))/2, 2); print([m.nstr(v,17) for v in (mu, mu-q*s/m.sqrt(n), mu+q*s/m.sqrt(n))])"
			// ['13.75', '-8.4858582883057133', '35.985858288305713']
			// By hand: s = 3.5/sqrt(2), s/sqrt(2) = 1.75, t(0.975, df 1) = tan(0.475*pi) = 12.706204736174705.
			name: "two values", xs: []float64{12.0, 15.5}, level: 0.95,
			want: MeanInterval{N: 2, Mean: 13.75, Low: -8.4858582883057133, High: 35.985858288305713},
		},
		{
			// Zero spread: the interval has zero width.
			name: "constant values", xs: []float64{2.5, 2.5, 2.5}, level: 0.95,
			want: MeanInterval{N: 3, Mean: 2.5, Low: 2.5, High: 2.5},
		},
		{
			// One value: the sample SD (divisor n-1 = 0) is undefined.
			name: "one value", xs: []float64{missing, 4.25}, level: 0.95,
			want: MeanInterval{N: 1, Excluded: 1, Mean: 4.25, Low: missing, High: missing},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MeanCI(tt.xs, tt.level)
			if err != nil {
				t.Fatalf("MeanCI: %v", err)
			}
			if got.N != tt.want.N || got.Excluded != tt.want.Excluded {
				t.Errorf("N, Excluded = %d, %d; want %d, %d", got.N, got.Excluded, tt.want.N, tt.want.Excluded)
			}
			if !agreesWithReference(got.Mean, tt.want.Mean) || !agreesWithReference(got.Low, tt.want.Low) || !agreesWithReference(got.High, tt.want.High) {
				t.Errorf("Mean, Low, High = %v, %v, %v; want %v, %v, %v", got.Mean, got.Low, got.High, tt.want.Mean, tt.want.Low, tt.want.High)
			}
		})
	}
}

func TestMeanCIErrors(t *testing.T) {
	tests := []struct {
		name  string
		xs    []float64
		level float64
	}{
		{"level 0", []float64{1, 2}, 0},
		{"level 1", []float64{1, 2}, 1},
		{"level as percent", []float64{1, 2}, 95},
		{"level NaN", []float64{1, 2}, missing},
		{"no values", []float64{missing}, 0.95},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := MeanCI(tt.xs, tt.level); err == nil {
				t.Errorf("MeanCI = %+v, want an error", got)
			}
		})
	}
}

func ExamplePairedTTest() {
	// Worst-case SLR of P-SLR (ref) and SRTF (other) on the same ten
	// workloads; the sixth SRTF run failed and is recorded as NaN.
	pslr := []float64{3.412, 5.87, 2.954, 4.103, 7.221, 3.398, 6.015, 4.77, 3.05, 5.412}
	srtf := []float64{3.9, 5.61, 3.48, 4.95, 7.02, math.NaN(), 6.83, 4.72, 3.66, 6.1}
	test, err := PairedTTest(pslr, srtf)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Cross-check on the nine complete pairs: python3 -W ignore -c "import scipy.stats as s; print(s.ttest_rel([3.412,5.87,2.954,4.103,7.221,6.015,4.77,3.05,5.412],[3.9,5.61,3.48,4.95,7.02,6.83,4.72,3.66,6.1]))"
	// TtestResult(statistic=-2.6482975951730423, pvalue=0.029333179955718092, df=8)
	fmt.Printf("n=%d excluded=%d mean diff=%.4f t=%.4f df=%d p=%.4f significant at 5%%: %v\n",
		test.N, test.Excluded, test.MeanDiff, test.T, test.DF, test.P, test.P < 0.05)
	// Output:
	// n=9 excluded=1 mean diff=-0.3848 t=-2.6483 df=8 p=0.0293 significant at 5%: true
}
