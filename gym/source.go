package gym

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	genrigid "github.com/sweep-sched/sweep/gen/rigid"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// An episode is the workload of one episode: its warm-up jobs first, then
// the episode's own.
type episode struct {
	w *rigid.Workload
	// warmUp is the number of warm-up jobs; first is the index of the
	// episode's first job in its source (a trace's kept jobs; 0 for an
	// instance).
	warmUp, first int
	// extra holds, per job of w, what the rlscheduler preset shows
	// beyond the rigid job (nil otherwise).
	extra []rlJob
}

// A source draws the episodes.
type source interface {
	// episode returns the episode whose jobs start at index first of the
	// source, or one drawn from rng when first < 0.
	episode(rng *rand.Rand, first int) (episode, error)
	// maxEstimateSeconds normalises the estimates the observation shows.
	maxEstimateSeconds() int64
}

func newSource(c *Config) (source, error) {
	switch {
	case c.Workload == LublinWorkload:
		return newLublinSource(c)
	case c.Preset == PresetRLScheduler:
		t, err := readRLSchedulerTrace(c.Workload)
		if err != nil {
			return nil, err
		}
		return newTraceSource(c, t.name, t.procs, t.jobs, t)
	default:
		t, err := rigidtrace.Load(c.Workload, rigidtrace.Options{})
		if err != nil {
			return nil, fmt.Errorf("gym setup: workload: %w", err)
		}
		return newTraceSource(c, c.Workload, t.Procs, t.Jobs, nil)
	}
}

// traceSource cuts windows of jobs from a trace by job index.
type traceSource struct {
	name          string
	procs         int
	jobs          []rigid.Job
	rl            *rlTrace
	jobsPer, warm int
	maxEstimate   int64
}

func newTraceSource(c *Config, name string, procs int, jobs []rigid.Job, rl *rlTrace) (*traceSource, error) {
	if len(jobs) < c.Jobs+c.WarmUpJobs {
		return nil, fmt.Errorf("gym setup: %s has %d jobs: fewer than jobs %d + warmup %d", name, len(jobs), c.Jobs, c.WarmUpJobs)
	}
	t := &traceSource{name: name, procs: procs, jobs: jobs, rl: rl, jobsPer: c.Jobs, warm: c.WarmUpJobs}
	for i := range jobs {
		t.maxEstimate = max(t.maxEstimate, jobs[i].RequestedSeconds)
	}
	return t, nil
}

// firsts is the number of windows: the first job of an episode is in
// [warm-up, warm-up + Firsts).
func (t *traceSource) firsts() int { return len(t.jobs) - t.jobsPer - t.warm + 1 }

func (t *traceSource) episode(rng *rand.Rand, first int) (episode, error) {
	if first < 0 {
		first = t.warm + rng.IntN(t.firsts())
	}
	if first < t.warm || first >= t.warm+t.firsts() {
		return episode{}, fmt.Errorf("%s: first job %d: want %d to %d (%d jobs kept, %d per episode, %d warm-up)",
			t.name, first, t.warm, t.warm+t.firsts()-1, len(t.jobs), t.jobsPer, t.warm)
	}
	from, to := first-t.warm, first+t.jobsPer
	e := episode{w: &rigid.Workload{Name: fmt.Sprintf("%s jobs [%d, %d)", t.name, first, to), Procs: t.procs,
		Jobs: t.jobs[from:to]}, warmUp: t.warm, first: first}
	if t.rl != nil {
		e.extra = t.rl.extra[from:to]
	}
	return e, nil
}

func (t *traceSource) maxEstimateSeconds() int64 {
	if t.rl != nil {
		return t.rl.maxRunSeconds // HPCEnv divides the request by the longest run
	}
	return t.maxEstimate
}

// lublinSource draws a Lublin-Feitelson instance per episode, its
// estimates Tsafrir's, its arrivals scaled to the load.
type lublinSource struct {
	params    genrigid.Params
	estimates genrigid.EstimateParams
	procs     int
	jobs      int
	warm      int
	load      *big.Rat
}

func newLublinSource(c *Config) (*lublinSource, error) {
	l := &lublinSource{params: genrigid.DefaultParams(), estimates: genrigid.DefaultEstimateParams(),
		procs: c.Procs, jobs: c.Jobs, warm: c.WarmUpJobs}
	if c.Load != 0 {
		var err error
		if l.load, err = rigidload.ParseLoad(c.Load); err != nil {
			return nil, fmt.Errorf("gym setup: %w", err)
		}
	}
	if _, _, err := genrigid.Lublin(l.params, l.procs, 0, [2]uint64{}); err != nil {
		return nil, fmt.Errorf("gym setup: %w", err)
	}
	return l, nil
}

func (l *lublinSource) episode(rng *rand.Rand, first int) (episode, error) {
	if first > 0 {
		return episode{}, fmt.Errorf("%s: option first %d: an instance has no job index to start from; give a seed", LublinWorkload, first)
	}
	n := l.jobs + l.warm
	w, _, err := genrigid.Lublin(l.params, l.procs, n, [2]uint64{rng.Uint64(), rng.Uint64()})
	if err != nil {
		return episode{}, err
	}
	if err := genrigid.Tsafrir(w.Jobs, l.estimates, [2]uint64{rng.Uint64(), rng.Uint64()}); err != nil {
		return episode{}, err
	}
	if l.load != nil {
		sc, err := rigidload.Scale(w.Jobs, rigidload.Measured{From: l.warm, To: n}, l.procs, rigidload.SpanSubmits, l.load)
		if err != nil {
			return episode{}, err
		}
		w.Jobs = sc.Jobs
	}
	return episode{w: w, warmUp: l.warm}, nil
}

func (l *lublinSource) maxEstimateSeconds() int64 { return l.estimates.MaxEstimateSeconds }
