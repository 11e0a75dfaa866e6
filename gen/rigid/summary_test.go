package rigid

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// The figures compared with the authors' code (docs/lublin.md): one
// instance's shares, quantiles (nearest rank: the smallest value with at
// least q of the sample at or below it), correlation and arrivals per hour.

var quantileLevels = []float64{0.10, 0.25, 0.50, 0.75, 0.90}

// figure is one named number of an instance's summary.
type figure struct {
	name  string
	value float64
}

// quantile returns the nearest-rank q-quantile of sorted.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func quantileFigures(prefix string, values []float64) []figure {
	s := slices.Clone(values)
	slices.Sort(s)
	var out []figure
	for _, q := range quantileLevels {
		out = append(out, figure{fmt.Sprintf("%s q%02.0f", prefix, q*100), quantile(s, q)})
	}
	return out
}

// pearson returns the correlation coefficient of x and y.
func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var sx, sy, sxx, syy, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		syy += y[i] * y[i]
		sxy += x[i] * y[i]
	}
	return (sxy - sx*sy/n) / math.Sqrt((sxx-sx*sx/n)*(syy-sy*sy/n))
}

// lublinFigures summarizes a generated workload's jobs and their classes.
func lublinFigures(jobs []workload.Job, classes []Class) []figure {
	n := float64(len(jobs))
	var serial, pow2 float64
	var sizes, runs, gaps, logSize, logRun []float64
	var hours [24]float64
	for i, j := range jobs {
		if j.Procs == 1 {
			serial++
		} else if bits.OnesCount(uint(j.Procs)) == 1 {
			pow2++
		}
		sizes = append(sizes, float64(j.Procs))
		runs = append(runs, float64(j.RunSeconds))
		logSize = append(logSize, math.Log(float64(j.Procs)))
		logRun = append(logRun, math.Log(float64(j.RunSeconds)))
		if i > 0 {
			gaps = append(gaps, float64(j.SubmitSeconds-jobs[i-1].SubmitSeconds))
		}
		hours[(j.SubmitSeconds/3600)%24]++
	}
	batch := float64(len(slices.DeleteFunc(slices.Clone(classes), func(c Class) bool { return c != Batch })))
	out := []figure{{"batch share", batch / n}, {"serial share", serial / n}, {"power-of-two share (size >= 2)", pow2 / n}}
	out = append(out, quantileFigures("size", sizes)...)
	out = append(out, quantileFigures("run s", runs)...)
	out = append(out, quantileFigures("inter-arrival s", gaps)...)
	out = append(out, figure{"Pearson r of ln size, ln run", pearson(logSize, logRun)})
	for h, c := range hours {
		out = append(out, figure{fmt.Sprintf("arrivals %02d h share", h), c / n})
	}
	return out
}

// tsafrirFigures summarizes the estimates of a job list.
func tsafrirFigures(jobs []workload.Job) []figure {
	n := float64(len(jobs))
	var ratios []float64
	exact := 0.0
	counts := map[int64]int{}
	for _, j := range jobs {
		ratios = append(ratios, float64(j.RequestedSeconds)/float64(j.RunSeconds))
		if j.RequestedSeconds == j.RunSeconds {
			exact++
		}
		counts[j.RequestedSeconds]++
	}
	popular := make([]int, 0, len(counts))
	for _, c := range counts {
		popular = append(popular, c)
	}
	slices.SortFunc(popular, func(a, b int) int { return cmp.Compare(b, a) })
	top := 0
	for _, c := range popular[:min(10, len(popular))] {
		top += c
	}
	out := quantileFigures("estimate/run", ratios)
	return append(out, figure{"exact estimates share", exact / n}, figure{"top-10 estimates share", float64(top) / n},
		figure{"distinct estimates", float64(len(counts))})
}

// spread is a figure's mean and sample standard deviation over instances.
type spread struct {
	name     string
	mean, sd float64
}

func spreads(instances [][]figure) []spread {
	out := make([]spread, len(instances[0]))
	for k := range out {
		var s, ss float64
		for _, inst := range instances {
			s += inst[k].value
		}
		m := s / float64(len(instances))
		for _, inst := range instances {
			ss += (inst[k].value - m) * (inst[k].value - m)
		}
		out[k] = spread{instances[0][k].name, m, math.Sqrt(ss / float64(len(instances)-1))}
	}
	return out
}

// goLiteral renders spreads as the Go table the tests record.
func goLiteral(s []spread) string {
	var b strings.Builder
	for _, f := range s {
		fmt.Fprintf(&b, "\t{%q, %.6g, %.4g},\n", f.name, f.mean, f.sd)
	}
	return b.String()
}
