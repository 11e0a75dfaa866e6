package gantt

import (
	"bufio"
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/engine/grid"
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

// bar is a task to draw: one piece per run of consecutive cores.
type bar struct {
	task       int
	x, width   float64
	pieces     []piece
	centreY    float64
	jobColour  string
	title      string
	widthTicks int64
}

// piece is the vertical extent of a run of cores.
type piece struct{ y, height float64 }

// Write draws the schedule s as an SVG document on w and returns what it
// drew. The caption of the chart states the same counts.
func Write(w io.Writer, s *grid.Schedule, opts Options) (Summary, error) {
	opts = opts.withDefaults()
	in := s.Instance
	places, err := placeTasks(s)
	if err != nil {
		return Summary{}, fmt.Errorf("drawing the schedule: %w", err)
	}
	sum := Summary{Tasks: in.Tasks(), FromTick: opts.FromTick, ToTick: opts.ToTick}
	if sum.ToTick == 0 {
		for _, f := range s.TaskFinish {
			sum.ToTick = max(sum.ToTick, f)
		}
	}
	if sum.ToTick <= sum.FromTick {
		return Summary{}, fmt.Errorf("drawing the schedule: time window [%d, %d) is empty; want from < to", sum.FromTick, sum.ToTick)
	}
	pxPerTick := float64(opts.PlotWidthPx) / float64(sum.ToTick-sum.FromTick)
	sum.ShortestDrawnTicks = opts.MinBarPx / pxPerTick
	xOf := func(tick int64) float64 { return leftPx + float64(tick-sum.FromTick)*pxPerTick }
	clip := func(from, to int64) (int64, int64) { return max(from, sum.FromTick), min(to, sum.ToTick) }

	// Rows cover the cores used in the window (cores are taken lowest
	// first, so the unused ones are the highest), every row standing for
	// the same number of cores so that bar heights compare across
	// clusters.
	clusters := in.Platform.Clusters
	shown := make([]int, len(clusters))
	for g := range in.Tasks() {
		if s.TaskFinish[g] > sum.FromTick && s.TaskStart[g] < sum.ToTick {
			p := places[g]
			shown[p.cluster] = max(shown[p.cluster], p.lastCore()+1)
		}
	}
	totalShown := 0
	for c := range shown {
		shown[c] = max(shown[c], 1)
		totalShown += shown[c]
	}
	sum.CoresPerRow = max(1, (totalShown+opts.MaxRows-1)/opts.MaxRows)
	laneHeight := float64(rowPx) / float64(sum.CoresPerRow)
	bandTop := make([]float64, len(clusters))
	rowsOf := make([]int, len(clusters))
	y := float64(topPx)
	for c := range clusters {
		bandTop[c] = y
		rowsOf[c] = (shown[c] + sum.CoresPerRow - 1) / sum.CoresPerRow
		sum.Rows += rowsOf[c]
		y += float64(rowsOf[c]*rowPx) + clusterGapPx
	}
	plotBottom := y - clusterGapPx

	var bars []bar
	for g := range in.Tasks() {
		if s.TaskFinish[g] <= sum.FromTick || s.TaskStart[g] >= sum.ToTick {
			continue // outside the window
		}
		start, finish := clip(s.TaskStart[g], s.TaskFinish[g])
		sum.InWindow++
		width := float64(finish-start) * pxPerTick
		focused := opts.Focus && in.TaskJob(g) == opts.FocusJob
		if width < opts.MinBarPx && !focused {
			sum.TooShort++
			continue
		}
		if focused {
			width = max(width, focusMinPx) // the job in focus is always seen
		}
		p := places[g]
		// Runs of cores less than a pixel apart look as one: they are
		// drawn as one piece.
		var pieces []piece
		for _, run := range p.runs {
			next := piece{y: bandTop[p.cluster] + float64(run.First)*laneHeight, height: max(1, float64(run.Count)*laneHeight)}
			if n := len(pieces); n > 0 && next.y-(pieces[n-1].y+pieces[n-1].height) < 1 {
				pieces[n-1].height = next.y + next.height - pieces[n-1].y
				continue
			}
			pieces = append(pieces, next)
		}
		if focused {
			// At least a few pixels high too, so that a one-core task
			// in a row of many cores shows.
			for k := range pieces {
				if grow := focusMinPx*2 - pieces[k].height; grow > 0 {
					pieces[k].y, pieces[k].height = pieces[k].y-grow/2, focusMinPx*2
				}
			}
		}
		job := in.TaskJob(g)
		bars = append(bars, bar{
			task: g, x: xOf(start), width: width, pieces: pieces, centreY: pieces[0].y + pieces[0].height/2,
			jobColour: opts.colourOf(job), widthTicks: finish - start,
			title: fmt.Sprintf("job %s, task %s: %d %s on %s, %s", in.JobIDs[job], in.TaskIDs[g],
				in.Cores(g), plural(in.Cores(g), "core", "cores"), clusters[p.cluster].Name, opts.span(s.TaskStart[g], s.TaskFinish[g], "-")),
		})
		if len(p.runs) > 1 {
			sum.Scattered++
		}
	}
	if len(bars) > opts.MaxBars {
		// Keep the job in focus, then the longest bars; ties by task
		// index, so the choice is deterministic.
		focus := func(b bar) int {
			if opts.Focus && in.TaskJob(b.task) == opts.FocusJob {
				return 0
			}
			return 1
		}
		slices.SortFunc(bars, func(a, b bar) int {
			return cmp.Or(cmp.Compare(focus(a), focus(b)), cmp.Compare(b.widthTicks, a.widthTicks), cmp.Compare(a.task, b.task))
		})
		sum.OverBudget = len(bars) - opts.MaxBars
		bars = bars[:opts.MaxBars]
		slices.SortFunc(bars, func(a, b bar) int { return cmp.Compare(a.task, b.task) })
	}
	sum.Bars = len(bars)
	if opts.Focus {
		// The job in focus is drawn last, over its neighbours.
		slices.SortStableFunc(bars, func(a, b bar) int {
			return cmp.Compare(boolRank(in.TaskJob(a.task) == opts.FocusJob), boolRank(in.TaskJob(b.task) == opts.FocusJob))
		})
	}

	// Network delays into drawn tasks: from the predecessor's finish to
	// the arrival of its data, on the waiting task's row.
	type delay struct{ x1, x2, y float64 }
	var delays []delay
	for _, b := range bars {
		for p := range in.Predecessors(b.task) {
			if s.TaskCluster[p] == s.TaskCluster[b.task] || in.Delay(p) == 0 {
				continue
			}
			from, to := clip(s.TaskFinish[p], s.TaskFinish[p]+in.Delay(p))
			if to <= from {
				continue
			}
			if float64(to-from)*pxPerTick < opts.MinBarPx {
				sum.DelaysElided++
				continue
			}
			delays = append(delays, delay{xOf(from), xOf(to), b.centreY})
		}
	}
	sum.Delays = len(delays)

	jobs := map[int]bool{}
	for _, b := range bars {
		jobs[in.TaskJob(b.task)] = true
	}
	legend := len(jobs) <= legendJobs && !opts.Focus
	captionLines := caption(sum, opts)
	height := plotBottom + axisPx + float64(len(captionLines)*(fontPx+4)) + 8
	if legend && len(jobs) > 0 {
		height += fontPx + 12
	}
	width := float64(leftPx + opts.PlotWidthPx + rightPx)

	out := bufio.NewWriter(w)
	pr := func(format string, args ...any) { fmt.Fprintf(out, format, args...) }
	pr(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%d">`+"\n",
		width, height, width, height, fontPx)
	// A thin white outline separates neighbouring bars of whole rows; on
	// lanes a few pixels high it would wash the colours out.
	outline := "stroke:#fff;stroke-width:0.3"
	if laneHeight < 3 {
		outline = "stroke:none"
	}
	pr("<style>.task{%s}.delay{stroke:#000;stroke-width:1.5;stroke-dasharray:3,2}.grid{stroke:#ddd}.sep{stroke:#888}</style>\n", outline)
	pr(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	pr(`<text x="%d" y="20" font-size="%d" font-weight="bold">%s</text>`+"\n", 8, fontPx+3, html.EscapeString(opts.Title))
	rowMeaning := "core"
	if sum.CoresPerRow > 1 {
		rowMeaning = strconv.Itoa(sum.CoresPerRow) + " consecutive cores"
	}
	colouring := "coloured by job"
	if opts.Focus {
		colouring = fmt.Sprintf("job %s (the worst) in red, every other job in grey", in.JobIDs[opts.FocusJob])
	}
	pr(`<text x="%d" y="40">one lane per cluster, one row per %s; one bar per task, %s (hover for details); dashed: network delay</text>`+"\n",
		8, rowMeaning, colouring)

	// Rows and their labels.
	for c, cluster := range clusters {
		rows := rowsOf[c]
		for r := range rows {
			top := bandTop[c] + float64(r*rowPx)
			first, last := r*sum.CoresPerRow, min(cluster.Cores, (r+1)*sum.CoresPerRow)-1
			label := fmt.Sprintf("core %d", first)
			if last > first {
				label = fmt.Sprintf("cores %d-%d", first, last)
			}
			switch {
			case r == 0:
				label = cluster.Name + " " + label
			case r == rows-1 && last < cluster.Cores-1:
				label = fmt.Sprintf("%s (of %d)", label, cluster.Cores)
			}
			pr(`<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", leftPx-6, top+rowPx/2+fontPx/2-1, html.EscapeString(label))
			pr(`<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, leftPx+opts.PlotWidthPx, top, top)
		}
		bottom := bandTop[c] + float64(rows*rowPx)
		pr(`<line class="sep" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, leftPx+opts.PlotWidthPx, bottom, bottom)
	}

	for _, b := range bars {
		title := html.EscapeString(b.title)
		if len(b.pieces) == 1 {
			pr(`<rect class="task" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				b.x, b.pieces[0].y, b.width, b.pieces[0].height, b.jobColour, title)
			continue
		}
		// One task on scattered cores: one path, a rectangle per run of
		// cores (a path keeps a chart of thousands of such tasks small).
		pr(`<path class="task" fill="%s" d="`, b.jobColour)
		for _, p := range b.pieces {
			pr(`M%.1f %.2fh%.1fv%.2fh%.1fz`, b.x, p.y, b.width, p.height, -b.width)
		}
		pr(`"><title>%s</title></path>`+"\n", title)
	}
	for _, d := range delays {
		pr(`<line class="delay" x1="%.2f" x2="%.2f" y1="%.2f" y2="%.2f"/>`+"\n", d.x1, d.x2, d.y, d.y)
	}

	// The life of the job in focus: its arrival and its finish.
	if opts.Focus {
		for _, mark := range []struct {
			tick int64
			what string
		}{{s.JobArrival[opts.FocusJob], "arrives"}, {s.JobFinish[opts.FocusJob], "finishes"}} {
			if mark.tick < sum.FromTick || mark.tick > sum.ToTick {
				continue
			}
			x := xOf(mark.tick)
			pr(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#d55e00" stroke-width="1.5" stroke-dasharray="5,3"/>`+"\n", x, x, topPx-2, plotBottom)
			anchor := "start"
			if x > leftPx+float64(opts.PlotWidthPx)/2 {
				anchor = "end"
			}
			pr(`<text x="%.1f" y="%d" fill="#d55e00" text-anchor="%s">job %s %s</text>`+"\n", x, topPx-4, anchor, html.EscapeString(in.JobIDs[opts.FocusJob]), mark.what)
		}
	}

	// Time axis.
	axisY := plotBottom + 4
	pr(`<line class="sep" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, leftPx+opts.PlotWidthPx, axisY, axisY)
	for _, tick := range opts.axisTicks(sum.FromTick, sum.ToTick) {
		x := xOf(tick.at)
		pr(`<line class="sep" x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f"/>`+"\n", x, x, axisY, axisY+5)
		pr(`<text x="%.2f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, axisY+5+fontPx, tick.label)
	}
	axisName := "time (ticks)"
	if opts.TicksPerHour > 0 {
		axisName = "time (hours from the cell's start)"
	}
	pr(`<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", leftPx-6, axisY+5+fontPx, axisName)
	y = plotBottom + axisPx
	for _, line := range captionLines {
		y += fontPx + 4
		pr(`<text x="8" y="%.1f">%s</text>`+"\n", y, html.EscapeString(line))
	}
	if legend && len(jobs) > 0 {
		y += fontPx + 10
		x := 8.0
		ids := make([]int, 0, len(jobs))
		for j := range jobs {
			ids = append(ids, j)
		}
		slices.Sort(ids)
		for _, j := range ids {
			pr(`<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s"/>`+"\n", x, y-11, opts.colourOf(j))
			pr(`<text x="%.1f" y="%.1f">job %s</text>`+"\n", x+16, y, html.EscapeString(in.JobIDs[j]))
			x += 16 + float64(len(in.JobIDs[j])+5)*7
		}
	}
	pr("</svg>\n")
	if err := out.Flush(); err != nil {
		return Summary{}, fmt.Errorf("writing the schedule's chart: %w", err)
	}
	return sum, nil
}

// caption states what the chart shows and what it leaves out.
func caption(sum Summary, opts Options) []string {
	lines := []string{fmt.Sprintf("%s: %d of %d tasks run in this window; %d drawn; rows stop at the highest core used",
		opts.span(sum.FromTick, sum.ToTick, " to "), sum.InWindow, sum.Tasks, sum.Bars)}
	if sum.TooShort > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d %s shorter than %s ticks (%g px at this scale); narrow the window to see them",
			sum.TooShort, plural(sum.TooShort, "task", "tasks"), strconv.FormatFloat(sum.ShortestDrawnTicks, 'g', 3, 64), opts.MinBarPx))
	}
	if sum.OverBudget > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d more %s, the shortest, beyond the budget of %d bars",
			sum.OverBudget, plural(sum.OverBudget, "task", "tasks"), opts.MaxBars))
	}
	if sum.DelaysElided > 0 {
		lines = append(lines, fmt.Sprintf("elided: %d network %s shorter than %s ticks",
			sum.DelaysElided, plural(sum.DelaysElided, "delay", "delays"), strconv.FormatFloat(sum.ShortestDrawnTicks, 'g', 3, 64)))
	}
	if sum.Scattered > 0 {
		lines = append(lines, fmt.Sprintf("%d %s started on scattered free cores: drawn in pieces, one per run of consecutive cores",
			sum.Scattered, plural(sum.Scattered, "task", "tasks")))
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
