package rigid

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LublinName names the model in messages and canonical forms.
const LublinName = "lublin1999"

// ClassParams are the Lublin-Feitelson parameters of one job class, named
// as in m_lublin99.c (which uses one set per class, batch and interactive,
// and a third for the typeless "whole sample").
//
// Sizes: a job is serial with probability SerialProb; otherwise log2 of its
// size is two-stage uniform: U(ULow, UMed) with probability UProb, else
// U(UMed, UHi), rounded to an integer (a power of two) with probability
// Pow2Prob (of all jobs: u <= SerialProb+Pow2Prob for the same u), and the
// size is round(2^that). UHi and UMed of 0 mean "from the machine" (see
// Params).
//
// Run times: ln(run seconds) is hyper-gamma: Gamma(A1, B1) with
// probability p = PA*size + PB (clamped to [0, 1]), else Gamma(A2, B2);
// Gamma(shape, scale).
//
// Arrivals: ln(inter-arrival seconds) in the rush hours is
// Gamma(AArr*ARAR, BArr); the daily cycle's bucket weights are differences
// of the Gamma(ANum, BNum) CDF (see Params.CyclicDayStart).
type ClassParams struct {
	SerialProb, Pow2Prob   float64
	ULow, UMed, UHi, UProb float64
	A1, B1, A2, B2, PA, PB float64
	AArr, BArr, ANum, BNum float64
	ARAR                   float64
}

// Params are all the parameters of m_lublin99.c; DefaultParams gives the
// published values.
//
// The authors' values are for a 128-processor machine: UHI_BATCH = 7 =
// log2(128), UMED_BATCH = UHI_BATCH - 2, UHI_ACTIVE = 5.5 = log2(128) -
// 1.5, UMED_ACTIVE = UHI_ACTIVE - 2.5, and UHI = 7, UMED = UHI - 2.5 for
// the typeless set. Their comment says to set UHi to log2 of the system's
// size and UMed a constant below it; so a UHi of 0 (the default) means
// log2(procs) for batch and the typeless set and log2(procs) - 1.5 for
// interactive jobs, and a UMed of 0 means UHi - 2 for batch and UHi - 2.5
// for the others: the published values at 128 processors. A non-zero value
// is taken as given (then UHi must be at most log2(procs)).
type Params struct {
	Batch, Interactive ClassParams
	// Whole is the typeless set, used for every job when JobTypes is
	// false (INCLUDE_JOBS_TYPE 0; the jobs are then all interactive, as
	// in the authors' code).
	Whole ClassParams
	// JobTypes is INCLUDE_JOBS_TYPE: two arrival streams, batch and
	// interactive, each with its own parameters; a job is of the class
	// whose next arrival comes first.
	JobTypes bool
	// StartHour is START, the hour of the day at second 0 (0: midnight).
	StartHour int
	// CyclicDayStart is CYCLIC_DAY_START: the daily-cycle Gamma CDF is
	// evaluated at buckets CyclicDayStart..CyclicDayStart+47 (half hours)
	// and bucket i's weight goes to half hour (i-1) mod 48.
	CyclicDayStart int
	// MaxLogRunSeconds is TOO_MUCH_TIME: run-time draws with
	// ln(seconds) above it are redrawn (12: about 45 hours).
	MaxLogRunSeconds float64
	// MaxLogInterarrivalSeconds is TOO_MUCH_ARRIVE_TIME: inter-arrival
	// draws with ln(seconds) above it are redrawn (13: about 5 days).
	MaxLogInterarrivalSeconds float64
}

// DefaultParams returns the published parameters (m_lublin99.c's
// #defines), with UHi and UMed from the machine (see Params).
func DefaultParams() Params {
	return Params{
		Batch: ClassParams{
			SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UProb: 0.875,
			A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
			AArr: 6.0415, BArr: 0.8531, ANum: 6.1271, BNum: 5.2740, ARAR: 1.0519,
		},
		Interactive: ClassParams{
			SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UProb: 0.705,
			A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
			AArr: 6.5510, BArr: 0.6621, ANum: 8.9186, BNum: 3.6680, ARAR: 0.9797,
		},
		Whole: ClassParams{
			SerialProb: 0.244, Pow2Prob: 0.576, ULow: 0.8, UProb: 0.86,
			A1: 4.2, B1: 0.94, A2: 312, B2: 0.03, PA: -0.0054, PB: 0.78,
			AArr: 10.2303, BArr: 0.4871, ANum: 8.1737, BNum: 3.9631, ARAR: 1.0225,
		},
		JobTypes:                  true,
		CyclicDayStart:            11,
		MaxLogRunSeconds:          12,
		MaxLogInterarrivalSeconds: 13,
	}
}

// The machine-derived defaults of UHi (below log2(procs)) and UMed (below
// UHi), per class; the published values at 128 processors.
var (
	uhiBelowMachine = map[string]float64{"batch": 0, "interactive": 1.5, "whole": 0}
	umedBelowUHi    = map[string]float64{"batch": 2, "interactive": 2.5, "whole": 2.5}
)

// param is one settable parameter: its name, what it means and its domain
// (for messages), where it lives, and the check of one value.
type param struct {
	name, doc string
	field     func(p *Params) *float64
	check     func(v float64) bool
	domain    string
}

var (
	probability = func(v float64) bool { return v >= 0 && v <= 1 }
	positive    = func(v float64) bool { return v > 0 }
	anyFinite   = func(float64) bool { return true }
	log2Size    = func(v float64) bool { return v >= 0 && v <= 62 }
)

// classFields lists the ClassParams fields with their base names.
var classFields = []struct {
	name, doc string
	field     func(c *ClassParams) *float64
	check     func(v float64) bool
	domain    string
}{
	{"serial-prob", "probability that a job is serial", func(c *ClassParams) *float64 { return &c.SerialProb }, probability, "a probability in [0, 1]"},
	{"pow2-prob", "probability that a job's size is a power of two (of all jobs)", func(c *ClassParams) *float64 { return &c.Pow2Prob }, probability, "a probability in [0, 1]"},
	{"ulow", "log2 of the smallest parallel size", func(c *ClassParams) *float64 { return &c.ULow }, log2Size, "a log2 size in [0, 62]"},
	{"umed", "log2 size where the two uniforms meet (0 or auto: from uhi)", func(c *ClassParams) *float64 { return &c.UMed }, log2Size, "a log2 size in [0, 62], or auto"},
	{"uhi", "log2 of the largest size (0 or auto: from the machine)", func(c *ClassParams) *float64 { return &c.UHi }, log2Size, "a log2 size in [0, 62], or auto"},
	{"uprob", "probability of the lower uniform U(ulow, umed)", func(c *ClassParams) *float64 { return &c.UProb }, probability, "a probability in [0, 1]"},
	{"a1", "shape of the first run-time gamma", func(c *ClassParams) *float64 { return &c.A1 }, positive, "a number > 0"},
	{"b1", "scale of the first run-time gamma", func(c *ClassParams) *float64 { return &c.B1 }, positive, "a number > 0"},
	{"a2", "shape of the second run-time gamma", func(c *ClassParams) *float64 { return &c.A2 }, positive, "a number > 0"},
	{"b2", "scale of the second run-time gamma", func(c *ClassParams) *float64 { return &c.B2 }, positive, "a number > 0"},
	{"pa", "slope of the first gamma's probability in the size", func(c *ClassParams) *float64 { return &c.PA }, anyFinite, "a finite number"},
	{"pb", "intercept of the first gamma's probability", func(c *ClassParams) *float64 { return &c.PB }, anyFinite, "a finite number"},
	{"aarr", "shape of the rush-hour inter-arrival gamma (before arar)", func(c *ClassParams) *float64 { return &c.AArr }, positive, "a number > 0"},
	{"barr", "scale of the rush-hour inter-arrival gamma", func(c *ClassParams) *float64 { return &c.BArr }, positive, "a number > 0"},
	{"anum", "shape of the daily cycle's gamma", func(c *ClassParams) *float64 { return &c.ANum }, positive, "a number > 0"},
	{"bnum", "scale of the daily cycle's gamma", func(c *ClassParams) *float64 { return &c.BNum }, positive, "a number > 0"},
	{"arar", "arrive-rush-all ratio, multiplies aarr", func(c *ClassParams) *float64 { return &c.ARAR }, positive, "a number > 0"},
}

// classes are the three parameter sets and their name suffixes.
var classes = []struct {
	suffix, name string
	set          func(p *Params) *ClassParams
}{
	{"-batch", "batch", func(p *Params) *ClassParams { return &p.Batch }},
	{"-interactive", "interactive", func(p *Params) *ClassParams { return &p.Interactive }},
	{"", "whole", func(p *Params) *ClassParams { return &p.Whole }},
}

// floatParams is every float parameter by name.
var floatParams = func() map[string]param {
	m := map[string]param{
		"max-log-run": {"max-log-run", "TOO_MUCH_TIME: ln of the longest run time in seconds", func(p *Params) *float64 { return &p.MaxLogRunSeconds },
			func(v float64) bool { return v > 0 && v <= 40 }, "a number in (0, 40]"},
		"max-log-interarrival": {"max-log-interarrival", "TOO_MUCH_ARRIVE_TIME: ln of the longest inter-arrival time in seconds", func(p *Params) *float64 { return &p.MaxLogInterarrivalSeconds },
			func(v float64) bool { return v > 0 && v <= 40 }, "a number in (0, 40]"},
	}
	for _, c := range classes {
		for _, f := range classFields {
			set, field := c.set, f.field
			m[f.name+c.suffix] = param{f.name + c.suffix, f.doc + " (" + c.name + ")",
				func(p *Params) *float64 { return field(set(p)) }, f.check, f.domain}
		}
	}
	return m
}()

// intParams are the integer and boolean parameters: name, domain, lowest
// and highest value, field.
var intParams = map[string]struct {
	doc, domain string
	lo, hi      int
	field       func(p *Params) *int
	boolean     func(p *Params) *bool
}{
	"start-hour":       {"START: the hour of the day at second 0", "an hour in 0..23", 0, 23, func(p *Params) *int { return &p.StartHour }, nil},
	"cyclic-day-start": {"CYCLIC_DAY_START: the daily cycle's first half-hour bucket", "a bucket in 1..48", 1, 48, func(p *Params) *int { return &p.CyclicDayStart }, nil},
	"job-types":        {"INCLUDE_JOBS_TYPE: batch and interactive classes, each with its parameters", "true (batch and interactive classes) or false (the typeless set)", 0, 1, nil, func(p *Params) *bool { return &p.JobTypes }},
}

// Keys returns every parameter name, sorted.
func (p Params) Keys() []string {
	keys := make([]string, 0, len(floatParams)+len(intParams))
	for k := range floatParams {
		keys = append(keys, k)
	}
	for k := range intParams {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Doc returns what a parameter means and its domain, in one line (for
// listings such as `sweep policies`); "" for an unknown name.
func (Params) Doc(key string) string {
	if f, ok := floatParams[key]; ok {
		return f.doc + "; " + f.domain
	}
	if ip, ok := intParams[key]; ok {
		return ip.doc + "; " + ip.domain
	}
	return ""
}

// Set sets one parameter from its text form; an unknown name or a value
// out of the parameter's domain is an error naming both.
func (p *Params) Set(key, value string) error {
	value = strings.TrimSpace(value)
	if f, ok := floatParams[key]; ok {
		v, err := strconv.ParseFloat(value, 64)
		if value == "auto" && isAuto(key) {
			v, err = 0, nil
		}
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !f.check(v) {
			return fmt.Errorf("%s: parameter %s=%q: want %s (%s)", LublinName, key, value, f.domain, f.doc)
		}
		*f.field(p) = v
		return nil
	}
	ip, ok := intParams[key]
	if !ok {
		return fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", LublinName, key, strings.Join(p.Keys(), ", "))
	}
	if ip.boolean != nil {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s: parameter %s=%q: want %s", LublinName, key, value, ip.domain)
		}
		*ip.boolean(p) = b
		return nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < ip.lo || n > ip.hi {
		return fmt.Errorf("%s: parameter %s=%q: want %s", LublinName, key, value, ip.domain)
	}
	*ip.field(p) = n
	return nil
}

// isAuto reports whether a parameter may be "auto" (0): derived from the
// machine.
func isAuto(key string) bool { return strings.HasPrefix(key, "uhi") || strings.HasPrefix(key, "umed") }

// SetAll applies "key=value" settings in order.
func (p *Params) SetAll(settings []string) error {
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("%s: setting %q: want key=value, with key one of %s", LublinName, s, strings.Join(p.Keys(), ", "))
		}
		if err := p.Set(strings.TrimSpace(key), value); err != nil {
			return err
		}
	}
	return nil
}

// Get returns a parameter's value in canonical text form.
func (p Params) Get(key string) (string, error) {
	if f, ok := floatParams[key]; ok {
		v := *f.field(&p)
		if v == 0 && isAuto(key) {
			return "auto", nil
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
	ip, ok := intParams[key]
	if !ok {
		return "", fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", LublinName, key, strings.Join(p.Keys(), ", "))
	}
	if ip.boolean != nil {
		return strconv.FormatBool(*ip.boolean(&p)), nil
	}
	return strconv.Itoa(*ip.field(&p)), nil
}

// Canonical returns the model's name and every parameter as key=value in
// sorted key order: the identity instance seeds derive from.
func (p Params) Canonical() string {
	var b strings.Builder
	b.WriteString(LublinName)
	for _, key := range p.Keys() {
		v, _ := p.Get(key)
		fmt.Fprintf(&b, " %s=%s", key, v)
	}
	return b.String()
}

// resolved returns the class parameters with UHi and UMed derived from the
// machine where they are 0 (see Params).
//
// So that the defaults work on any machine, a derived UHi is at least 0, a
// ULow above a derived UHi is lowered to it (machines of fewer than 3
// processors for batch jobs, 8 for interactive ones), and a derived UMed
// is kept within [ULow, UHi]. Values all given explicitly are checked, not
// adjusted.
func (c ClassParams) resolved(class string, procs int) ClassParams {
	autoHi, autoMed := c.UHi == 0, c.UMed == 0
	if autoHi {
		c.UHi = max(0, math.Log2(float64(procs))-uhiBelowMachine[class])
	}
	if autoMed {
		c.UMed = c.UHi - umedBelowUHi[class]
	}
	if autoHi {
		c.ULow = min(c.ULow, c.UHi)
	}
	if autoMed {
		c.UMed = min(max(c.UMed, c.ULow), c.UHi)
	}
	return c
}

// validate checks one resolved class set against the machine.
func (c ClassParams) validate(suffix string, procs int) error {
	maxLog2 := math.Log2(float64(procs))
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", LublinName, fmt.Sprintf(format, args...))
	}
	switch {
	case c.SerialProb+c.Pow2Prob > 1+1e-12:
		return fail("serial-prob%s + pow2-prob%s = %v: want at most 1 (both are shares of all jobs)", suffix, suffix, c.SerialProb+c.Pow2Prob)
	case c.UHi > maxLog2+1e-9:
		return fail("uhi%s = %v: want at most log2(%d processors) = %.4g, or auto", suffix, c.UHi, procs, maxLog2)
	case !(c.ULow <= c.UMed && c.UMed <= c.UHi):
		return fail("ulow%s = %v, umed%s = %v, uhi%s = %v: want ulow <= umed <= uhi (umed and uhi resolved for %d processors)",
			suffix, c.ULow, suffix, c.UMed, suffix, c.UHi, procs)
	}
	return nil
}

// resolve returns the parameters for a machine of procs processors, with
// every class set resolved and checked.
func (p Params) resolve(procs int) (Params, error) {
	if procs < 1 {
		return p, fmt.Errorf("%s: processors %d: want at least 1", LublinName, procs)
	}
	for _, c := range classes {
		set := c.set(&p)
		*set = set.resolved(c.name, procs)
		if err := set.validate(c.suffix, procs); err != nil {
			return p, err
		}
	}
	return p, nil
}
