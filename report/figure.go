package report

import (
	"bytes"
	"html/template"
)

// inlineSVG drops the XML prolog and doctype of an SVG document, which are
// not allowed inside HTML.
func inlineSVG(svg []byte) template.HTML {
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		svg = svg[i:]
	}
	return template.HTML(svg)
}
