package moldable_test

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/engine/moldable"
)

// TestBatchLengths: by hand from moldable.md section 3, with EX1's
// lambda* = 21/4 and p_min = 1, and with lambda*/p_min an exact power of
// two, where floor and ceil of log2 agree.
func TestBatchLengths(t *testing.T) {
	for _, c := range []struct {
		lambda, pMin float64
		anchor       moldable.Anchor
		k            int
		taus, lp     []float64
	}{
		{5.25, 1, moldable.AnchorCmax, 2, []float64{1.3125, 2.625, 5.25}, []float64{1, 1.3125, 2.625, 5.25, 10.5}},
		{5.25, 1, moldable.AnchorPmin, 3, []float64{1, 2, 4, 8}, []float64{1, 2, 4, 8, 16}},
		{4, 1, moldable.AnchorCmax, 2, []float64{1, 2, 4}, []float64{1, 2, 4, 8}},
		{4, 1, moldable.AnchorPmin, 2, []float64{1, 2, 4}, []float64{1, 2, 4, 8}},
		{1, 1, moldable.AnchorCmax, 0, []float64{1}, []float64{1, 2}},
	} {
		k, taus := moldable.BatchLengths(c.lambda, c.pMin, c.anchor)
		if k != c.k || !slices.Equal(taus, c.taus) {
			t.Errorf("%v/%v %s: K %d, taus %v; want %d, %v", c.lambda, c.pMin, c.anchor, k, taus, c.k, c.taus)
		}
		if lp := moldable.LPBoundaries(c.lambda, c.pMin, c.anchor); !slices.Equal(lp, c.lp) {
			t.Errorf("%v/%v %s: LP boundaries %v, want %v", c.lambda, c.pMin, c.anchor, lp, c.lp)
		}
	}
}

func TestDEMTOptionsValidate(t *testing.T) {
	ok := moldable.DefaultDEMTOptions()
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(o *moldable.DEMTOptions){
		func(o *moldable.DEMTOptions) { o.Anchor = "lambda" },
		func(o *moldable.DEMTOptions) { o.Tail = "triple" },
		func(o *moldable.DEMTOptions) { o.Variant = "gang" },
		func(o *moldable.DEMTOptions) { o.List = "lazy" },
		func(o *moldable.DEMTOptions) { o.Shuffles = -1 },
	} {
		o := ok
		bad(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
