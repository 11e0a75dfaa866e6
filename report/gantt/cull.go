package gantt

import (
	"cmp"
	"fmt"
	"slices"
)

// bar is a task or job to draw: one piece per run of consecutive
// resources.
type bar struct {
	index      int // in the input's Bars
	job        int
	x, width   float64
	pieces     []piece
	centreY    float64
	jobColour  string
	widthTicks int64
}

// piece is the vertical extent of a run of resources.
type piece struct{ y, height float64 }

// delay is a wait drawn as a dashed line before a bar, on its row.
type delay struct{ x1, x2, y float64 }

// cull keeps the bars a reader can see: those in the time window at least
// MinBarPx wide (the job in focus always), at most MaxBars of them, and
// the waits before them at least MinBarPx wide; it counts what it leaves
// out in the summary.
func (c *chart) cull() {
	for b := range c.g.Bars {
		if !c.inWindow(&c.g.Bars[b]) {
			continue
		}
		c.sum.InWindow++
		if drawn, ok := c.barOf(b); ok {
			c.bars = append(c.bars, drawn)
		}
	}
	c.keepBudget()
	c.sum.Bars = len(c.bars)
	if c.opts.Focus {
		// The job in focus is drawn last, over its neighbours.
		slices.SortStableFunc(c.bars, func(a, b bar) int {
			return cmp.Compare(boolRank(a.job == c.opts.FocusJob), boolRank(b.job == c.opts.FocusJob))
		})
	}
	c.keepDelays()
}

// focused reports whether job is the job in focus.
func (c *chart) focused(job int) bool { return c.opts.Focus && job == c.opts.FocusJob }

// barOf returns the bar of input bar b, which is in the window, or false
// when it is too short to see.
func (c *chart) barOf(b int) (bar, bool) {
	in := &c.g.Bars[b]
	start, finish := c.clip(in.StartTick, in.FinishTick)
	width := float64(finish-start) * c.pxPerTick
	focused := c.focused(in.Job)
	if width < c.opts.MinBarPx && !focused {
		c.sum.TooShort++
		return bar{}, false
	}
	if focused {
		width = max(width, focusMinPx) // the job in focus is always seen
	}
	p := c.places[b]
	pieces := c.piecesOf(p, focused)
	if len(p.runs) > 1 {
		c.sum.Scattered++
	}
	return bar{
		index: b, job: in.Job, x: c.xOf(start), width: width, pieces: pieces, centreY: pieces[0].y + pieces[0].height/2,
		jobColour: c.opts.colourOf(in.Job), widthTicks: finish - start,
	}, true
}

// titleOf returns the tooltip of a drawn bar: its job, task, resources
// and span. It is formatted when the bar is written, so that bars left
// out over budget cost none.
func (c *chart) titleOf(b bar) string {
	in := &c.g.Bars[b.index]
	title := fmt.Sprintf("job %s", c.g.Jobs[in.Job].ID)
	if in.Task != "" {
		title += ", task " + in.Task
	}
	p := c.places[b.index]
	group := c.g.Groups[p.group]
	where := group.Name
	if group.NodeResources > 0 {
		where += fmt.Sprintf(" node %d", group.FirstNode+p.runs[0].First/group.NodeResources)
	}
	return title + fmt.Sprintf(": %d %s on %s, %s", in.Resources, plural(in.Resources, c.words.Resource),
		where, c.opts.span(in.StartTick, in.FinishTick, "-"))
}

// piecesOf returns the vertical pieces of placement p: runs of resources
// less than a pixel apart look as one and are drawn as one piece; the job
// in focus is at least a few pixels high.
func (c *chart) piecesOf(p placement, focused bool) []piece {
	var pieces []piece
	for _, run := range p.runs {
		lane := c.laneHeight[p.group]
		next := piece{y: c.bandTop[p.group] + float64(run.First)*lane, height: max(1, float64(run.Count)*lane)}
		if n := len(pieces); n > 0 && next.y-(pieces[n-1].y+pieces[n-1].height) < 1 {
			pieces[n-1].height = next.y + next.height - pieces[n-1].y
			continue
		}
		pieces = append(pieces, next)
	}
	if focused {
		// So that a one-core task in a row of many cores shows.
		for k := range pieces {
			if grow := focusMinPx*2 - pieces[k].height; grow > 0 {
				pieces[k].y, pieces[k].height = pieces[k].y-grow/2, focusMinPx*2
			}
		}
	}
	return pieces
}

// keepBudget keeps at most MaxBars bars: the job in focus, then the
// longest; ties by index, so the choice is deterministic.
func (c *chart) keepBudget() {
	if len(c.bars) <= c.opts.MaxBars {
		return
	}
	focus := func(b bar) int { return 1 - boolRank(c.focused(b.job)) }
	slices.SortFunc(c.bars, func(a, b bar) int {
		return cmp.Or(cmp.Compare(focus(a), focus(b)), cmp.Compare(b.widthTicks, a.widthTicks), cmp.Compare(a.index, b.index))
	})
	c.sum.OverBudget = len(c.bars) - c.opts.MaxBars
	c.bars = c.bars[:c.opts.MaxBars]
	slices.SortFunc(c.bars, func(a, b bar) int { return cmp.Compare(a.index, b.index) })
}

// keepDelays keeps the waits before drawn bars (network delays: from a
// predecessor's finish to the arrival of its data) that are in the window
// and wide enough to see.
func (c *chart) keepDelays() {
	for _, b := range c.bars {
		for _, w := range c.g.Bars[b.index].Waits {
			from, to := c.clip(w.FromTick, w.ToTick)
			if to <= from {
				continue
			}
			if float64(to-from)*c.pxPerTick < c.opts.MinBarPx {
				c.sum.DelaysElided++
				continue
			}
			c.delays = append(c.delays, delay{c.xOf(from), c.xOf(to), b.centreY})
		}
	}
	c.sum.Delays = len(c.delays)
}
