package rigid

import (
	"math"
	"testing"
)

// Predictions and their corrections worked by hand from the rule of
// predict.go (Tsafrir, Etsion and Feitelson 2007).
func TestPredictAndCorrect(t *testing.T) {
	predict := []struct {
		history             int
		last, previous, req int64
		want                int64
	}{
		{0, 0, 0, 3600, 3600},       // no history: the request
		{1, 100, 0, 3600, 3600},     // one job is not two
		{2, 100, 201, 3600, 150},    // ⌊301/2⌋, as pyss's int((last + prev) / 2)
		{2, 5000, 4000, 3600, 3600}, // clamped to the request
	}
	for _, tt := range predict {
		if got := PredictSeconds(tt.history, tt.last, tt.previous, tt.req); got != tt.want {
			t.Errorf("PredictSeconds(%d, %d, %d, %d) = %d, want %d", tt.history, tt.last, tt.previous, tt.req, got, tt.want)
		}
	}
	correct := []struct {
		est, elapsed, bound, want int64
	}{
		{100, 99, 3600, 100},        // not outlived
		{100, 100, 3600, 160},       // + 1 min
		{100, 400, 3600, 1000},      // 100 + 1 min = 160 and 100 + 5 min = 400 are not past 400: 100 + 15 min
		{100, 3599, 3600, 3600},     // never past the request
		{10, 10, math.MaxInt64, 70}, // KillNever: no bound
		// Past the list (100 + 100 h = 360100 <= 2,000,000): the first
		// multiple of 100 h past it, 100 + 6 x 360000.
		{100, 2_000_000, math.MaxInt64, 2_160_100},
	}
	for _, tt := range correct {
		if got := CorrectedSeconds(tt.est, tt.elapsed, tt.bound); got != tt.want {
			t.Errorf("CorrectedSeconds(%d, %d, %d) = %d, want %d", tt.est, tt.elapsed, tt.bound, got, tt.want)
		}
	}
}

func TestParseVariantAndKill(t *testing.T) {
	for _, v := range []Variant{EstimateExact, EstimateRequested, EstimatePredicted} {
		if got, err := ParseVariant(v.String()); err != nil || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v, got, err)
		}
	}
	for _, k := range []Kill{KillAtRequest, KillNever} {
		if got, err := ParseKill(k.String()); err != nil || got != k {
			t.Errorf("ParseKill(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKill("walltime"); err == nil {
		t.Error("ParseKill(walltime) should fail")
	}
	j := Job{RunSeconds: 10, RequestedSeconds: 10, LoggedRunSeconds: 15}
	if j.RunSecondsUnder(KillAtRequest) != 10 || j.RunSecondsUnder(KillNever) != 15 {
		t.Errorf("run under request/never: %d, %d; want 10, 15", j.RunSecondsUnder(KillAtRequest), j.RunSecondsUnder(KillNever))
	}
}
