package report

import (
	"bytes"
	"html/template"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Sizes of the report's figures: wide enough that seven boxes or five
// loads read at a glance on a laptop screen, the width of the page's text.
const (
	figureWidth  = 26 * vg.Centimeter
	figureHeight = 10 * vg.Centimeter
)

// svgWithLegend draws p with legend to its right, outside the data area,
// so that no entry covers a line or a point (gonum's own legend sits
// inside the data area).
func svgWithLegend(p *plot.Plot, legend plot.Legend, width, height vg.Length) (template.HTML, error) {
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(3) // gonum's default spacing crowds the entries
	box := legend.Rectangle(dc)
	legendWidth := box.Max.X - box.Min.X + 6*vg.Millimeter
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(dc, width-legendWidth+3*vg.Millimeter, 0, 0, -4*vg.Millimeter))
	var out bytes.Buffer
	if _, err := canvas.WriteTo(&out); err != nil {
		return "", err
	}
	return inlineSVG(out.Bytes()), nil
}

// inlineSVG drops the XML prolog and doctype of an SVG document, which are
// not allowed inside HTML.
func inlineSVG(svg []byte) template.HTML {
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		svg = svg[i:]
	}
	return template.HTML(svg)
}
