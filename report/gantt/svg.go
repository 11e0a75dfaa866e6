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

	"github.com/sweep-sched/sweep/engine"
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
func Write(w io.Writer, s *engine.Schedule, opts Options) (Summary, error) {
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
		if width < opts.MinBarPx {
			sum.TooShort++
			continue
		}
		p := places[g]
		pieces := make([]piece, len(p.runs))
		for k, run := range p.runs {
			pieces[k] = piece{y: bandTop[p.cluster] + float64(run.First)*laneHeight, height: max(1, float64(run.Count)*laneHeight)}
		}
		job := in.TaskJob(g)
		bars = append(bars, bar{
			task: g, x: xOf(start), width: width, pieces: pieces, centreY: pieces[0].y + pieces[0].height/2,
			jobColour: jobColour(job), widthTicks: finish - start,
			title: fmt.Sprintf("job %s, task %s: %d %s on %s, ticks %d-%d", in.JobIDs[job], in.TaskIDs[g],
				in.Cores(g), plural(in.Cores(g), "core", "cores"), clusters[p.cluster].Name, s.TaskStart[g], s.TaskFinish[g]),
		})
		if len(p.runs) > 1 {
			sum.Scattered++
		}
	}
	if len(bars) > opts.MaxBars {
		// Keep the longest bars; ties by task index, so the choice is
		// deterministic.
		slices.SortFunc(bars, func(a, b bar) int {
			return cmp.Or(cmp.Compare(b.widthTicks, a.widthTicks), cmp.Compare(a.task, b.task))
		})
		sum.OverBudget = len(bars) - opts.MaxBars
		bars = bars[:opts.MaxBars]
		slices.SortFunc(bars, func(a, b bar) int { return cmp.Compare(a.task, b.task) })
	}
	sum.Bars = len(bars)

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
	legend := len(jobs) <= legendJobs
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
	pr(`<text x="%d" y="40">one row per %s of a cluster; one bar per task, coloured by job (hover for details); dashed: network delay</text>`+"\n",
		8, rowMeaning)

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
			pr(`<rect class="task" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s</title></rect>`+"\n",
				b.x, b.pieces[0].y, b.width, b.pieces[0].height, b.jobColour, title)
			continue
		}
		// One task on scattered cores: one element, one piece per run.
		pr(`<g class="task" fill="%s"><title>%s</title>`, b.jobColour, title)
		for _, p := range b.pieces {
			pr(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>`, b.x, p.y, b.width, p.height)
		}
		pr("</g>\n")
	}
	for _, d := range delays {
		pr(`<line class="delay" x1="%.2f" x2="%.2f" y1="%.2f" y2="%.2f"/>`+"\n", d.x1, d.x2, d.y, d.y)
	}

	// Time axis.
	axisY := plotBottom + 4
	pr(`<line class="sep" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`+"\n", leftPx, leftPx+opts.PlotWidthPx, axisY, axisY)
	for _, tick := range axisTicks(sum.FromTick, sum.ToTick) {
		x := xOf(tick)
		pr(`<line class="sep" x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f"/>`+"\n", x, x, axisY, axisY+5)
		pr(`<text x="%.2f" y="%.1f" text-anchor="middle">%d</text>`+"\n", x, axisY+5+fontPx, tick)
	}
	pr(`<text x="%d" y="%.1f" text-anchor="end">time (ticks)</text>`+"\n", leftPx-6, axisY+5+fontPx)
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
			pr(`<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s"/>`+"\n", x, y-11, jobColour(j))
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
	lines := []string{fmt.Sprintf("ticks %d to %d: %d of %d tasks run in this window; %d drawn; rows stop at the highest core used",
		sum.FromTick, sum.ToTick, sum.InWindow, sum.Tasks, sum.Bars)}
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

// axisTicks returns about ten round tick values (1, 2 or 5 times a power
// of ten apart) within [from, to].
func axisTicks(from, to int64) []int64 {
	span := float64(to - from)
	step := int64(0)
	for _, m := range []int64{1, 2, 5} {
		for p := int64(1); ; p *= 10 {
			if s := m * p; float64(s)*10 >= span {
				if step == 0 || s < step {
					step = s
				}
				break
			}
		}
	}
	var ticks []int64
	for t := (from + step - 1) / step * step; t <= to; t += step {
		ticks = append(ticks, t)
	}
	return ticks
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
