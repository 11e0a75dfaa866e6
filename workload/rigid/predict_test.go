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
		{2, 100, 201, 3600, 151},    // ⌈301/2⌉
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
		{100, 400, 3600, 460},       // 160 <= 400, then 160 + 5 min = 460 > 400
		{100, 3599, 3600, 3600},     // never past the request
		{10, 10, math.MaxInt64, 70}, // KillNever: no bound
		// Past the list: 100 + 60+300+900+1800+3600+7200+18000+36000+72000+180000+360000 = 679960,
		// then whole 360000 s steps past 2,000,000: 679960 + 4·360000 = 2119960.
		{100, 2_000_000, math.MaxInt64, 2_119_960},
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
