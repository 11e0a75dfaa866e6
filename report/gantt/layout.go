package gantt

import (
	"cmp"
	"fmt"

	"github.com/sweep-sched/sweep/model"
)

// chart is one drawing: its input and options, the layout and the bars
// and delays culling kept, and the summary of what it shows.
type chart struct {
	g      model.Gantt
	opts   Options
	words  model.GanttWords
	places []placement
	sum    Summary

	pxPerTick float64
	// laneHeight is the height of one resource of each group in pixels,
	// perRow the resources of each group a row stands for; bandTop is
	// the top of each group's band, rowsOf its number of rows, and
	// plotBottom the bottom of the last band.
	laneHeight []float64
	perRow     []int
	bandTop    []float64
	rowsOf     []int
	plotBottom float64

	bars   []bar
	delays []delay
}

// newChart places the bars of g and sets the time window: opts' window,
// up to the schedule's last finish when opts.ToTick is 0.
func newChart(g model.Gantt, opts Options) (*chart, error) {
	opts = opts.withDefaults()
	places, err := placeBars(g)
	if err != nil {
		return nil, fmt.Errorf("drawing the schedule: %w", err)
	}
	sum := Summary{Tasks: len(g.Bars), FromTick: opts.FromTick, ToTick: opts.ToTick}
	if sum.ToTick == 0 {
		for _, b := range g.Bars {
			sum.ToTick = max(sum.ToTick, b.FinishTick)
		}
	}
	if sum.ToTick <= sum.FromTick {
		return nil, fmt.Errorf("drawing the schedule: time window [%d, %d) is empty; want from < to", sum.FromTick, sum.ToTick)
	}
	c := &chart{g: g, opts: opts, words: wordsOf(g.Words), places: places, sum: sum}
	c.pxPerTick = float64(opts.PlotWidthPx) / float64(sum.ToTick-sum.FromTick)
	c.sum.ShortestDrawnTicks = opts.MinBarPx / c.pxPerTick
	return c, nil
}

// wordsOf fills in the words a model left empty.
func wordsOf(w model.GanttWords) model.GanttWords {
	w.Bar = cmp.Or(w.Bar, "bar")
	w.Resource = cmp.Or(w.Resource, "resource")
	w.Group = cmp.Or(w.Group, "cluster")
	w.Ratio = cmp.Or(w.Ratio, "SLR")
	return w
}

// xOf is the horizontal position of tick.
func (c *chart) xOf(tick int64) float64 {
	return leftPx + float64(tick-c.sum.FromTick)*c.pxPerTick
}

// clip cuts the span from-to to the time window.
func (c *chart) clip(from, to int64) (int64, int64) {
	return max(from, c.sum.FromTick), min(to, c.sum.ToTick)
}

// inWindow reports whether bar b runs at some tick of the time window.
func (c *chart) inWindow(b *model.GanttBar) bool {
	return b.FinishTick > c.sum.FromTick && b.StartTick < c.sum.ToTick
}

// layOut sets the rows. Rows cover the resources used in the window
// (resources are taken lowest first, so the unused ones are the highest),
// every row standing for the same number of resources (or, on partitions
// of nodes, of nodes) so that bar heights compare across groups.
func (c *chart) layOut() {
	groups := c.g.Groups
	shown := make([]int, len(groups))
	for b := range c.g.Bars {
		if c.inWindow(&c.g.Bars[b]) {
			p := c.places[b]
			shown[p.group] = max(shown[p.group], p.lastCore()+1)
		}
	}
	// unit is the resources of a group's smallest row: a node's, or one.
	unit := make([]int, len(groups))
	units := 0
	for k, g := range groups {
		unit[k] = max(g.NodeResources, 1)
		shown[k] = max(shown[k], 1)
		units += (shown[k] + unit[k] - 1) / unit[k]
	}
	unitsPerRow := max(1, (units+c.opts.MaxRows-1)/c.opts.MaxRows)
	c.laneHeight = make([]float64, len(groups))
	c.perRow = make([]int, len(groups))
	c.bandTop = make([]float64, len(groups))
	c.rowsOf = make([]int, len(groups))
	y := float64(topPx)
	for k, g := range groups {
		if g.NodeResources > 0 {
			c.sum.NodesPerRow = unitsPerRow
		}
		c.perRow[k] = unitsPerRow * unit[k]
		c.sum.CoresPerRow = max(c.sum.CoresPerRow, c.perRow[k])
		c.laneHeight[k] = float64(rowPx) / float64(c.perRow[k])
		c.bandTop[k] = y
		c.rowsOf[k] = (shown[k] + c.perRow[k] - 1) / c.perRow[k]
		c.sum.Rows += c.rowsOf[k]
		y += float64(c.rowsOf[k]*rowPx) + clusterGapPx
	}
	c.plotBottom = y - clusterGapPx
}
