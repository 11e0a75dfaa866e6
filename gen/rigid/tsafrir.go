package rigid

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// TsafrirName names the estimates model in messages and canonical forms.
const TsafrirName = "tsafrir2005"

// EstimateParams are the parameters of the Tsafrir-Etsion-Feitelson model
// of user run-time estimates, named after est_model.hh's EstParams_t;
// DefaultEstimateParams gives the published values. The model builds a
// histogram of estimate values for the job count (K values: a "head" of the
// 20 most popular, the maximum and the round values users pick, which take
// HeadPercent of the jobs, and a tail), then gives each job a value at least
// its run time, at random among those that fit.
type EstimateParams struct {
	// MaxEstimateSeconds is the largest estimate (max_est): 10 hours, as
	// the Parallel Workloads Archive applies the model. Run times above
	// it are cut to it (as est_assign does), so those jobs' estimates are
	// exact. At least one hour.
	MaxEstimateSeconds int64
	// Bins is the number K of distinct estimates (binnum); 0 derives it
	// from the job count by BinsModel.
	Bins int
	// BinsModel is "linear" (the default: the authors' piecewise-linear
	// table of K against the job count) or "power" (K = PowerA *
	// jobs^PowerB).
	BinsModel      string
	PowerA, PowerB float64
	// HeadA, HeadB, HeadC give the share (percent of jobs) of the
	// popularity ranks 2..20: HeadA * e^(HeadB*rank) + HeadC
	// (binsiz_head_params); rank 1 takes the rest of HeadPercent.
	HeadA, HeadB, HeadC float64
	// HeadPercent is the percent of jobs on the 20 most popular values
	// (binsiz_head_sum).
	HeadPercent float64
	// TailA, TailB give the tail ranks' shares: TailA * rank^TailB,
	// scaled to 100 - HeadPercent (binsiz_tail_params).
	TailA, TailB float64
	// TimeShape is a in the tail's times: estimate/max = (a-1)x/(a-x) at
	// time rank x/K (bintim_param); 0 means 1 + 12.1039 K^-0.6026.
	TimeShape float64
	// Popular are values the site's users favour, with their shares
	// (bins); none by default.
	Popular []PopularEstimate
}

// DefaultEstimateParams returns the published parameters with a 10-hour
// maximum.
func DefaultEstimateParams() EstimateParams {
	return EstimateParams{
		MaxEstimateSeconds: 10 * 3600,
		BinsModel:          "linear",
		PowerA:             0.653566, PowerB: 0.547761,
		HeadA: 14.0491, HeadB: -0.177531, HeadC: 0.462513,
		HeadPercent: 89,
		TailA:       795.6, TailB: -2.267,
	}
}

// estimateSpec is one settable estimate parameter: its domain (for
// messages), how to set it from text (false: out of the domain) and its
// canonical text.
type estimateSpec struct {
	doc    string
	domain string
	set    func(p *EstimateParams, v string) bool
	get    func(p *EstimateParams) string
}

func estimateFloat(doc, domain string, check func(float64) bool, field func(p *EstimateParams) *float64) estimateSpec {
	return estimateSpec{doc, domain,
		func(p *EstimateParams, text string) bool {
			v, err := strconv.ParseFloat(text, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !check(v) {
				return false
			}
			*field(p) = v
			return true
		},
		func(p *EstimateParams) string { return strconv.FormatFloat(*field(p), 'g', -1, 64) }}
}

var estimateSpecs = map[string]estimateSpec{
	"max-estimate": {"max_est: the largest estimate in seconds", "whole seconds, at least 3600 (an hour)",
		func(p *EstimateParams, text string) bool {
			n, err := strconv.ParseInt(text, 10, 64)
			p.MaxEstimateSeconds = n
			return err == nil && n >= 3600 && n <= 1<<40
		},
		func(p *EstimateParams) string { return strconv.FormatInt(p.MaxEstimateSeconds, 10) }},
	"bins": {"binnum: distinct estimate values", "0 (from the job count) or a count in 1..1000000",
		func(p *EstimateParams, text string) bool {
			n, err := strconv.Atoi(text)
			p.Bins = n
			return err == nil && n >= 0 && n <= 1_000_000
		},
		func(p *EstimateParams) string { return strconv.Itoa(p.Bins) }},
	"bins-model": {"how the bin count follows the job count", "linear or power",
		func(p *EstimateParams, text string) bool {
			p.BinsModel = text
			return text == "linear" || text == "power"
		},
		func(p *EstimateParams) string { return p.BinsModel }},
	"popular": {"bins: values the site's users favour, with their shares", "none, or seconds:percent,... (at most 20 distinct values, percents summing to at most 100)",
		func(p *EstimateParams, text string) bool {
			list, ok := parsePopular(text)
			p.Popular = list
			return ok
		},
		func(p *EstimateParams) string { return formatPopular(p.Popular) }},
	"bins-power-a": estimateFloat("a of the power bins model K = a jobs^b", "a number > 0", positive, func(p *EstimateParams) *float64 { return &p.PowerA }),
	"bins-power-b": estimateFloat("b of the power bins model K = a jobs^b", "a number > 0", positive, func(p *EstimateParams) *float64 { return &p.PowerB }),
	"head-a":       estimateFloat("a of the head shares a e^(b rank) + c", "a finite number", anyFinite, func(p *EstimateParams) *float64 { return &p.HeadA }),
	"head-b":       estimateFloat("b of the head shares a e^(b rank) + c", "a finite number", anyFinite, func(p *EstimateParams) *float64 { return &p.HeadB }),
	"head-c":       estimateFloat("c of the head shares a e^(b rank) + c", "a finite number", anyFinite, func(p *EstimateParams) *float64 { return &p.HeadC }),
	"head-percent": estimateFloat("binsiz_head_sum: percent of jobs on the 20 most popular values", "a percentage in (0, 100)", func(v float64) bool { return v > 0 && v < 100 }, func(p *EstimateParams) *float64 { return &p.HeadPercent }),
	"tail-a":       estimateFloat("a of the tail shares a rank^b", "a number > 0", positive, func(p *EstimateParams) *float64 { return &p.TailA }),
	"tail-b":       estimateFloat("b of the tail shares a rank^b", "a finite number", anyFinite, func(p *EstimateParams) *float64 { return &p.TailB }),
	"time-shape":   estimateFloat("bintim_param: shape of the tail values' times", "0 (from the bin count) or a number > 1", func(v float64) bool { return v == 0 || v > 1 }, func(p *EstimateParams) *float64 { return &p.TimeShape }),
}

// Keys returns every parameter name, sorted.
func (p EstimateParams) Keys() []string { return slices.Sorted(maps.Keys(estimateSpecs)) }

// Get returns a parameter's value in canonical text form.
func (p EstimateParams) Get(key string) (string, error) {
	spec, ok := estimateSpecs[key]
	if !ok {
		return "", fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", TsafrirName, key, strings.Join(p.Keys(), ", "))
	}
	return spec.get(&p), nil
}

// Doc returns what a parameter means and its domain, in one line (for
// listings such as `sweep policies`); "" for an unknown name.
func (EstimateParams) Doc(key string) string {
	if spec, ok := estimateSpecs[key]; ok {
		return spec.doc + "; " + spec.domain
	}
	return ""
}

// Set sets one parameter from its text form; an unknown name or a value
// out of its domain is an error naming both, and leaves p unchanged.
func (p *EstimateParams) Set(key, value string) error {
	spec, ok := estimateSpecs[key]
	if !ok {
		return fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", TsafrirName, key, strings.Join(p.Keys(), ", "))
	}
	q := *p
	if !spec.set(&q, strings.TrimSpace(value)) {
		return fmt.Errorf("%s: parameter %s=%q: want %s", TsafrirName, key, value, spec.domain)
	}
	*p = q
	return nil
}

// SetAll applies "key=value" settings in order.
func (p *EstimateParams) SetAll(settings []string) error {
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("%s: setting %q: want key=value, with key one of %s", TsafrirName, s, strings.Join(p.Keys(), ", "))
		}
		if err := p.Set(strings.TrimSpace(key), value); err != nil {
			return err
		}
	}
	return nil
}

// Canonical returns the model's name and every parameter as key=value in
// sorted key order.
func (p EstimateParams) Canonical() string {
	var b strings.Builder
	b.WriteString(TsafrirName)
	for _, k := range p.Keys() {
		v, _ := p.Get(k)
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	return b.String()
}

// Tsafrir gives every job an estimate (RequestedSeconds) by the model,
// from the random stream seeded by seed: a histogram of estimate values
// for len(jobs) jobs, then each job, longest first, a value at random among
// the remaining ones that are at least its run time. A run time above the
// maximum estimate is cut to it first. It fails, changing nothing, when the
// histogram cannot cover the run times (too many jobs longer than the
// values the model offers: raise max-estimate).
func Tsafrir(jobs []workload.Job, p EstimateParams, seed [2]uint64) error {
	if len(jobs) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	hist, err := estimateHistogram(len(jobs), &p, rng)
	if err != nil {
		return err
	}
	return assignEstimates(jobs, hist, p.MaxEstimateSeconds, rng)
}

// estimateBin is one value of the histogram and how many jobs get it.
type estimateBin struct {
	seconds int64
	jobs    int
	fixed   bool // a popular value of the user's: its count is kept
}

// estimateHistogram builds the histogram of n estimates (est_gen_dist).
//
// The user's popular values keep exactly their job counts; every other
// value gets its share of n, at least one job, and the rounding
// difference is spread over them.
func estimateHistogram(n int, p *EstimateParams, rng *rand.Rand) ([]estimateBin, error) {
	users, err := userBins(p, n)
	if err != nil {
		return nil, err
	}
	k := p.Bins
	if k == 0 {
		k = binCount(n, p)
	}
	if k < len(users) {
		return nil, fmt.Errorf("%s: bins %d: want at least the %d popular values", TsafrirName, k, len(users))
	}
	shape := p.TimeShape
	if shape == 0 {
		shape = 1 + 12.1039*math.Pow(float64(k), -0.6026)
	}
	head, err := headPercents(p, users, n, rng)
	if err != nil {
		return nil, err
	}
	percents := tailPercents(p, head, k-len(head), shape, rng)
	for t, pct := range head {
		percents[t] = pct
	}
	bins := make([]estimateBin, 0, len(percents))
	for t, pct := range percents {
		b := estimateBin{seconds: t, jobs: max(1, int(math.Round(pct*float64(n)/100)))}
		if i := slices.IndexFunc(users, func(u estimateBin) bool { return u.seconds == t }); i >= 0 {
			b.jobs, b.fixed = users[i].jobs, true
		}
		bins = append(bins, b)
	}
	slices.SortFunc(bins, func(a, b estimateBin) int { return cmp.Compare(a.seconds, b.seconds) })
	if err := equalize(bins, n); err != nil {
		return nil, err
	}
	return bins, nil
}

// binLinear is the authors' table of the number of distinct estimates
// against the number of jobs, interpolated linearly.
var binLinear = [][2]int{{0, 0}, {20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565}}

// binCount returns K, the number of distinct estimates for n jobs.
func binCount(n int, p *EstimateParams) int {
	if p.BinsModel == "power" {
		return max(1, len(p.Popular), int(math.Round(p.PowerA*math.Pow(float64(n), p.PowerB))))
	}
	last := binLinear[len(binLinear)-1]
	if n > last[0] {
		return last[1]
	}
	k := 1
	for n > binLinear[k][0] {
		k++
	}
	lo, hi := binLinear[k-1], binLinear[k]
	slope := float64(hi[1]-lo[1]) / float64(hi[0]-lo[0])
	return lo[1] + int(math.Round(float64(n-lo[0])*slope))
}
