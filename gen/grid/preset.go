package grid

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Preset is a named workload recipe: a DAG shape and default values for
// all of its parameters.
type Preset struct {
	Name     string
	Doc      string
	shape    shape
	defaults []setting
}

type setting struct{ key, value string }

// Table 2 of seed 004. The job-min defaults are 10 ticks per task of the
// largest job the shape can make: every task gets >= 1 tick (the split
// needs it) and about 10 on average, the floor the authors' generator used
// (maxchains x maxchainlength x maxblocks x 10). job-max is a tenth of the
// total: no single job may be a tenth of all the work. Neither bound binds
// often at Table 2 scale (see README.md).
func presetTable() []Preset {
	common := func(jobs, jobDist, jobMin string) []setting {
		return []setting{
			{"jobs", jobs},
			{"total", "10000000000"},
			{"job-dist", jobDist},
			{"job-min", jobMin},
			{"job-max", "1000000000"},
			{"job-tries", "1000"},
			{"log-decades", "4"},
			{"cores", "1,5,10,15,20"},
			{"kind2-prob", "0.2"},
			{"shares", "5"},
		}
	}
	return []Preset{
		{
			Name:     "burkimsher2013/uniform-independent",
			Doc:      "Table 2 \"Uni. Ind.\": 10,000 one-task jobs, uniform job sizes",
			shape:    shapeIndependent,
			defaults: common("10000", DistUniform, "1"),
		},
		{
			Name:     "burkimsher2013/log-independent",
			Doc:      "Table 2 \"Log. Ind.\": 10,000 one-task jobs, UUniFast-Discard job sizes",
			shape:    shapeIndependent,
			defaults: common("10000", DistUUniFastDiscard, "1"),
		},
		{
			Name:  "burkimsher2013/probabilistic",
			Doc:   "Table 2 \"Prob. Dep's\": 1,000 jobs of 1-20 tasks, each earlier task a predecessor with p = 0.3",
			shape: shapeProbabilistic,
			defaults: append(common("1000", DistUUniFastDiscard, "200"),
				setting{"tasks", "1-20"}, setting{"dep-prob", "0.3"}),
		},
		{
			Name:  "burkimsher2013/fan",
			Doc:   "Table 2 \"Fan-In/Fan-Out\": 1,000 jobs of one fan-out task, width chains of length tasks, one fan-in task",
			shape: shapeFan,
			defaults: append(common("1000", DistUUniFastDiscard, "1520"),
				setting{"width", "1-10"}, setting{"length", "3-15"}),
		},
		{
			Name:  "burkimsher2013/fan-chain",
			Doc:   "Table 2 \"Chain of Fan-In/Fan-Out\": 1,000 jobs of 1-3 fan blocks in series",
			shape: shapeFanChain,
			defaults: append(common("1000", DistUUniFastDiscard, "2310"),
				setting{"width", "1-5"}, setting{"length", "3-15"}, setting{"blocks", "1-3"}),
		},
	}
}

// Presets returns the names of all presets.
func Presets() []string {
	var names []string
	for _, p := range presetTable() {
		names = append(names, p.Name)
	}
	return names
}

// Lookup returns the preset called name.
func Lookup(name string) (Preset, error) {
	for _, p := range presetTable() {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, fmt.Errorf("unknown preset %q; valid presets: %s", name, strings.Join(Presets(), ", "))
}

// Keys returns the preset's parameter names, sorted.
func (p Preset) Keys() []string {
	keys := make([]string, len(p.defaults))
	for i, s := range p.defaults {
		keys[i] = s.key
	}
	slices.Sort(keys)
	return keys
}

// Defaults returns the preset's parameters at their default values.
func (p Preset) Defaults() Params {
	params := Params{preset: p.Name, keys: p.Keys(), cfg: config{shape: p.shape}}
	for _, s := range p.defaults {
		if err := params.Set(s.key, s.value); err != nil {
			panic(fmt.Sprintf("gen: preset %s default %s=%s: %v", p.Name, s.key, s.value, err))
		}
	}
	return params
}

// Params is a preset's full set of parameter values. The zero value is not
// usable; start from Preset.Defaults.
type Params struct {
	preset string
	keys   []string // valid keys, sorted
	cfg    config
}

// config holds parsed parameter values.
type config struct {
	shape      shape
	jobs       int
	total      int64
	jobDist    string
	jobBounds  Bounds
	jobTries   int
	logDecades float64
	cores      []int
	kind2Prob  float64
	shares     int
	tasks      intRange // probabilistic: tasks per job
	depProb    float64  // probabilistic: edge probability
	width      intRange // fan, fan-chain: parallel chains per block
	length     intRange // fan, fan-chain: tasks per chain
	blocks     intRange // fan-chain: blocks per job
}

// An intRange is an inclusive range of counts.
type intRange struct{ Min, Max int }

// maxCount bounds every count parameter so that task counts cannot overflow.
const maxCount = 1_000_000

type paramSpec struct {
	doc string
	set func(c *config, value string) error
	get func(c *config) string
}

var paramSpecs = map[string]paramSpec{
	"jobs": {"number of jobs, 1-1000000",
		func(c *config, v string) (err error) { c.jobs, err = parseCount(v, 1, maxCount); return },
		func(c *config) string { return strconv.Itoa(c.jobs) }},
	"total": {"sum of all task execution times in ticks (not volume), an integer >= jobs",
		func(c *config, v string) (err error) { c.total, err = parseTicks(v); return },
		func(c *config) string { return strconv.FormatInt(c.total, 10) }},
	"job-dist": {"job-size distribution: " + strings.Join(distNames, ", "),
		func(c *config, v string) error {
			if !slices.Contains(distNames, v) {
				return fmt.Errorf("want one of %s", strings.Join(distNames, ", "))
			}
			c.jobDist = v
			return nil
		},
		func(c *config) string { return c.jobDist }},
	"job-min": {"smallest job size in ticks for uunifast-discard, an integer >= 1",
		func(c *config, v string) (err error) { c.jobBounds.Min, err = parseTicks(v); return },
		func(c *config) string { return strconv.FormatInt(c.jobBounds.Min, 10) }},
	"job-max": {"largest job size in ticks for uunifast-discard, an integer >= job-min",
		func(c *config, v string) (err error) { c.jobBounds.Max, err = parseTicks(v); return },
		func(c *config) string { return strconv.FormatInt(c.jobBounds.Max, 10) }},
	"job-tries": {"draws uunifast-discard makes before giving up, 1-1000000",
		func(c *config, v string) (err error) { c.jobTries, err = parseCount(v, 1, maxCount); return },
		func(c *config) string { return strconv.Itoa(c.jobTries) }},
	"log-decades": {fmt.Sprintf("loguniform spread: largest/smallest weight up to 10^this, in (0, %d]", maxDecades),
		func(c *config, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0 && f <= maxDecades) {
				return fmt.Errorf("want a number in (0, %d]", maxDecades)
			}
			c.logDecades = f
			return nil
		},
		func(c *config) string { return strconv.FormatFloat(c.logDecades, 'g', -1, 64) }},
	"cores": {"core counts a task draws from uniformly, a comma-separated list of integers >= 1",
		func(c *config, v string) error {
			var cores []int
			for _, field := range strings.Split(v, ",") {
				n, err := parseCount(strings.TrimSpace(field), 1, maxCount)
				if err != nil {
					return fmt.Errorf("%q: %w (want a list like 1,5,10,15,20)", field, err)
				}
				cores = append(cores, n)
			}
			c.cores = cores
			return nil
		},
		func(c *config) string {
			fields := make([]string, len(c.cores))
			for i, n := range c.cores {
				fields[i] = strconv.Itoa(n)
			}
			return strings.Join(fields, ",")
		}},
	"kind2-prob": {"probability that a task is Kind2 (else Kind1), in [0, 1]",
		func(c *config, v string) (err error) { c.kind2Prob, err = parseProbability(v); return },
		func(c *config) string { return strconv.FormatFloat(c.kind2Prob, 'g', -1, 64) }},
	"shares": {"number of shares u1..uN a job is assigned to uniformly, 1-1000000",
		func(c *config, v string) (err error) { c.shares, err = parseCount(v, 1, maxCount); return },
		func(c *config) string { return strconv.Itoa(c.shares) }},
	"tasks": {"tasks per job, an inclusive range like 1-20",
		func(c *config, v string) (err error) { c.tasks, err = parseRange(v); return },
		func(c *config) string { return c.tasks.String() }},
	"dep-prob": {"probability that an earlier task is a predecessor, in [0, 1]",
		func(c *config, v string) (err error) { c.depProb, err = parseProbability(v); return },
		func(c *config) string { return strconv.FormatFloat(c.depProb, 'g', -1, 64) }},
	"width": {"parallel chains per fan block, an inclusive range like 1-10",
		func(c *config, v string) (err error) { c.width, err = parseRange(v); return },
		func(c *config) string { return c.width.String() }},
	"length": {"tasks per chain, an inclusive range like 3-15",
		func(c *config, v string) (err error) { c.length, err = parseRange(v); return },
		func(c *config) string { return c.length.String() }},
	"blocks": {"fan blocks in series per job, an inclusive range like 1-3",
		func(c *config, v string) (err error) { c.blocks, err = parseRange(v); return },
		func(c *config) string { return c.blocks.String() }},
}

// Preset returns the name of the preset the parameters belong to.
func (p Params) Preset() string { return p.preset }

// Keys returns the valid parameter names, sorted.
func (p Params) Keys() []string { return slices.Clone(p.keys) }

// Set sets one parameter from its text form. Unknown keys and bad values
// fail with an error listing the valid keys or describing valid values.
func (p *Params) Set(key, value string) error {
	if !slices.Contains(p.keys, key) {
		return fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", p.preset, key, strings.Join(p.keys, ", "))
	}
	spec := paramSpecs[key]
	if err := spec.set(&p.cfg, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("preset %s: parameter %s=%q: %w (%s)", p.preset, key, value, err, spec.doc)
	}
	return nil
}

// SetAll applies "key=value" settings in order; a later setting of the same
// key wins.
func (p *Params) SetAll(settings []string) error {
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("preset %s: setting %q: want key=value, with key one of %s", p.preset, s, strings.Join(p.keys, ", "))
		}
		if err := p.Set(strings.TrimSpace(key), value); err != nil {
			return err
		}
	}
	return nil
}

// Get returns a parameter's value in canonical text form.
func (p Params) Get(key string) (string, error) {
	if !slices.Contains(p.keys, key) {
		return "", fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", p.preset, key, strings.Join(p.keys, ", "))
	}
	return paramSpecs[key].get(&p.cfg), nil
}

// Canonical returns the identity of the parameters: the preset name, then
// every parameter (defaults included) as key=value in sorted key order,
// each value in canonical form (so total=1e10 and total=10000000000 are the
// same workload). Workload seeds derive from it.
func (p Params) Canonical() string {
	var b strings.Builder
	b.WriteString(p.preset)
	for _, key := range p.keys {
		b.WriteByte(' ')
		b.WriteString(key)
		b.WriteByte('=')
		b.WriteString(paramSpecs[key].get(&p.cfg))
	}
	return b.String()
}

// Validate checks the parameters against each other.
func (p Params) Validate() error {
	c := &p.cfg
	fail := func(format string, args ...any) error {
		return fmt.Errorf("preset %s: %s", p.preset, fmt.Sprintf(format, args...))
	}
	if c.total < int64(c.jobs) {
		return fail("total=%d is below jobs=%d; want total >= jobs (every job needs >= 1 tick)", c.total, c.jobs)
	}
	if c.jobDist == DistUUniFastDiscard {
		if c.jobBounds.Max < c.jobBounds.Min {
			return fail("job-max=%d is below job-min=%d; want job-min <= job-max", c.jobBounds.Max, c.jobBounds.Min)
		}
		if most := c.maxTasksPerJob(); c.jobBounds.Min < int64(most) {
			return fail("job-min=%d is below %d, the most tasks a job can have; want job-min >= %d so that every task gets >= 1 tick", c.jobBounds.Min, most, most)
		}
		if int64(c.jobs) > c.total/c.jobBounds.Min {
			return fail("jobs=%d of at least job-min=%d ticks exceed total=%d; lower job-min or jobs, or raise total", c.jobs, c.jobBounds.Min, c.total)
		}
		if need := (c.total + int64(c.jobs) - 1) / int64(c.jobs); c.jobBounds.Max < need {
			return fail("jobs=%d of at most job-max=%d ticks cannot reach total=%d; want job-max >= %d", c.jobs, c.jobBounds.Max, c.total, need)
		}
	}
	if most := c.maxTasksPerJob(); most > 1 && c.jobDist != DistUUniFastDiscard {
		// The other distributions may draw a job of fewer ticks than
		// its tasks, which fails every cell of the instance: refused
		// here, before anything runs.
		return fail("job-dist=%s can draw a job of fewer ticks than its tasks (up to %d); jobs of several tasks need job-dist=%s with job-min >= %d", c.jobDist, most, DistUUniFastDiscard, most)
	}
	if c.maxTasksPerJob() > maxCount {
		return fail("a job could have %d tasks; want at most %d (lower width, length or blocks)", c.maxTasksPerJob(), maxCount)
	}
	return nil
}

// maxTasksPerJob returns the most tasks the shape can give one job.
func (c *config) maxTasksPerJob() int {
	switch c.shape {
	case shapeProbabilistic:
		return c.tasks.Max
	case shapeFan:
		return fanTasks(c.width.Max, c.length.Max)
	case shapeFanChain:
		return c.blocks.Max * fanTasks(c.width.Max, c.length.Max)
	}
	return 1
}

func (r intRange) String() string {
	if r.Min == r.Max {
		return strconv.Itoa(r.Min)
	}
	return strconv.Itoa(r.Min) + "-" + strconv.Itoa(r.Max)
}

// parseRange reads "a-b" (inclusive) or "a" (a single value).
func parseRange(v string) (intRange, error) {
	lo, hi, isRange := strings.Cut(v, "-")
	if !isRange {
		hi = lo
	}
	min, err1 := parseCount(strings.TrimSpace(lo), 1, maxCount)
	max, err2 := parseCount(strings.TrimSpace(hi), 1, maxCount)
	if err1 != nil || err2 != nil || min > max {
		return intRange{}, fmt.Errorf("want an inclusive range min-max (or one number) with 1 <= min <= max <= %d", maxCount)
	}
	return intRange{min, max}, nil
}

func parseCount(v string, min, max int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		return 0, fmt.Errorf("want an integer in [%d, %d]", min, max)
	}
	return n, nil
}

// parseTicks reads a positive integer, also in exponent form (1e10) when
// the value is a whole number.
func parseTicks(v string) (int64, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 1 {
		return n, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 1 || f >= math.MaxInt64 || f != math.Trunc(f) {
		return 0, fmt.Errorf("want a whole number of ticks >= 1, like 10000000000 or 1e10")
	}
	return int64(f), nil
}

func parseProbability(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return 0, fmt.Errorf("want a probability in [0, 1]")
	}
	return f, nil
}

// TaskNeeds returns what the instances of p ask of a platform: the task
// kinds they may draw and the most cores one task may take, so that a
// platform that cannot run them is refused before anything runs.
func (p Params) TaskNeeds() (kinds []string, maxCores int) {
	kinds = []string{Kind1}
	if p.cfg.kind2Prob > 0 {
		kinds = append(kinds, Kind2)
	}
	return kinds, slices.Max(p.cfg.cores)
}
