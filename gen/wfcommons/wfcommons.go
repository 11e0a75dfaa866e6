// Package wfcommons turns recorded workflow executions (WfCommons'
// WfFormat, read by workload/wfformat) into sweep's DAG workloads: a
// stream of jobs, each a copy of one instance drawn from a folder or a
// list of files, for the grid model's load-ratio arrivals
// (grid.SetArrivals), like the generated workloads of package gen/grid.
//
// The mapping, each part a named parameter (see Params):
//
//   - Run times: exec = ceil(runtimeInSeconds x ticks-per-second), at
//     least 1 tick (the engine needs exec >= 1; WfInstances record tasks
//     of a few milliseconds). The default, 1 tick per second, is the clock
//     of the SWF traces, so a manifest mixing both shares one time unit;
//     the ceiling never shortens recorded work. Raise ticks-per-second
//     (e.g. 1000) to keep sub-second tasks apart.
//   - Cores: the task's coreCount, default-cores (1) when absent.
//   - Kinds: all tasks one kind (kinds=one, kind=Kind1: the platform's
//     first kind, so any burkimsher2013 or single:N platform runs them);
//     or by the task's category (kinds=category) or program name
//     (kinds=program), each name renamed by kind-map
//     ("mProject=Kind2,*=Kind1"; "*" catches the names not listed, and a
//     name not listed without "*" is its own kind, for platform files
//     that name kinds after programs).
//   - Delays: delays=ccr gives tasks no delay of their own, so the
//     network's rule applies (seed 004's ceil(exec x CCR), the paper's
//     model, comparable with generated workloads); delays=files sets each
//     task's delay (dag.Task.DelayTicks) from the data it sends:
//     ceil(bytes x ticks-per-second / bandwidth), bytes the largest total
//     size of its output files that one child reads (the engine keeps one
//     delay per source task, so the heaviest edge sets it), bandwidth in
//     bytes per second (default 125000000, 1 Gbit/s).
//   - Jobs: `jobs` workflows, each instance drawn uniformly with
//     replacement (draw=uniform) from the instance's seed, or in the
//     source's order, round and round (draw=cycle). Job i is "J<i+1>";
//     task ids are the instance's.
//
// An instance depends only on the root seed, the parameters and the
// source's files (names and contents, Source.Canonical), through
// grid.InstanceSeed, like every other sweep generator.
package wfcommons

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/workload/dag"
	"github.com/sweep-sched/sweep/workload/wfformat"
)

// Preset is the generator name a manifest source uses.
const Preset = "wfcommons/instances"

// Values of the choice parameters.
const (
	DrawUniform = "uniform"
	DrawCycle   = "cycle"

	KindsOne      = "one"
	KindsCategory = "category"
	KindsProgram  = "program"

	DelaysCCR   = "ccr"
	DelaysFiles = "files"
)

// A Source is the instances a stream draws from, in a fixed order.
type Source struct {
	Instances []*wfformat.Instance
	ids       []string // base name and content hash of each file
}

// LoadSource reads the instances at paths, each a WfFormat file or a
// folder whose *.json files are read in name order. Files keep the order
// given.
func LoadSource(paths ...string) (*Source, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("wfcommons source: no files; want WfFormat files or folders of them")
	}
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("wfcommons source: %w", err)
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("wfcommons source %s: %w", p, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("wfcommons source %s: no *.json files in the folder", p)
		}
		slices.Sort(matches)
		files = append(files, matches...)
	}
	s := &Source{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("wfcommons source: %w", err)
		}
		in, err := wfformat.Decode(bytes.NewReader(data), f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		s.Instances = append(s.Instances, in)
		s.ids = append(s.ids, filepath.Base(f)+"@"+hex.EncodeToString(sum[:8]))
	}
	return s, nil
}

// Canonical identifies the source: each file's base name and the first 8
// bytes of its SHA-256, in order, so that moving the folder keeps cell
// ids and editing a file changes them.
func (s *Source) Canonical() string { return strings.Join(s.ids, " ") }

// config holds the parsed parameter values.
type config struct {
	jobs           int
	draw           string
	ticksPerSecond *big.Rat
	defaultCores   int
	kinds          string
	kind           string
	kindMap        map[string]string // "*" for the rest
	delays         string
	bandwidth      *big.Rat // bytes per second
}

type spec struct {
	doc string
	set func(c *config, v string) error
	get func(c *config) string
}

func choice(doc string, field func(c *config) *string, choices ...string) spec {
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

func positiveDecimal(doc string, field func(c *config) **big.Rat) spec {
	return spec{doc,
		func(c *config, v string) error {
			r, ok := new(big.Rat).SetString(v)
			if !ok || r.Sign() <= 0 || strings.ContainsAny(v, "/") {
				return fmt.Errorf("want a decimal number > 0, like 1 or 0.5 or 1e3")
			}
			*field(c) = r
			return nil
		},
		func(c *config) string { return ratString(*field(c)) }}
}

// ratString writes r as a plain decimal when it has a finite one, so that
// 1e3 and 1000 are the same parameters.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	for digits := 1; digits <= 40; digits++ {
		s := r.FloatString(digits)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return strings.TrimRight(s, "0")
		}
	}
	return r.RatString()
}

func count(doc string, lo, hi int, field func(c *config) *int) spec {
	return spec{doc,
		func(c *config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return fmt.Errorf("want an integer in [%d, %d]", lo, hi)
			}
			*field(c) = n
			return nil
		},
		func(c *config) string { return strconv.Itoa(*field(c)) }}
}

var specs = map[string]spec{
	"jobs":             count("workflows in the stream", 1, 1_000_000, func(c *config) *int { return &c.jobs }),
	"draw":             choice("how each job's instance is chosen", func(c *config) *string { return &c.draw }, DrawUniform, DrawCycle),
	"ticks-per-second": positiveDecimal("ticks per second of recorded run time (exec = ceil(runtime x this), >= 1)", func(c *config) **big.Rat { return &c.ticksPerSecond }),
	"default-cores":    count("cores of a task without coreCount", 1, 1_000_000, func(c *config) *int { return &c.defaultCores }),
	"kinds":            choice("task kinds", func(c *config) *string { return &c.kinds }, KindsOne, KindsCategory, KindsProgram),
	"kind": {"the kind of every task under kinds=one",
		func(c *config, v string) error {
			if v == "" {
				return fmt.Errorf("want a kind name such as Kind1")
			}
			c.kind = v
			return nil
		},
		func(c *config) string { return c.kind }},
	"kind-map": {"under kinds=category or program, name=Kind pairs separated by commas; * for every other name (empty: each name is its own kind)",
		func(c *config, v string) error {
			m := map[string]string{}
			if v != "" {
				for _, pair := range strings.Split(v, ",") {
					name, kind, ok := strings.Cut(pair, "=")
					name, kind = strings.TrimSpace(name), strings.TrimSpace(kind)
					if !ok || name == "" || kind == "" {
						return fmt.Errorf("pair %q: want name=Kind, like mProject=Kind2", pair)
					}
					if _, dup := m[name]; dup {
						return fmt.Errorf("%q is mapped twice", name)
					}
					m[name] = kind
				}
			}
			c.kindMap = m
			return nil
		},
		func(c *config) string {
			names := make([]string, 0, len(c.kindMap))
			for name := range c.kindMap {
				names = append(names, name)
			}
			slices.Sort(names)
			for i, name := range names {
				names[i] = name + "=" + c.kindMap[name]
			}
			return strings.Join(names, ",")
		}},
	"delays":    choice("network delays: the network's CCR rule, or each task's own from file sizes over bandwidth", func(c *config) *string { return &c.delays }, DelaysCCR, DelaysFiles),
	"bandwidth": positiveDecimal("bytes per second under delays=files", func(c *config) **big.Rat { return &c.bandwidth }),
}

// Params is the full set of parameter values; start from Defaults.
type Params struct{ cfg config }

// Defaults returns the parameters at their defaults: 100 jobs drawn
// uniformly, 1 tick per second, 1 core, one kind Kind1, the network's
// CCR delays, 1 Gbit/s for delays=files.
func Defaults() Params {
	var p Params
	for _, kv := range [][2]string{
		{"jobs", "100"}, {"draw", DrawUniform}, {"ticks-per-second", "1"}, {"default-cores", "1"},
		{"kinds", KindsOne}, {"kind", dag.DefaultKind}, {"kind-map", ""},
		{"delays", DelaysCCR}, {"bandwidth", "125000000"},
	} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			panic(fmt.Sprintf("wfcommons: default %s=%s: %v", kv[0], kv[1], err))
		}
	}
	return p
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

// Set sets one parameter from its text form; unknown keys and bad values
// fail naming the valid keys or values.
func (p *Params) Set(key, value string) error {
	s, ok := specs[key]
	if !ok {
		return fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", Preset, key, strings.Join(p.Keys(), ", "))
	}
	if err := s.set(&p.cfg, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("preset %s: parameter %s=%q: %w (%s)", Preset, key, value, err, s.doc)
	}
	return nil
}

// SetAll applies "key=value" settings in order.
func (p *Params) SetAll(settings []string) error {
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("preset %s: setting %q: want key=value, with key one of %s", Preset, s, strings.Join(p.Keys(), ", "))
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
		return "", fmt.Errorf("preset %s: unknown parameter %q; valid parameters: %s", Preset, key, strings.Join(p.Keys(), ", "))
	}
	return s.get(&p.cfg), nil
}

// Canonical returns the preset name and every parameter as key=value in
// sorted key order, values in canonical form.
func (p Params) Canonical() string {
	var b strings.Builder
	b.WriteString(Preset)
	for _, key := range p.Keys() {
		fmt.Fprintf(&b, " %s=%s", key, specs[key].get(&p.cfg))
	}
	return b.String()
}

// Validate checks the parameters against each other.
func (p Params) Validate() error {
	if p.cfg.ticksPerSecond == nil {
		return fmt.Errorf("preset %s: parameters not initialised; start from wfcommons.Defaults()", Preset)
	}
	if p.cfg.kinds == KindsOne && len(p.cfg.kindMap) > 0 {
		return fmt.Errorf("preset %s: kind-map is set but kinds=one gives every task kind=%s; set kinds=category or kinds=program", Preset, p.cfg.kind)
	}
	return nil
}

// Generate builds workload instance number instance (>= 0) of the stream
// from the root seed, without arrivals (see grid.SetArrivals). Under
// draw=uniform it makes one draw per job, in job order.
func Generate(p Params, src *Source, rootSeed uint64, instance int) (*dag.Workload, error) {
	if instance < 0 {
		return nil, fmt.Errorf("generate %s: instance %d: want >= 0", Preset, instance)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if src == nil || len(src.Instances) == 0 {
		return nil, fmt.Errorf("generate %s: no instances to draw from", Preset)
	}
	jobs := make([]dag.Job, len(src.Instances))
	for i, in := range src.Instances {
		j, err := Job(in, p, "")
		if err != nil {
			return nil, err
		}
		jobs[i] = j
	}
	seed := grid.InstanceSeed(rootSeed, p.Canonical()+"\x00"+src.Canonical(), instance)
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	w := &dag.Workload{Jobs: make([]dag.Job, p.cfg.jobs)}
	for k := range w.Jobs {
		pick := k % len(jobs)
		if p.cfg.draw == DrawUniform {
			pick = rng.IntN(len(jobs))
		}
		j := jobs[pick]
		j.ID = "J" + strconv.Itoa(k+1)
		j.Tasks = slices.Clone(j.Tasks)
		w.Jobs[k] = j
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", Preset, err)
	}
	return w, nil
}

// Job converts one instance into one job called id (no arrival, default
// share) under the parameters' time scale, cores, kinds and delays.
// Errors name the instance's file, the task and the field.
func Job(in *wfformat.Instance, p Params, id string) (dag.Job, error) {
	c := &p.cfg
	fail := func(i int, field, format string, args ...any) error {
		return &wfformat.Error{Source: in.Source, Task: i, TaskID: in.Tasks[i].ID, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	j := dag.Job{ID: id, Tasks: make([]dag.Task, len(in.Tasks))}
	for i := range in.Tasks {
		src, t := &in.Tasks[i], &j.Tasks[i]
		t.ID = src.ID
		exec, ok := ceilTicks(decimal(src.RuntimeSeconds), c.ticksPerSecond)
		if !ok {
			return j, fail(i, "runtimeInSeconds", "%v s at %s ticks per second passes %d ticks; lower ticks-per-second", src.RuntimeSeconds, ratString(c.ticksPerSecond), int64(dag.MaxTicks))
		}
		t.ExecTicks = max(exec, 1)
		t.Cores = src.CoreCount
		if t.Cores == 0 {
			t.Cores = c.defaultCores
		}
		kind, err := c.kindOf(src)
		if err != nil {
			return j, fail(i, "command.program", "%v", err)
		}
		t.Kind = kind
		for _, parent := range src.Parents {
			t.After = append(t.After, in.Tasks[parent].ID)
		}
	}
	if c.delays == DelaysFiles {
		for i, sent := range heaviestEdgeBytes(in) {
			d, ok := ceilTicks(new(big.Rat).SetInt64(sent), new(big.Rat).Quo(c.ticksPerSecond, c.bandwidth))
			if !ok {
				return j, fail(i, "outputFiles", "%d bytes at %s bytes per second take more than %d ticks; raise bandwidth", sent, ratString(c.bandwidth), int64(dag.MaxTicks))
			}
			j.Tasks[i].DelayTicks = &d
		}
	}
	return j, nil
}

// kindOf maps a task to its kind.
func (c *config) kindOf(t *wfformat.Task) (string, error) {
	var name string
	switch c.kinds {
	case KindsOne:
		return c.kind, nil
	case KindsCategory:
		name = t.Category
	case KindsProgram:
		name = t.Program
		if name == "" {
			return "", fmt.Errorf("missing, and kinds=program names kinds after it; use kinds=category or kinds=one")
		}
	}
	if kind, ok := c.kindMap[name]; ok {
		return kind, nil
	}
	if kind, ok := c.kindMap["*"]; ok {
		return kind, nil
	}
	return name, nil
}

// heaviestEdgeBytes returns, per task, the largest total size of its
// output files that a single child reads (0 for a task without children
// or sending nothing to them).
func heaviestEdgeBytes(in *wfformat.Instance) []int64 {
	heaviest := make([]int64, len(in.Tasks))
	for c := range in.Tasks {
		child := &in.Tasks[c]
		for _, p := range child.Parents {
			var sum int64
			for _, f := range child.InputFiles {
				if slices.Contains(in.Tasks[p].OutputFiles, f) {
					sum = satAdd(sum, in.FileBytes[f])
				}
			}
			heaviest[p] = max(heaviest[p], sum)
		}
	}
	return heaviest
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// decimal returns the exact decimal a float64's shortest text form
// denotes (0.1 is 1/10), as grid.Arrivals reads load ratios.
func decimal(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return r
}

// ceilTicks returns ceil(x x scale) and whether it is at most
// dag.MaxTicks.
func ceilTicks(x, scale *big.Rat) (int64, bool) {
	v := new(big.Rat).Mul(x, scale)
	q, m := new(big.Int).QuoRem(v.Num(), v.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > dag.MaxTicks {
		return 0, false
	}
	return q.Int64(), true
}
