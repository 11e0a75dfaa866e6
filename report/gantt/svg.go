package gantt

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/model"
)

// Layout of the chart, in pixels.
const (
	leftPx       = 200 // row labels
	rightPx      = 24
	topPx        = 56 // title and what the chart shows
	axisPx       = 40 // time axis below the rows
	rowPx        = 18
	clusterGapPx = 10
	fontPx       = 12
	legendJobs   = 16 // at most this many jobs get a legend entry
	focusMinPx   = 3  // the narrowest bar of the job in focus
)

// Write draws the schedule g as an SVG document on w and returns what it
// drew. The caption of the chart states the same counts.
func Write(w io.Writer, g model.Gantt, opts Options) (Summary, error) {
	c, err := newChart(g, opts)
	if err != nil {
		return Summary{}, err
	}
	c.layOut()
	c.cull()
	out := bufio.NewWriter(w)
	c.writeSVG(out)
	if err := out.Flush(); err != nil {
		return Summary{}, fmt.Errorf("writing the schedule's chart: %w", err)
	}
	return c.sum, nil
}

// svgWriter writes an SVG document; errors surface at Flush.
type svgWriter struct{ *bufio.Writer }

func (out svgWriter) pr(format string, args ...any) { fmt.Fprintf(out, format, args...) }

// writeSVG writes the chart as laid out and culled.
func (c *chart) writeSVG(w *bufio.Writer) {
	out := svgWriter{w}
	jobs := c.drawnJobs()
	legend := len(jobs) <= legendJobs && !c.opts.Focus && len(jobs) > 0
	captionLines := c.caption()
	height := c.plotBottom + axisPx + float64(len(captionLines)*(fontPx+4)) + 8
	if legend {
		height += fontPx + 12
	}
	c.writeHead(out, height)
	c.writeRows(out)
	c.writeBars(out)
	if c.opts.Focus {
		c.writeFocusMarks(out)
	}
	y := c.writeAxis(out)
	for _, line := range captionLines {
		y += fontPx + 4
		out.pr(`<text x="8" y="%.1f">%s</text>`+"\n", y, html.EscapeString(line))
	}
	if legend {
		c.writeLegend(out, jobs, y+fontPx+10)
	}
	out.pr("</svg>\n")
}

// drawnJobs returns the jobs of the drawn bars, ascending.
func (c *chart) drawnJobs() []int {
	seen := map[int]bool{}
	var jobs []int
	for _, b := range c.bars {
		if !seen[b.job] {
			seen[b.job] = true
			jobs = append(jobs, b.job)
		}
	}
	slices.Sort(jobs)
	return jobs
}

// writeHead writes the document's start, its styles, the title and what
// the chart shows.
func (c *chart) writeHead(out svgWriter, height float64) {
	width := float64(leftPx + c.opts.PlotWidthPx + rightPx)
	out.pr(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%d">`+"\n",
		width, height, width, height, fontPx)
	// A thin white outline separates neighbouring bars of whole rows; on
	// lanes a few pixels high it would wash the colours out.
	outline := "stroke:#fff;stroke-width:0.3"
	if slices.Min(c.laneHeight) < 3 {
		outline = "stroke:none"
	}
	out.pr("<style>.task{%s}.delay{stroke:#000;stroke-width:1.5;stroke-dasharray:3,2}.grid{stroke:#ddd}.sep{stroke:#888}</style>\n", outline)
	out.pr(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	out.pr(`<text x="%d" y="20" font-size="%d" font-weight="bold">%s</text>`+"\n", 8, fontPx+3, html.EscapeString(c.opts.Title))
	rowMeaning := c.words.Resource
	switch {
	case c.sum.NodesPerRow == 1:
		rowMeaning = "node, a bar's height the " + c.words.Resource + "s it holds there"
	case c.sum.NodesPerRow > 1:
		rowMeaning = strconv.Itoa(c.sum.NodesPerRow) + " consecutive nodes, a bar's height the " + c.words.Resource + "s it holds there"
	case c.sum.CoresPerRow > 1:
		rowMeaning = strconv.Itoa(c.sum.CoresPerRow) + " consecutive " + c.words.Resource + "s"
	}
	barMeaning := c.words.Bar
	if c.sum.NodesPerRow > 0 {
		barMeaning += " on each of its nodes"
	}
	colouring := "coloured by job"
	if c.opts.Focus {
		colouring = fmt.Sprintf("job %s (the worst) in red, every other job in grey", c.g.Jobs[c.opts.FocusJob].ID)
	}
	waits := ""
	if c.words.Wait != "" {
		waits = "; dashed: " + c.words.Wait
	}
	out.pr(`<text x="%d" y="40">%s</text>`+"\n", 8, html.EscapeString(fmt.Sprintf(
		"one lane per %s, one row per %s; one bar per %s, %s (hover for details)%s", c.words.Group, rowMeaning, barMeaning, colouring, waits)))
}

// writeRows writes each group's rows, labelled with their resources.
func (c *chart) writeRows(out svgWriter) {
	right := leftPx + c.opts.PlotWidthPx
	for k := range c.g.Groups {
		rows := c.rowsOf[k]
		for r := range rows {
			top := c.bandTop[k] + float64(r*rowPx)
			out.pr(`<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", leftPx-6, top+rowPx/2+fontPx/2-1, html.EscapeString(c.rowLabel(k, r, rows)))
			out.pr(`<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, right, top, top)
		}
		bottom := c.bandTop[k] + float64(rows*rowPx)
		out.pr(`<line class="sep" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, right, bottom, bottom)
	}
}

// rowLabel labels row r of the rows of group: its resources, the group's
// name on the first row, the group's size on a last row that stops short
// of it.
func (c *chart) rowLabel(k, r, rows int) string {
	group := c.g.Groups[k]
	resource, per, size := c.words.Resource, c.perRow[k], group.Resources
	if group.NodeResources > 0 {
		resource, per, size = "node", c.sum.NodesPerRow, group.Resources/group.NodeResources
	}
	first, last := r*per, min(size, (r+1)*per)-1
	if group.NodeResources > 0 {
		// Nodes by the machine's ids, as rigid_jobs.node_ids names them.
		first, last = first+group.FirstNode, last+group.FirstNode
	}
	label := fmt.Sprintf("%s %d", resource, first)
	if last > first {
		label = fmt.Sprintf("%ss %d-%d", resource, first, last)
	}
	switch {
	case r == 0:
		label = group.Name + " " + label
	case r == rows-1 && r*per+per < size:
		label = fmt.Sprintf("%s (of %d)", label, size)
	}
	return label
}

// writeBars writes the bars, then the delays over them.
func (c *chart) writeBars(out svgWriter) {
	for _, b := range c.bars {
		title := html.EscapeString(c.titleOf(b))
		if len(b.pieces) == 1 {
			out.pr(`<rect class="task" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				b.x, b.pieces[0].y, b.width, b.pieces[0].height, b.jobColour, title)
			continue
		}
		// One bar on scattered resources: one path, a rectangle per run
		// (a path keeps a chart of thousands of such bars small).
		out.pr(`<path class="task" fill="%s" d="`, b.jobColour)
		for _, p := range b.pieces {
			out.pr(`M%.1f %.2fh%.1fv%.2fh%.1fz`, b.x, p.y, b.width, p.height, -b.width)
		}
		out.pr(`"><title>%s</title></path>`+"\n", title)
	}
	for _, d := range c.delays {
		out.pr(`<line class="delay" x1="%.2f" x2="%.2f" y1="%.2f" y2="%.2f"/>`+"\n", d.x1, d.x2, d.y, d.y)
	}
}

// writeFocusMarks marks the life of the job in focus: its arrival and its
// finish.
func (c *chart) writeFocusMarks(out svgWriter) {
	job := c.g.Jobs[c.opts.FocusJob]
	for _, mark := range []struct {
		tick int64
		what string
	}{{job.ArrivalTick, "arrives"}, {job.FinishTick, "finishes"}} {
		if mark.tick < c.sum.FromTick || mark.tick > c.sum.ToTick {
			continue
		}
		x := c.xOf(mark.tick)
		out.pr(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#d55e00" stroke-width="1.5" stroke-dasharray="5,3"/>`+"\n", x, x, topPx-2, c.plotBottom)
		anchor := "start"
		if x > leftPx+float64(c.opts.PlotWidthPx)/2 {
			anchor = "end"
		}
		out.pr(`<text x="%.1f" y="%d" fill="#d55e00" text-anchor="%s">job %s %s</text>`+"\n", x, topPx-4, anchor, html.EscapeString(job.ID), mark.what)
	}
}

// writeAxis writes the time axis and returns the height below it, where
// the caption starts.
func (c *chart) writeAxis(out svgWriter) float64 {
	axisY := c.plotBottom + 4
	out.pr(`<line class="sep" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, leftPx+c.opts.PlotWidthPx, axisY, axisY)
	for _, tick := range c.opts.axisTicks(c.sum.FromTick, c.sum.ToTick) {
		x := c.xOf(tick.at)
		out.pr(`<line class="sep" x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f"/>`+"\n", x, x, axisY, axisY+5)
		out.pr(`<text x="%.2f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, axisY+5+fontPx, tick.label)
	}
	axisName := "time (ticks)"
	if c.opts.TicksPerHour > 0 {
		axisName = "time (hours from the cell's start)"
	}
	out.pr(`<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", leftPx-6, axisY+5+fontPx, axisName)
	return c.plotBottom + axisPx
}

// writeLegend writes a colour swatch per job on the line at y.
func (c *chart) writeLegend(out svgWriter, jobs []int, y float64) {
	x := 8.0
	for _, j := range jobs {
		id := c.g.Jobs[j].ID
		out.pr(`<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s"/>`+"\n", x, y-11, c.opts.colourOf(j))
		out.pr(`<text x="%.1f" y="%.1f">job %s</text>`+"\n", x+16, y, html.EscapeString(id))
		x += 16 + float64(len(id)+5)*7
	}
}

// caption states what the chart shows and what it leaves out.
func (c *chart) caption() []string {
	sum, opts, w := c.sum, c.opts, c.words
	shortest := strconv.FormatFloat(sum.ShortestDrawnTicks, 'g', 3, 64)
	bars := w.Bar + "s"
	if sum.NodesPerRow > 0 {
		// A job on several nodes is a bar on each.
		bars = w.Bar + "s' bars on nodes"
	}
	lines := []string{fmt.Sprintf("%s: %d of %d %s run in this window; %d drawn; rows stop at the highest %s used",
		opts.span(sum.FromTick, sum.ToTick, " to "), sum.InWindow, sum.Tasks, bars, sum.Bars, w.Resource)}
	if sum.TooShort > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d %s shorter than %s ticks (%g px at this scale); narrow the window to see them",
			sum.TooShort, plural(sum.TooShort, w.Bar), shortest, opts.MinBarPx))
	}
	if sum.OverBudget > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d more %s, the shortest, beyond the budget of %d bars",
			sum.OverBudget, plural(sum.OverBudget, w.Bar), opts.MaxBars))
	}
	if sum.DelaysElided > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d %s shorter than %s ticks", sum.DelaysElided, plural(sum.DelaysElided, w.Wait), shortest))
	}
	if sum.Scattered > 0 {
		lines = append(lines, fmt.Sprintf("%d %s started on scattered free %ss: drawn in pieces, one per run of consecutive %ss",
			sum.Scattered, plural(sum.Scattered, w.Bar), w.Resource, w.Resource))
	}
	return lines
}

// A timeTick is a labelled tick of the time axis.
type timeTick struct {
	at    int64
	label string
}

// axisTicks returns about ten round ticks (1, 2 or 5 times a power of
// ten apart, in ticks or in hours) within [from, to].
func (o Options) axisTicks(from, to int64) []timeTick {
	unit := 1.0
	if o.TicksPerHour > 0 {
		unit = float64(o.TicksPerHour)
	}
	span := float64(to-from) / unit
	step := math.Inf(1)
	for _, m := range []float64{1, 2, 5} {
		s := m * math.Pow(10, math.Ceil(math.Log10(span/10/m)))
		if o.TicksPerHour == 0 {
			s = max(s, 1)
		}
		step = min(step, s)
	}
	var ticks []timeTick
	for k := math.Ceil(float64(from) / unit / step); k*step*unit <= float64(to); k++ {
		at := int64(math.Round(k * step * unit))
		label := strconv.FormatInt(at, 10)
		if o.TicksPerHour > 0 {
			label = strconv.FormatFloat(k*step, 'f', -1, 64)
			if prec := -math.Floor(math.Log10(step)); prec > 0 {
				label = strconv.FormatFloat(k*step, 'f', int(prec), 64)
			}
		}
		ticks = append(ticks, timeTick{at, label})
	}
	return ticks
}

// span names the time from tick from to tick to, joined by sep, in hours
// when the axis is.
func (o Options) span(from, to int64, sep string) string {
	if o.TicksPerHour > 0 {
		h := float64(o.TicksPerHour)
		return fmt.Sprintf("hours %.5g%s%.5g", float64(from)/h, sep, float64(to)/h)
	}
	return fmt.Sprintf("ticks %d%s%d", from, sep, to)
}

// colourOf gives job j its colour: the job in focus vermillion and the
// others two light greys by parity (so that neighbouring jobs part), or
// without focus every job its own hue.
func (o Options) colourOf(j int) string {
	if !o.Focus {
		return jobColour(j)
	}
	if j == o.FocusJob {
		return "#d55e00"
	}
	return []string{"#b8b8b8", "#d6d6d6"}[j%2]
}

// jobColour gives job j a colour: hues a golden angle apart, so
// neighbouring jobs differ clearly and colours repeat only slowly.
func jobColour(j int) string {
	hue := math.Mod(float64(j)*137.50776405, 360)
	lightness := []float64{0.52, 0.64, 0.42}[j%3]
	return hslHex(hue, 0.6, lightness)
}

func hslHex(hue, saturation, lightness float64) string {
	chroma := (1 - math.Abs(2*lightness-1)) * saturation
	h := hue / 60
	x := chroma * (1 - math.Abs(math.Mod(h, 2)-1))
	var r, g, b float64
	switch {
	case h < 1:
		r, g = chroma, x
	case h < 2:
		r, g = x, chroma
	case h < 3:
		g, b = chroma, x
	case h < 4:
		g, b = x, chroma
	case h < 5:
		r, b = x, chroma
	default:
		r, b = chroma, x
	}
	m := lightness - chroma/2
	byteOf := func(v float64) int { return int(math.Round((v + m) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", byteOf(r), byteOf(g), byteOf(b))
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plural returns word for 1 of it, else its plural, word+"s".
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
