// Package moldable generates the moldable-task workloads of seed 002's
// experiments (Dutot, Eyraud, Mounié, Trystram 2004; generators rebuilt in
// shared/design/moldable.md section 5): sequential times uniform or mixed
// (small and large tasks), a parallelism model that derives the times on
// 2..m processors (the speedup recurrence, weakly or highly parallel, or
// Downey's model as in Cirne and Berman), and uniform weights. Four named
// presets reproduce the paper's workloads, every parameter overridable.
//
// An instance depends only on the root seed, the parameters in canonical
// form and the instance number, through grid.InstanceSeed, like every other
// sweep generator.
package moldable

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/gen/grid"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// Sequential-time models.
const (
	SeqUniform = "uniform" // p(1) ~ U[seq-min, seq-max]
	SeqMixed   = "mixed"   // small N(small-mean, small-sd) w.p. small-share, else large N(large-mean, large-sd); <= 0 redrawn
)

// Parallelism models.
const (
	ParWeak  = "weak"  // recurrence with X ~ N(weak-mean, x-sd) truncated to [0, 1]
	ParHigh  = "high"  // recurrence with X ~ N(high-mean, x-sd) truncated to [0, 1]
	ParMixed = "mixed" // small tasks weak, large tasks high (needs sequential=mixed)
	// ParCirneBerman is Downey's speedup model with average parallelism A
	// log-uniform in [1, m] and sigma uniform in [0, cb-sigma-max].
	ParCirneBerman = "cirne-berman"
)

// When X of the recurrence is drawn.
const (
	XPerProcessor = "processor" // afresh for every k (the note's default)
	XPerTask      = "task"      // once per task
)

// config holds the parameter values.
type config struct {
	tasks, processors    int
	weightMin, weightMax float64
	sequential           string
	seqMin, seqMax       float64
	smallShare           float64
	smallMean, smallSD   float64
	largeMean, largeSD   float64
	parallelism          string
	weakMean, highMean   float64
	xSD                  float64
	xPer                 string
	cbSigmaMax           float64
}

type spec struct {
	doc string
	set func(c *config, v string) error
	get func(c *config) string
}

func floatSpec(doc string, field func(c *config) *float64) spec {
	return spec{doc,
		func(c *config, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("want a finite number")
			}
			*field(c) = f
			return nil
		},
		func(c *config) string { return strconv.FormatFloat(*field(c), 'g', -1, 64) }}
}

func intSpec(doc string, field func(c *config) *int) spec {
	return spec{doc,
		func(c *config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1_000_000 {
				return fmt.Errorf("want an integer in 1..1000000")
			}
			*field(c) = n
			return nil
		},
		func(c *config) string { return strconv.Itoa(*field(c)) }}
}

func choiceSpec(doc string, field func(c *config) *string, choices ...string) spec {
	return spec{doc + ": " + strings.Join(choices, ", "),
		func(c *config, v string) error {
			if !slices.Contains(choices, v) {
				return fmt.Errorf("want one of %s", strings.Join(choices, ", "))
			}
			*field(c) = v
			return nil
		},
		func(c *config) string { return *field(c) }}
}

var specs = map[string]spec{
	"tasks":        intSpec("number of tasks n", func(c *config) *int { return &c.tasks }),
	"processors":   intSpec("number of processors m (the length of every time vector)", func(c *config) *int { return &c.processors }),
	"weight-min":   floatSpec("smallest weight (uniform, continuous), > 0", func(c *config) *float64 { return &c.weightMin }),
	"weight-max":   floatSpec("largest weight, >= weight-min", func(c *config) *float64 { return &c.weightMax }),
	"sequential":   choiceSpec("sequential-time model", func(c *config) *string { return &c.sequential }, SeqUniform, SeqMixed),
	"seq-min":      floatSpec("uniform: smallest p(1) in seconds, > 0", func(c *config) *float64 { return &c.seqMin }),
	"seq-max":      floatSpec("uniform: largest p(1), >= seq-min", func(c *config) *float64 { return &c.seqMax }),
	"small-share":  floatSpec("mixed: probability that a task is small, in [0, 1]", func(c *config) *float64 { return &c.smallShare }),
	"small-mean":   floatSpec("mixed: mean p(1) of small tasks", func(c *config) *float64 { return &c.smallMean }),
	"small-sd":     floatSpec("mixed: standard deviation of small tasks' p(1), >= 0", func(c *config) *float64 { return &c.smallSD }),
	"large-mean":   floatSpec("mixed: mean p(1) of large tasks", func(c *config) *float64 { return &c.largeMean }),
	"large-sd":     floatSpec("mixed: standard deviation of large tasks' p(1), >= 0", func(c *config) *float64 { return &c.largeSD }),
	"parallelism":  choiceSpec("parallelism model", func(c *config) *string { return &c.parallelism }, ParWeak, ParHigh, ParMixed, ParCirneBerman),
	"weak-mean":    floatSpec("mean of X for weakly parallel tasks", func(c *config) *float64 { return &c.weakMean }),
	"high-mean":    floatSpec("mean of X for highly parallel tasks", func(c *config) *float64 { return &c.highMean }),
	"x-sd":         floatSpec("standard deviation of X, > 0", func(c *config) *float64 { return &c.xSD }),
	"x-per":        choiceSpec("X drawn once per", func(c *config) *string { return &c.xPer }, XPerProcessor, XPerTask),
	"cb-sigma-max": floatSpec("cirne-berman: sigma ~ U[0, this], >= 0", func(c *config) *float64 { return &c.cbSigmaMax }),
}

// A Preset is one of the paper's workloads.
type Preset struct {
	Name, Doc               string
	sequential, parallelism string
}

// PresetPrefix starts every preset name.
const PresetPrefix = "dutot2004/"

var presets = []Preset{
	{PresetPrefix + "uniform-weak", "p(1) ~ U[1, 10], weakly parallel (X ~ N(0.1, 0.2))", SeqUniform, ParWeak},
	{PresetPrefix + "uniform-high", "p(1) ~ U[1, 10], highly parallel (X ~ N(0.9, 0.2))", SeqUniform, ParHigh},
	{PresetPrefix + "mixed", "70% small tasks p(1) ~ N(1, 0.5) weakly parallel, 30% large N(10, 5) highly parallel", SeqMixed, ParMixed},
	{PresetPrefix + "cirne-berman", "p(1) ~ U[1, 10], Downey speedup with A log-uniform in [1, m], sigma ~ U[0, 2]", SeqUniform, ParCirneBerman},
}

// Presets returns the preset names in the paper's order.
func Presets() []string {
	var names []string
	for _, p := range presets {
		names = append(names, p.Name)
	}
	return names
}

// Lookup returns the preset called name.
func Lookup(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, fmt.Errorf("unknown moldable preset %q; valid presets: %s", name, strings.Join(Presets(), ", "))
}

// Defaults returns the preset's parameters: m = 200, n = 100 and the
// paper's distributions.
func (p Preset) Defaults() Params {
	return Params{preset: p.Name, cfg: config{
		tasks: 100, processors: 200,
		weightMin: 1, weightMax: 10,
		sequential: p.sequential, seqMin: 1, seqMax: 10,
		smallShare: 0.7, smallMean: 1, smallSD: 0.5, largeMean: 10, largeSD: 5,
		parallelism: p.parallelism, weakMean: 0.1, highMean: 0.9, xSD: 0.2, xPer: XPerProcessor,
		cbSigmaMax: 2,
	}}
}

// Params is a preset's full set of parameter values; start from
// Preset.Defaults.
type Params struct {
	preset string
	cfg    config
}

// Keys returns the parameter names, sorted.
func (p Params) Keys() []string {
	keys := make([]string, 0, len(specs))
	for k := range specs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Set sets one parameter from its text form.
func (p *Params) Set(key, value string) error {
	s, ok := specs[key]
	if !ok {
		return fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", p.preset, key, strings.Join(p.Keys(), ", "))
	}
	if err := s.set(&p.cfg, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("preset %s: parameter %s=%q: %w (%s)", p.preset, key, value, err, s.doc)
	}
	return nil
}

// SetAll applies "key=value" settings in order.
func (p *Params) SetAll(settings []string) error {
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("preset %s: setting %q: want key=value, with key one of %s", p.preset, s, strings.Join(p.Keys(), ", "))
		}
		if err := p.Set(strings.TrimSpace(key), value); err != nil {
			return err
		}
	}
	return nil
}

// Get returns a parameter's value in canonical text form.
func (p Params) Get(key string) (string, error) {
	s, ok := specs[key]
	if !ok {
		return "", fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", p.preset, key, strings.Join(p.Keys(), ", "))
	}
	return s.get(&p.cfg), nil
}

// Canonical returns the preset name and every parameter as key=value in
// sorted key order: the identity instance seeds derive from.
func (p Params) Canonical() string {
	var b strings.Builder
	b.WriteString(p.preset)
	for _, key := range p.Keys() {
		fmt.Fprintf(&b, " %s=%s", key, specs[key].get(&p.cfg))
	}
	return b.String()
}

// Validate checks the parameters against each other.
func (p Params) Validate() error {
	c := &p.cfg
	fail := func(format string, args ...any) error {
		return fmt.Errorf("preset %s: %s", p.preset, fmt.Sprintf(format, args...))
	}
	switch {
	case !(c.weightMin > 0) || c.weightMax < c.weightMin:
		return fail("weights [%v, %v]: want 0 < weight-min <= weight-max", c.weightMin, c.weightMax)
	case !(c.seqMin > 0) || c.seqMax < c.seqMin:
		return fail("sequential times [%v, %v]: want 0 < seq-min <= seq-max", c.seqMin, c.seqMax)
	case c.smallShare < 0 || c.smallShare > 1:
		return fail("small-share %v: want a probability in [0, 1]", c.smallShare)
	case c.smallSD < 0 || c.largeSD < 0:
		return fail("small-sd %v, large-sd %v: want >= 0", c.smallSD, c.largeSD)
	case (c.smallMean <= 0 && c.smallSD == 0) || (c.largeMean <= 0 && c.largeSD == 0):
		return fail("a class with mean <= 0 and no spread never draws a positive time")
	case c.xSD < 0:
		return fail("x-sd %v: want >= 0", c.xSD)
	case c.xSD == 0 && (c.weakMean < 0 || c.weakMean > 1 || c.highMean < 0 || c.highMean > 1):
		return fail("x-sd 0 needs weak-mean and high-mean in [0, 1]")
	case c.cbSigmaMax < 0:
		return fail("cb-sigma-max %v: want >= 0", c.cbSigmaMax)
	case c.parallelism == ParMixed && c.sequential != SeqMixed:
		return fail("parallelism=mixed needs sequential=mixed (it follows the task's class)")
	}
	return nil
}

// maxRedraws bounds every rejection loop: a draw that keeps failing means
// parameters that (almost) never produce a valid value.
const maxRedraws = 1_000_000

// Generate builds instance number instance (>= 0) from the root seed: a
// valid workload (workload/moldable's Validate). Draws per task, in task
// order: the weight; for sequential=mixed the class, then p(1) (redrawn
// while <= 0); then the parallelism: X for k = 2..m (or once with
// x-per=task), each redrawn until in [0, 1]; or Downey's A and sigma.
func Generate(p Params, rootSeed uint64, instance int) (*workload.Workload, error) {
	if instance < 0 {
		return nil, fmt.Errorf("generate %s: instance %d: want >= 0", p.preset, instance)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	seed := grid.InstanceSeed(rootSeed, p.Canonical(), instance)
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	c := &p.cfg
	w := &workload.Workload{Processors: c.processors, Tasks: make([]workload.Task, c.tasks)}
	// One allocation for all the time vectors, each capped at its own.
	allTimes := make([]float64, c.tasks*c.processors)
	for i := range w.Tasks {
		weight := c.weightMin + (c.weightMax-c.weightMin)*rng.Float64()
		seq, small := c.seqMin+(c.seqMax-c.seqMin)*rng.Float64(), false
		if c.sequential == SeqMixed {
			small = rng.Float64() < c.smallShare
			mean, sd := c.largeMean, c.largeSD
			if small {
				mean, sd = c.smallMean, c.smallSD
			}
			var err error
			if seq, err = positiveNormal(rng, mean, sd); err != nil {
				return nil, fmt.Errorf("generate %s: task %d: %w", p.preset, i, err)
			}
		}
		times := allTimes[i*c.processors : (i+1)*c.processors : (i+1)*c.processors]
		times[0] = seq
		var err error
		switch c.parallelism {
		case ParCirneBerman:
			downey(rng, times, c.cbSigmaMax)
		case ParWeak:
			err = recurrence(rng, times, c.weakMean, c.xSD, c.xPer)
		case ParHigh:
			err = recurrence(rng, times, c.highMean, c.xSD, c.xPer)
		case ParMixed:
			mean := c.highMean
			if small {
				mean = c.weakMean
			}
			err = recurrence(rng, times, mean, c.xSD, c.xPer)
		}
		if err != nil {
			return nil, fmt.Errorf("generate %s: task %d: %w", p.preset, i, err)
		}
		w.Tasks[i] = workload.Task{Weight: weight, Times: times}
	}
	// The workload is valid by construction (positive draws, monotone
	// clamps), so it is not validated again here: its users do, and the
	// tests check every preset.
	return w, nil
}

// positiveNormal draws N(mean, sd) until the value is > 0.
func positiveNormal(rng *rand.Rand, mean, sd float64) (float64, error) {
	for range maxRedraws {
		if v := mean + sd*rng.NormFloat64(); v > 0 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("N(%v, %v) drew no positive value in %d tries", mean, sd, maxRedraws)
}

// unitNormal draws N(mean, sd) until the value is in [0, 1].
func unitNormal(rng *rand.Rand, mean, sd float64) (float64, error) {
	for range maxRedraws {
		if v := mean + sd*rng.NormFloat64(); v >= 0 && v <= 1 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("N(%v, %v) drew no value in [0, 1] in %d tries", mean, sd, maxRedraws)
}

// recurrence fills times[1:] from times[0] by
// p(k+1) = p(k) (k + 1 - X) / (k + 1).
func recurrence(rng *rand.Rand, times []float64, mean, sd float64, per string) error {
	x, err := unitNormal(rng, mean, sd)
	if err != nil {
		return err
	}
	fresh := per == XPerProcessor
	for k := 1; k < len(times); k++ {
		if k > 1 && fresh {
			if x, err = unitNormal(rng, mean, sd); err != nil {
				return err
			}
		}
		times[k] = monotone(times[k-1], k+1, times[k-1]*(float64(k+1)-x)/float64(k+1))
	}
	return nil
}

// downey fills times[1:] with p(k) = p(1) / S(k), S Downey's speedup of
// average parallelism A and variance sigma.
func downey(rng *rand.Rand, times []float64, sigmaMax float64) {
	m := float64(len(times))
	a := math.Exp(rng.Float64() * math.Log(m))
	sigma := sigmaMax * rng.Float64()
	for k := 2; k <= len(times); k++ {
		times[k-1] = monotone(times[k-2], k, times[0]/downeySpeedup(float64(k), a, sigma))
	}
}

// downeySpeedup is Downey's (1997) model, low variance for sigma <= 1.
func downeySpeedup(k, a, sigma float64) float64 {
	if sigma <= 1 {
		switch {
		case k <= a:
			return a * k / (a + sigma/2*(k-1))
		case k <= 2*a-1:
			return a * k / (sigma*(a-0.5) + k*(1-sigma/2))
		}
		return a
	}
	if k <= a+a*sigma-sigma {
		return k * a * (sigma + 1) / (sigma*(k+a-1) + a)
	}
	return a
}

// monotone returns the time on k processors closest to want that keeps
// the vector exactly monotone after prev, the time on k-1: at most prev,
// and work k p >= (k-1) prev. The models are monotone in exact
// arithmetic; this only absorbs rounding.
func monotone(prev float64, k int, want float64) float64 {
	p := min(want, prev)
	if float64(k)*p < float64(k-1)*prev {
		p = float64(k-1) * prev / float64(k)
		for float64(k)*p < float64(k-1)*prev {
			p = math.Nextafter(p, math.Inf(1))
		}
	}
	return p
}

// Processors returns m, the processor count the workloads are built for.
func (p Params) Processors() int { return p.cfg.processors }
