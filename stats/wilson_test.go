package stats

import "testing"

func TestWilsonInterval(t *testing.T) {
	// Reference values: scipy 1.10.1 (/usr/bin/python3), one line per case:
	// python3 -c "from scipy.stats import binomtest; ci=binomtest(K,N).proportion_ci(0.95,'wilson'); print(repr(ci.low), repr(ci.high))"
	tests := []struct {
		successes, trials int
		low, high         float64
	}{
		{140, 150, 0.881637644883941, 0.9633881433303925}, // 93.3%, a typical seed 004 cell
		{144, 150, 0.915486535783444, 0.9815408393979256},
		{150, 150, 0.9750297556319234, 1.0}, // 100%: the interval still has width
		{0, 150, 0.0, 0.024970244368076596},
		{75, 150, 0.42099012028854144, 0.5790098797114586},
		{3, 7, 0.1582198552514697, 0.7495416354723428}, // n < 10
		{1, 1, 0.20654931437723745, 1.0},
		{0, 1, 0.0, 0.7934506856227626},
	}
	for _, tt := range tests {
		got, err := WilsonInterval(tt.successes, tt.trials, 0.95)
		if err != nil {
			t.Fatalf("%d/%d: %v", tt.successes, tt.trials, err)
		}
		if !agreesWithReference(got.Low, tt.low) || !agreesWithReference(got.High, tt.high) {
			t.Errorf("WilsonInterval(%d, %d) = [%v, %v]; scipy: [%v, %v]", tt.successes, tt.trials, got.Low, got.High, tt.low, tt.high)
		}
	}
}

func TestWilsonIntervalErrors(t *testing.T) {
	for _, tt := range []struct {
		successes, trials int
		level             float64
	}{{0, 0, 0.95}, {-1, 5, 0.95}, {6, 5, 0.95}, {2, 5, 1}, {2, 5, 0}} {
		if _, err := WilsonInterval(tt.successes, tt.trials, tt.level); err == nil {
			t.Errorf("WilsonInterval(%d, %d, %v): no error", tt.successes, tt.trials, tt.level)
		}
	}
}
