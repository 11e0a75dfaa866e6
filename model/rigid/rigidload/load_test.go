package rigidload

import (
	"math/big"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// three jobs on 4 processors, worked by hand: work 2x100 + 4x50 + 1x200 =
// 600 processor-seconds over the 200 s from the first submit to the last,
// so the offered load is 600 / (4 x 200) = 3/4; with the mean gap the span
// is 200 x 3/2 = 300 s and the load 1/2.
func three() []rigid.Job {
	return []rigid.Job{
		{Number: 1, SubmitSeconds: 0, Procs: 2, RunSeconds: 100, RequestedSeconds: 100},
		{Number: 2, SubmitSeconds: 100, Procs: 4, RunSeconds: 50, RequestedSeconds: 60},
		{Number: 3, SubmitSeconds: 200, Procs: 1, RunSeconds: 200, RequestedSeconds: 300},
	}
}

func TestOffered(t *testing.T) {
	all := Measured{0, 3}
	for _, tt := range []struct {
		span Span
		want string
	}{{SpanSubmits, "3/4"}, {SpanMeanGap, "1/2"}} {
		got, err := Offered(three(), all, 4, tt.span)
		if err != nil || got.RatString() != tt.want {
			t.Errorf("span %s: offered %v (%v), want %s", tt.span, got, err, tt.want)
		}
	}
	// jobs 1 and 2 alone: work 400 over 100 s on 4 processors = 1.
	if got, _ := Offered(three(), Measured{1, 3}, 4, SpanSubmits); got.RatString() != "1" {
		t.Errorf("measured by index [1, 3): %v, want 1", got)
	}
}

// Scale by hand: from 3/4 to 1/2 stretches the gaps by 3/2 (submits 0,
// 150, 300: load 600 / (4 x 300) = 1/2 exactly); to 9/10 compresses them
// by 5/6: 100 x 5/6 = 83.3 -> 83, 200 x 5/6 = 166.7 -> 167, so the
// achieved load is 600 / (4 x 167) = 150/167 = 0.898, the target up to
// one second of rounding.
func TestScale(t *testing.T) {
	for _, tt := range []struct {
		target, factor, achieved string
		submits                  []int64
	}{
		{"1/2", "3/2", "1/2", []int64{0, 150, 300}},
		{"9/10", "5/6", "150/167", []int64{0, 83, 167}},
		{"3/4", "1", "3/4", []int64{0, 100, 200}},
	} {
		target, _ := new(big.Rat).SetString(tt.target)
		in := three()
		s, err := Scale(in, Measured{0, 3}, 4, SpanSubmits, target)
		if err != nil {
			t.Fatal(err)
		}
		if s.Factor.RatString() != tt.factor || s.Achieved.RatString() != tt.achieved {
			t.Errorf("target %s: factor %s achieved %s, want %s and %s", tt.target, s.Factor.RatString(), s.Achieved.RatString(), tt.factor, tt.achieved)
		}
		for i, j := range s.Jobs {
			if j.SubmitSeconds != tt.submits[i] || j.Procs != in[i].Procs || j.RunSeconds != in[i].RunSeconds {
				t.Errorf("target %s: job %d %+v, want submit %d and the size and run time unchanged", tt.target, i, j, tt.submits[i])
			}
		}
		if in[1].SubmitSeconds != 100 {
			t.Error("Scale changed its input")
		}
	}
}

// Rounding keeps the log's order: jobs #5 at 0 s and #3 at 1 s compressed
// by 1/4 would both sit at 0 s with #3 first by number; #3 moves to 1 s.
// A recorded tie (#6 and #7 at 8 s) stays a tie: 8/4 = 2 s both.
func TestScaleKeepsOrder(t *testing.T) {
	jobs := []rigid.Job{
		{Number: 5, SubmitSeconds: 0, Procs: 1, RunSeconds: 1},
		{Number: 3, SubmitSeconds: 1, Procs: 1, RunSeconds: 1},
		{Number: 6, SubmitSeconds: 8, Procs: 1, RunSeconds: 1},
		{Number: 7, SubmitSeconds: 8, Procs: 1, RunSeconds: 1},
	}
	// offered: 4 / (1 x 8) = 1/2; target 2 gives the factor 1/4.
	s, err := Scale(jobs, Measured{0, 4}, 1, SpanSubmits, big.NewRat(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 1, 2, 2}
	for i, j := range s.Jobs {
		if j.SubmitSeconds != want[i] {
			t.Errorf("job #%d at %d s, want %d", j.Number, j.SubmitSeconds, want[i])
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, l := range []float64{0, -0.5, 1, 1.5} {
		if _, err := ParseLoad(l); err == nil || !strings.Contains(err.Error(), "must be > 0 and < 1") {
			t.Errorf("load %v: %v, want the bounds named", l, err)
		}
	}
	if r, err := ParseLoad(0.9); err != nil || r.RatString() != "9/10" {
		t.Errorf("ParseLoad(0.9) = %v, %v; want exactly 9/10", r, err)
	}
	same := []rigid.Job{{SubmitSeconds: 5, Procs: 1, RunSeconds: 1}, {Number: 1, SubmitSeconds: 5, Procs: 1, RunSeconds: 1}}
	if _, err := Offered(same, Measured{0, 2}, 1, SpanSubmits); err == nil || !strings.Contains(err.Error(), "span is empty") {
		t.Errorf("one instant: %v", err)
	}
	if _, err := ParseSpan("month"); err == nil {
		t.Error("span month accepted")
	}
}

// ScaleSeconds about s0 = 10 by 5/6: 90 x 5/6 = 75 -> 85; 190 x 5/6 =
// 158.3 -> 168; -12 x 5/6 = -10 -> 0; -13 x 5/6 = -10.8 -> -11 -> -1
// (floor of x + 1/2 below s0 too).
func TestScaleSeconds(t *testing.T) {
	f := big.NewRat(5, 6)
	for _, tt := range []struct{ s, want int64 }{{100, 85}, {200, 168}, {10, 10}, {-2, 0}, {-3, -1}} {
		if got := ScaleSeconds(tt.s, 10, f); got != tt.want {
			t.Errorf("ScaleSeconds(%d, 10, 5/6) = %d, want %d", tt.s, got, tt.want)
		}
	}
}
