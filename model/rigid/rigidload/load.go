// Package rigidload owns the load rule of rigid workloads (issue 32): the
// offered load of a set of jobs on a machine, and the rescaling of submit
// times that gives the set a target load. Every rigid workload at a load
// (trace months, whole traces and windows, Batsim workloads, generated
// ones) goes through Scale, computed in exact rationals so that every
// caller gets the same seconds.
package rigidload

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// MaxLoad is the bound loads must stay below: at an offered load of 1 the
// jobs ask for all the machine offers in their span, and the queue of any
// policy grows for as long as the span lasts.
const MaxLoad = 1.0

// Span chooses the seconds a job set's offered load divides by.
type Span uint8

const (
	// SpanSubmits (span: submits, the default) is the first measured
	// submit to the last: the set's own extent, read off its jobs alone
	// (the rigid_jobs table) with no assumption about the jobs around it.
	SpanSubmits Span = iota
	// SpanMeanGap (span: mean-gap) adds one mean inter-arrival time to
	// SpanSubmits, n gaps for n jobs, as a renewal process of n arrivals
	// spans; on 10,000 jobs it is 0.01% longer.
	SpanMeanGap
)

// Spans are the manifest's names of the spans, in Span order.
var Spans = []string{"submits", "mean-gap"}

// String returns the span's manifest name.
func (s Span) String() string {
	if int(s) < len(Spans) {
		return Spans[s]
	}
	return fmt.Sprintf("span(%d)", uint8(s))
}

// ParseSpan reads a span's manifest name; "" is the default.
func ParseSpan(name string) (Span, error) {
	switch name {
	case "", "submits":
		return SpanSubmits, nil
	case "mean-gap":
		return SpanMeanGap, nil
	}
	return 0, fmt.Errorf("span %q; want submits (first to last measured submit, the default) or mean-gap (plus one mean inter-arrival time)", name)
}

// ParseLoad returns load as the exact decimal its shortest float64 text
// denotes (0.9 is 9/10), refusing a load outside (0, MaxLoad).
func ParseLoad(load float64) (*big.Rat, error) {
	if !(load > 0) || !(load < MaxLoad) {
		return nil, fmt.Errorf("load %v: a rigid workload's offered load must be > 0 and < %v (at %v the jobs ask for all the machine offers)", load, MaxLoad, MaxLoad)
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(load, 'g', -1, 64))
	if !ok {
		return nil, fmt.Errorf("load %v: not a decimal number", load)
	}
	return r, nil
}

// Measured are the measured jobs of a workload by index, [From, To) of
// its Jobs; the jobs before are its warm-up, those after its cool-down.
type Measured struct{ From, To int }

// Offered returns the offered load of jobs[m.From:m.To] on procs
// processors: the processor-seconds they ask for (processors x run time:
// the work the machine must do) over the processor-seconds the machine
// offers in their span.
func Offered(jobs []rigid.Job, m Measured, procs int, span Span) (*big.Rat, error) {
	work, seconds, err := workAndSpan(jobs, m, span)
	if err != nil {
		return nil, err
	}
	den := new(big.Rat).Mul(seconds, new(big.Rat).SetInt64(int64(procs)))
	return den.Quo(new(big.Rat).SetInt(work), den), nil
}

// workAndSpan returns the measured jobs' processor-seconds and their span
// in seconds (a rational for the mean gap).
func workAndSpan(jobs []rigid.Job, m Measured, span Span) (*big.Int, *big.Rat, error) {
	if m.From < 0 || m.To > len(jobs) || m.To-m.From < 2 {
		return nil, nil, fmt.Errorf("offered load: measured jobs [%d, %d) of %d: want at least two jobs", m.From, m.To, len(jobs))
	}
	first, last := jobs[m.From].SubmitSeconds, jobs[m.To-1].SubmitSeconds
	if last <= first {
		return nil, nil, fmt.Errorf("offered load: the %d measured jobs are all submitted at %d s: their span is empty", m.To-m.From, first)
	}
	work := new(big.Int)
	var part int64 // summed in int64 until it could overflow
	for i := m.From; i < m.To; i++ {
		w := jobs[i].WorkProcSeconds()
		if part > math.MaxInt64-w {
			work.Add(work, big.NewInt(part))
			part = 0
		}
		part += w
	}
	work.Add(work, big.NewInt(part))
	seconds := new(big.Rat).SetInt64(last - first)
	if span == SpanMeanGap {
		n := int64(m.To - m.From)
		seconds.Mul(seconds, big.NewRat(n, n-1))
	}
	return work, seconds, nil
}

// Scaled is a workload's jobs at a target load.
type Scaled struct {
	// Jobs are copies of the input's, with new submit times.
	Jobs []rigid.Job
	// Factor scales every inter-arrival time: > 1 stretches the arrivals
	// (a lower load than recorded), < 1 compresses them.
	Factor *big.Rat
	// Achieved is the measured jobs' offered load at the new (whole
	// second) submit times: the target up to their rounding.
	Achieved *big.Rat
}

// Scale returns jobs with their inter-arrival times scaled by one factor
// so that the measured jobs' offered load on procs processors is target;
// sizes and run times are unchanged. The factor is offered / target,
// exact; job i is submitted at s0 + round((s_i - s0) x factor) with s0
// the first job's submit (which stays), halves rounded up. Rounding may
// tie two jobs whose order by (submit, number) would then flip: the later
// one moves a second on, so the jobs keep the log's order and the
// measured jobs their indices.
func Scale(jobs []rigid.Job, m Measured, procs int, span Span, target *big.Rat) (*Scaled, error) {
	if target.Sign() <= 0 {
		return nil, fmt.Errorf("scaling to load %s: want a load > 0", target.RatString())
	}
	offered, err := Offered(jobs, m, procs, span)
	if err != nil {
		return nil, err
	}
	factor := new(big.Rat).Quo(offered, target)
	out := &Scaled{Jobs: make([]rigid.Job, len(jobs)), Factor: factor}
	copy(out.Jobs, jobs)
	s0 := jobs[0].SubmitSeconds
	num, den := factor.Num(), factor.Denom()
	twoDen := new(big.Int).Lsh(den, 1)
	var x, q big.Int
	for i := range out.Jobs {
		j := &out.Jobs[i]
		// floor(((s_i - s0) x num x 2 + den) / (2 den)) = round half up.
		x.SetInt64(j.SubmitSeconds - s0)
		x.Mul(&x, num)
		x.Lsh(&x, 1)
		x.Add(&x, den)
		q.Quo(&x, twoDen)
		if !q.IsInt64() || q.Int64() > math.MaxInt64-s0 {
			return nil, fmt.Errorf("scaling to load %s: job %d's submit time overflows int64 seconds", target.RatString(), j.Number)
		}
		j.SubmitSeconds = s0 + q.Int64()
		if i == 0 {
			continue
		}
		switch p := &out.Jobs[i-1]; {
		case jobs[i].SubmitSeconds == jobs[i-1].SubmitSeconds:
			j.SubmitSeconds = p.SubmitSeconds // a recorded tie stays one
		case j.SubmitSeconds < p.SubmitSeconds || j.SubmitSeconds == p.SubmitSeconds && j.Number <= p.Number:
			j.SubmitSeconds = p.SubmitSeconds + 1
		}
	}
	out.Achieved, err = Offered(out.Jobs, m, procs, span)
	if err != nil {
		return nil, fmt.Errorf("scaling to load %s: %w", target.RatString(), err)
	}
	return out, nil
}

// Float returns r as the nearest float64.
func Float(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// ScaleSeconds returns s0 + round((seconds - s0) x factor), the rule of
// Scale for a time that is not a job's submit (a measured window's ends).
func ScaleSeconds(seconds, s0 int64, factor *big.Rat) int64 {
	x := new(big.Rat).SetInt64(seconds - s0)
	x.Mul(x, factor)
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom())
	if x.Sign() < 0 && new(big.Int).Mul(q, x.Denom()).Cmp(x.Num()) != 0 {
		q.Sub(q, big.NewInt(1)) // floor, not truncation, below s0
	}
	return s0 + q.Int64()
}
