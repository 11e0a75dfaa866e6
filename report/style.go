package report

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"html/template"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis/rigid"
	"github.com/sweep-sched/sweep/engine/backfill"
	mrigid "github.com/sweep-sched/sweep/model/rigid"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The report's figures share one style: Liberation Sans (metrically
// Arial, so the page's sans-serif is what a browser without it falls back
// to), the Okabe-Ito colour-blind-safe palette, and one colour, marker and
// dash pattern per policy in every figure of every study.

// okabeIto is the Okabe-Ito palette (Okabe and Ito 2008, "Color Universal
// Design") without its yellow, too light on white.
var okabeIto = []color.NRGBA{
	{0x00, 0x00, 0x00, 0xff}, // black
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
}

// A seriesStyle is how one policy is drawn everywhere.
type seriesStyle struct {
	Color  color.Color
	Shape  draw.GlyphDrawer
	Dashes []vg.Length
}

var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{},
}

var dashes = [][]vg.Length{
	nil, {vg.Points(6), vg.Points(2)}, {vg.Points(2), vg.Points(2)}, {vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(10), vg.Points(3)}, {vg.Points(1), vg.Points(3)}, {vg.Points(4), vg.Points(4)},
}

// policyStyles fixes each known policy's colour, marker and dashes, so
// that a policy looks the same in every figure of every study; the
// policies one study compares never share a colour.
var policyStyles = map[string][3]int{ // palette, shape, dashes
	// seed 004
	"pslr": {0, 0, 0}, "srtf": {1, 1, 1}, "lrtf": {2, 2, 2}, "fifo-task": {3, 3, 3},
	"fifo-job": {4, 4, 4}, "random": {5, 5, 5}, "fairshare": {6, 6, 6},
	// seeds 000/001
	"ostrich": {4, 0, 0}, "fcfs": {1, 1, 1}, "log": {0, 2, 2},
	// seed 003
	rigid.RelShare: {4, 0, 0}, rigid.TradeoffFS: {5, 1, 1}, rigid.FCFSEasy: {0, 2, 2},
	// the rigid load study (issue 32): its seven policies in seven colours,
	// unicef and f1 told from relshare and tradeoff-fs by marker and dashes
	mrigid.PolicyFCFSNone: {6, 6, 6}, backfill.OrderSJF.String(): {1, 1, 1}, backfill.OrderSAF.String(): {2, 3, 3},
	backfill.OrderWFP3.String(): {3, 4, 4}, backfill.OrderUNICEF.String(): {4, 5, 5}, backfill.OrderF1.String(): {5, 7, 6},
	// the GPU cluster (issue 34, experiments/gpu-cluster.yaml): each order
	// with EASY in its load-study style, with conservative backfilling in
	// a colour of its own, next to its EASY one's hue where the palette has
	// one (sjf: orange, vermillion; saf: sky blue, blue), and dashed
	"sjf-easy": {1, 1, 1}, "saf-easy": {2, 3, 3},
	"fcfs-cons": {3, 2, 4}, "sjf-cons": {5, 1, 4}, "saf-cons": {4, 3, 4},
	// seed 002
	"DEMT": {4, 0, 0}, "Gang": {5, 4, 4}, "Sequential": {0, 5, 5}, "List-MRT": {1, 1, 1},
	"List-wLPTF": {3, 3, 3}, "List-SAF": {6, 6, 6},
}

// styleOf returns the style of a policy (any series name): the fixed one
// of a known policy, else one drawn from the name's hash, the same in
// every figure.
func styleOf(name string) seriesStyle {
	k, ok := policyStyles[name]
	if !ok {
		h := fnv.New32a()
		h.Write([]byte(name))
		n := int(h.Sum32())
		k = [3]int{n % len(okabeIto), n / 7 % len(shapes), n / 49 % len(dashes)}
	}
	return seriesStyle{Color: okabeIto[k[0]], Shape: shapes[k[1]], Dashes: dashes[k[2]]}
}

// indexStyle returns the style of the i-th series of a figure whose
// series are not policies (the workloads of a study).
func indexStyle(i int) seriesStyle {
	return seriesStyle{Color: okabeIto[i%len(okabeIto)], Shape: shapes[i%len(shapes)], Dashes: dashes[i%len(dashes)]}
}

// Font sizes, in points, at the figures' size (the page's text width, so
// 12 pt reads as the page's text).
const (
	labelPoints = 13
	tickPoints  = 11
)

// newPlot returns a plot in the report's style: sans-serif text of the
// page's size.
func newPlot() *plot.Plot {
	p := plot.New()
	sans := func(size vg.Length) font.Font {
		return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	}
	p.Title.TextStyle.Font = sans(labelPoints)
	p.X.Label.TextStyle.Font, p.Y.Label.TextStyle.Font = sans(labelPoints), sans(labelPoints)
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = sans(tickPoints), sans(tickPoints)
	p.Legend.TextStyle.Font = sans(tickPoints)
	p.X.Padding, p.Y.Padding = vg.Points(4), vg.Points(4)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	return p
}

// plainTicks are gonum's default ticks labelled with the fewest digits
// that tell them apart (2.5, not 2.50).
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 6, 64)
		}
	}
	return ticks
}

// Figure sizes: the page's text column (about 1,150 px), so a figure is
// shown at its size, its text at the page's.
const (
	pageWidth  = 30 * vg.Centimeter
	pageHeight = 11 * vg.Centimeter
)

// A chart is one figure: a plot, its legend drawn to the right of the
// data (never over it), its size, and the stable name of its files.
type chart struct {
	name          string
	plot          *plot.Plot
	legend        *plot.Legend // nil: no legend
	width, height vg.Length
}

// draw draws the chart on c.
func (ch chart) draw(c draw.Canvas) {
	// Room above the axis for its top tick label.
	c = draw.Crop(c, 0, 0, 0, -2*vg.Millimeter)
	if _, log := ch.plot.Y.Scale.(plot.LogScale); log && ch.plot.Y.Label.Text != "" {
		// gonum places a y label's room at the arithmetic middle of the
		// axis range, near the top of a log axis, and shrinks the data
		// area to make room: the label is drawn here instead, beside the
		// axis.
		label := ch.plot.Y.Label
		ch.plot.Y.Label.Text = ""
		defer func() { ch.plot.Y.Label.Text = label.Text }()
		style := label.TextStyle
		style.Rotation = math.Pi / 2
		style.XAlign, style.YAlign = draw.XCenter, draw.YCenter
		room := style.Height(label.Text) + label.Padding
		c.FillText(style, vg.Point{X: c.Min.X + room/2, Y: (c.Min.Y + c.Max.Y) / 2}, label.Text)
		c = draw.Crop(c, room, 0, 0, 0)
	}
	if ch.legend == nil {
		ch.plot.Draw(c)
		return
	}
	l := *ch.legend
	l.TextStyle.Font = ch.plot.Legend.TextStyle.Font
	l.Top, l.Left = true, true
	l.Padding = vg.Points(3)
	box := l.Rectangle(c)
	legendWidth := box.Max.X - box.Min.X + 6*vg.Millimeter
	ch.plot.Draw(draw.Crop(c, 0, -legendWidth, 0, 0))
	l.Draw(draw.Crop(c, c.Max.X-c.Min.X-legendWidth+3*vg.Millimeter, 0, 0, -4*vg.Millimeter))
}

// figureFiles writes every chart of a report as DIR/report/figures/
// <name>.svg and <name>.pdf, for a paper, and returns it inline.
type figureFiles struct {
	dir   string
	names map[string]bool
}

// FiguresDir is the directory of the figure files under the report's.
const FiguresDir = "figures"

// newFigureFiles empties DIR/report/figures (a figure the run no longer
// has must not stay behind) and returns a writer into it.
func newFigureFiles(dir string) (*figureFiles, error) {
	figures := filepath.Join(dir, Dir, FiguresDir)
	if err := os.RemoveAll(figures); err != nil {
		return nil, fmt.Errorf("clearing the figures: %w", err)
	}
	if err := os.MkdirAll(figures, 0o777); err != nil {
		return nil, fmt.Errorf("creating the figures directory: %w", err)
	}
	return &figureFiles{dir: figures, names: map[string]bool{}}, nil
}

// add writes ch as SVG and PDF and returns its SVG for inlining.
func (f *figureFiles) add(ch chart) (template.HTML, error) {
	if ch.width == 0 {
		ch.width, ch.height = pageWidth, pageHeight
	}
	name := fileName(ch.name)
	if name == "" || f.names[name] {
		return "", fmt.Errorf("figure file name %q is empty or taken", name)
	}
	f.names[name] = true
	svgCanvas := vgsvg.New(ch.width, ch.height)
	ch.draw(draw.New(svgCanvas))
	var svg bytes.Buffer
	if _, err := svgCanvas.WriteTo(&svg); err != nil {
		return "", err
	}
	out := withFontFallback(svg.Bytes())
	pdfCanvas := vgpdf.New(ch.width, ch.height)
	ch.draw(draw.New(pdfCanvas))
	var pdf bytes.Buffer
	if _, err := pdfCanvas.WriteTo(&pdf); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(f.dir, name+".svg"), out, 0o666); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(f.dir, name+".pdf"), pdf.Bytes(), 0o666); err != nil {
		return "", err
	}
	return inlineSVG(out), nil
}

// withFontFallback adds Arial, Helvetica and sans-serif after gonum's
// font family, which names Liberation Sans alone: a browser without it
// would draw the figure in its default serif font.
func withFontFallback(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// fileName makes a stable file name of a figure name: lower case,
// letters, digits, dots and dashes.
func fileName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// readableTicks labels a linear axis whose values are large (>= 10^4) in
// units of a power of ten that is a multiple of 3, named in the axis
// label ("x 10^18"), so ticks read 2, 4, 6 rather than 2e+18.
func readableTicks(a *plot.Axis) {
	if _, linear := a.Scale.(plot.LinearScale); !linear {
		return
	}
	top := math.Max(math.Abs(a.Min), math.Abs(a.Max))
	if !(top >= 1e4) || math.IsInf(top, 0) {
		return
	}
	exp := int(math.Floor(math.Log10(top)/3)) * 3
	a.Tick.Marker = scaledTicks{exp: exp}
	a.Label.Text += fmt.Sprintf(" (× 10^%d)", exp)
}

// scaledTicks are gonum's default ticks labelled in units of 10^exp.
type scaledTicks struct{ exp int }

func (s scaledTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	unit := math.Pow(10, float64(s.exp))
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value/unit, 'g', 4, 64)
		}
	}
	return ticks
}

// logTicks are gonum's log-scale ticks without those beyond the axis:
// gonum returns the powers of ten around the range, and the plot pads its
// data area to make room for their labels, squeezing the data into a part
// of the figure.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	var in []plot.Tick
	for _, t := range (plot.LogTicks{Prec: -1}).Ticks(min, max) {
		if t.Value >= min && t.Value <= max {
			in = append(in, t)
		}
	}
	return in
}
