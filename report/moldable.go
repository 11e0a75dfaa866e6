package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/fidelity"
	"github.com/sweep-sched/sweep/analysis/moldable"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
)

// moldablePage is the report of a moldable-task run (seed 002).
type moldablePage struct {
	Provenance template.HTML
	Workloads  []moldableWorkload
	Time       *figure // DEMT's run time against n, when the run has DEMT
	Claims     claimsHTML
	Notes      string
}

type moldableWorkload struct {
	Name    string
	Figures []figure
}

// errorPoints are averages with their min-max range as error bars.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// WriteMoldable renders the report of a moldable run as
// DIR/report/index.html: per workload, the paper's figures (performance
// ratio against n, one panel per criterion, the average of every
// algorithm with bars from the smallest to the largest per-instance
// ratio), after the text's claims with their status.
func WriteMoldable(dir string, r *moldable.Result, claims []fidelity.Claim, prov *analysis.Provenance) (string, error) {
	return writeMoldable(dir, IndexFile, r, claims, prov)
}

// writeMoldable is WriteMoldable into DIR/report/FILE.
func writeMoldable(dir, file string, r *moldable.Result, claims []fidelity.Claim, prov *analysis.Provenance) (string, error) {
	p := &moldablePage{}
	var err error
	if p.Claims, err = renderClaims(claims); err != nil {
		return "", err
	}
	if p.Provenance, err = provenanceHTML(prov); err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	var notes bytes.Buffer
	if err := PrintMoldable(&notes, r); err != nil {
		return "", err
	}
	p.Notes = notes.String()
	files, err := newFigureFiles(dir)
	if err != nil {
		return "", fmt.Errorf("building the report: %w", err)
	}
	// The two criteria share one y scale per workload, so the panels
	// compare at a glance.
	for _, g := range r.Generators {
		w := moldableWorkload{Name: moldable.ShortWorkload(g)}
		for _, c := range []struct {
			title, label string
			of           func(moldable.Point) moldable.RatioSummary
		}{
			{"C_max", "C_max / lambda*", func(p moldable.Point) moldable.RatioSummary { return p.Cmax }},
			{"minsum", "sum wC / interval LP", func(p moldable.Point) moldable.RatioSummary { return p.SumWC }},
		} {
			ch, err := ratioPlot(r, g, c.label, c.of)
			if err != nil {
				return "", fmt.Errorf("building the report: %s %s: %w", g, c.title, err)
			}
			ch.name = "moldable-" + w.Name + "-" + c.title
			svg, err := files.add(ch)
			if err != nil {
				return "", fmt.Errorf("building the report: %s %s: %w", g, c.title, err)
			}
			w.Figures = append(w.Figures, figure{Title: w.Name + ": " + c.title + " ratio against n", SVG: svg, File: ch.name})
		}
		p.Workloads = append(p.Workloads, w)
	}
	if slices.Contains(r.Algorithms, emoldable.AlgDEMT) {
		ch, err := runTimePlot(r)
		if err != nil {
			return "", fmt.Errorf("building the report: run time: %w", err)
		}
		svg, err := files.add(ch)
		if err != nil {
			return "", fmt.Errorf("building the report: run time: %w", err)
		}
		p.Time = &figure{Title: "Run time of DEMT against n (lambda* included; machine-dependent)", SVG: svg, File: ch.name}
	}
	return writeHTML(dir, file, moldableTemplate, p)
}

// runTimePlot draws the paper's last figure: DEMT's mean run time per
// workload against n, with bars to the slowest instance.
func runTimePlot(r *moldable.Result) (chart, error) {
	p := newPlot()
	p.X.Label.Text = "n (tasks)"
	p.Y.Label.Text = "DEMT run time (seconds)"
	legend := plot.NewLegend()
	var xs []float64
	for i, g := range r.Generators {
		var pts errorPoints
		for _, n := range r.Sizes(g) {
			pt, ok := r.Point(g, n, emoldable.AlgDEMT)
			if !ok {
				continue
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(n), Y: pt.RunSecondsMean})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{0, pt.RunSecondsMax - pt.RunSecondsMean})
			if !slices.Contains(xs, float64(n)) {
				xs = append(xs, float64(n))
			}
		}
		if err := addRange(p, &legend, moldable.ShortWorkload(g), indexStyle(i), pts); err != nil {
			return chart{}, err
		}
	}
	p.Y.Min = 0
	slices.Sort(xs)
	p.X.Tick.Marker = constantTicks(everyOther(xs))
	return chart{name: "moldable-demt-run-time", plot: p, legend: &legend}, nil
}

// everyOther keeps every other tick of a long axis, so labels stay
// readable.
func everyOther(xs []float64) []float64 {
	if len(xs) <= 8 {
		return xs
	}
	var every []float64
	for i := 0; i < len(xs); i += 2 {
		every = append(every, xs[i])
	}
	return every
}

// ratioPlot draws one panel: the ratio of every algorithm against n. The
// y axis ends above the largest ratio of every algorithm but Gang, whose
// ratios can be ten times the others' (the paper leaves it out of range
// too); a clipped line says so in the legend.
func ratioPlot(r *moldable.Result, generator, label string, of func(moldable.Point) moldable.RatioSummary) (chart, error) {
	p := newPlot()
	p.X.Label.Text = "n (tasks)"
	p.Y.Label.Text = label
	legend := plot.NewLegend()
	// One scale for both criteria of the workload: the largest ratio of
	// every algorithm but Gang under either.
	top := 1.0
	for _, pt := range r.Points {
		if pt.Generator == generator && pt.Algorithm != emoldable.AlgGang {
			top = max(top, pt.Cmax.Max, pt.SumWC.Max)
		}
	}
	sizes := r.Sizes(generator)
	step := 1.0
	if len(sizes) > 1 {
		step = float64(sizes[1]-sizes[0]) / float64(2*len(r.Algorithms))
	}
	for i, alg := range r.Algorithms {
		var pts errorPoints
		clipped := false
		for _, n := range sizes {
			pt, ok := r.Point(generator, n, alg)
			if !ok {
				continue
			}
			s := of(pt)
			// Spread the algorithms a little along x so the bars do not
			// hide each other.
			x := float64(n) + (float64(i)-float64(len(r.Algorithms)-1)/2)*step
			pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: s.Average})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{s.Average - s.Min, s.Max - s.Average})
			clipped = clipped || s.Average > top*1.05
		}
		name := alg
		if clipped {
			name += " (off scale, above)"
		}
		if err := addRange(p, &legend, name, styleOf(alg), pts); err != nil {
			return chart{}, err
		}
	}
	p.Y.Min, p.Y.Max = 1, math.Ceil(top*1.05*10)/10
	if p.Y.Max > 4 {
		// A baseline far above the rest (Sequential at small n) would
		// flatten DEMT and the list algorithms near 1: ratios go on a
		// log axis.
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = ratioTicks{}
		p.Y.Label.Text += ", log scale"
	}
	p.Y.Label.Text += fmt.Sprintf(" (axis cut at %g)", p.Y.Max)
	xs := make([]float64, len(sizes))
	for i, n := range sizes {
		xs[i] = float64(n)
	}
	p.X.Tick.Marker = constantTicks(everyOther(xs))
	return chart{plot: p, legend: &legend}, nil
}

// ratioTicks label a log axis of ratios at round values (1, 1.5, 2, 3,
// 5, 10, ...) within its range.
type ratioTicks struct{}

func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for decade := 1.0; decade <= max; decade *= 10 {
		for _, m := range []float64{1, 1.5, 2, 3, 5, 7} {
			if v := m * decade; v >= min && v <= max {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

var moldableTemplate = template.Must(template.New("moldable").Funcs(template.FuncMap{"file": fileName}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sweep report: moldable tasks</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 80em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
.yes { color: #080; font-weight: bold; } .no { color: #b00; font-weight: bold; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; }
.figures figure { flex: 1 1 100%; } figure svg { max-width: 100%; height: auto; }
figure.half { display: inline-block; width: 48%; margin-right: 1.5%; vertical-align: top; }
.files { font-weight: normal; font-size: 0.85em; }
figure { margin: 0; } figcaption { font-weight: bold; margin-bottom: 0.3em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
` + provenanceStyle + `
</style>
</head>
<body>
<h1>sweep report: moldable tasks (seed 002)</h1>
{{.Provenance}}
{{.Claims.Summary}}
<p>Performance ratios against the lower bounds: C_max over lambda* (the MRT dual test), sum w_i C_i
over the safe interval LP. Each point is the average ratio (sum of values over sum of bounds, as the
paper computes it), its bar runs from the smallest to the largest per-instance ratio.</p>
{{range .Workloads}}<h2>{{.Name}}</h2>
<div class="figures">
{{range $f := .Figures}}<figure><figcaption>{{$f.Title}} {{with $f.File}}<span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}</div>
{{end}}
{{with .Time}}<h2>Run time</h2>
<figure><figcaption>{{.Title}}{{with .File}} <span class="files">(<a href="figures/{{file .}}.svg">SVG</a>, <a href="figures/{{file .}}.pdf">PDF</a>)</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}
{{.Claims.Tables}}
<h2>Tables</h2>
<pre>{{.Notes}}</pre>
</body>
</html>
`))

// addRange draws a series as a line through its averages, named in
// legend, with a bar from each point's low to its high value.
func addRange(p *plot.Plot, legend *plot.Legend, name string, style seriesStyle, pts errorPoints) error {
	if err := addLine(p, legend, name, style, pts.XYs); err != nil {
		return err
	}
	if len(pts.XYs) == 0 {
		return nil
	}
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	bars.Color = style.Color
	p.Add(bars)
	return nil
}
