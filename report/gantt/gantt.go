// Package gantt draws one simulated schedule, given as a model-neutral
// model.Gantt, as an SVG Gantt chart: a lane per cluster of rows of
// consecutive resources (cores, processors), one bar per task or job in
// its job's colour (or, around one job in focus, that job in a strong
// colour and the others in greys), waits such as network delays as dashed
// lines before the bars they hold back, and a time axis in ticks or in
// hours from the cell's start. Large schedules stay readable: resources
// are grouped into at most Options.MaxRows rows, and bars too short to see
// at the chosen scale, or beyond a bar budget, are left out and counted in
// the chart's caption.
//
// Write reads as three steps: the layout (layout.go: the time window and
// the rows), the culling (cull.go: which bars and waits a reader can see)
// and the SVG writing (svg.go).
package gantt

import (
	"cmp"
	"fmt"
	"slices"

	engineplacement "github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/model"
)

// Options shape the chart; zero fields take the defaults.
type Options struct {
	// Title is printed above the chart.
	Title string
	// PlotWidthPx is the width of the time axis in pixels (default 1200).
	PlotWidthPx int
	// MaxRows bounds the number of rows over all clusters (default 48).
	// Rows cover each cluster's resources up to the highest one used in
	// the time window, each row ceil(those resources / MaxRows)
	// consecutive ones.
	MaxRows int
	// MaxBars bounds the bars drawn (default 2000), keeping the longest,
	// so that a schedule of a million tasks gives a chart a reader can
	// take in and a file under 500 KB.
	MaxBars int
	// MinBarPx is the narrowest bar drawn, in pixels (default 0.5):
	// anything narrower is not visible and is elided.
	MinBarPx float64
	// FromTick and ToTick bound the time window drawn; ToTick 0 means the
	// schedule's last finish.
	FromTick, ToTick int64
	// TicksPerHour, when set, labels the time axis in hours from tick 0,
	// the cell's start (seed 004's tick is one second: 3600).
	TicksPerHour int64
	// Focus, when set, draws job FocusJob (an index of model.Gantt.Jobs)
	// in a strong colour and every other job in greys, so that its bars
	// stand out among thousands.
	Focus    bool
	FocusJob int
}

func (o Options) withDefaults() Options {
	if o.PlotWidthPx <= 0 {
		o.PlotWidthPx = 1200
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 48
	}
	if o.MaxBars <= 0 {
		o.MaxBars = 2000
	}
	if o.MinBarPx <= 0 {
		o.MinBarPx = 0.5
	}
	return o
}

// Summary says what a chart shows and what it left out.
type Summary struct {
	// Tasks is the number of bars of the input (tasks, or jobs when a
	// job is one bar); InWindow of them run at some tick of the time
	// window.
	Tasks, InWindow int
	// Bars is the number of bars drawn. Of the bars in the window not
	// drawn, TooShort were narrower than MinBarPx and OverBudget were
	// beyond MaxBars.
	Bars, TooShort, OverBudget int
	// ShortestDrawnTicks is the shortest time span, in ticks, that is
	// drawn: MinBarPx at the chart's scale.
	ShortestDrawnTicks float64
	// Scattered is the number of drawn bars whose resources were not
	// consecutive (the free ones were fragmented when they started); such
	// a bar is in pieces, one per run of consecutive resources.
	Scattered int
	// Delays is the number of waits (network delays) drawn;
	// DelaysElided were narrower than MinBarPx.
	Delays, DelaysElided int
	// CoresPerRow is the number of resources (cores, processors) each
	// row stands for, NodesPerRow the number of nodes on a chart of
	// partitions of nodes (0 otherwise); Rows is the number of rows.
	CoresPerRow, NodesPerRow, Rows int
	// FromTick and ToTick are the time window drawn.
	FromTick, ToTick int64
}

// WorstJob returns the job of g with the largest response over its time
// alone (SLR of a DAG job, slowdown of a rigid job; the first on a tie)
// and that ratio.
func WorstJob(g model.Gantt) (job int, slr float64) {
	for j, o := range g.Jobs {
		if o.AloneTicks <= 0 {
			continue
		}
		if v := float64(o.FinishTick-o.ArrivalTick) / float64(o.AloneTicks); v > slr {
			job, slr = j, v
		}
	}
	return job, slr
}

// RatioName names the ratio WorstJob returns for g: "SLR", or what the
// model calls it.
func RatioName(g model.Gantt) string { return wordsOf(g.Words).Ratio }

// JobWindow returns a time window around job's life in g, from its
// arrival to its finish, widened on each side by a fifth of that life
// (and never before tick 0).
func JobWindow(g model.Gantt, job int) (from, to int64) {
	arrival, finish := g.Jobs[job].ArrivalTick, g.Jobs[job].FinishTick
	margin := max(1, (finish-arrival)/5)
	return max(0, arrival-margin), finish + margin
}

// placement is where a bar sits in the chart: its group and its
// resources there, as runs of consecutive resources in ascending order.
type placement struct {
	group int
	runs  []coreRun
}

// coreRun is Count consecutive resources from First.
type coreRun struct{ First, Count int }

// lastCore returns the highest resource of the placement.
func (p placement) lastCore() int {
	last := p.runs[len(p.runs)-1]
	return last.First + last.Count - 1
}

// placeBars assigns every bar to resources of its group: the ones it
// names, or, when the simulator only counted free resources, the chart
// picks them at each bar's start (bars in order of start, then index) by
// engine/placement.Fit: the narrowest block of consecutive resources free
// at that tick that is wide enough (best fit, the lowest on a tie, which
// keeps wide blocks for wide bars), or the lowest free ones when no block
// is wide enough; `sweep export` names them by the same rule. A bar
// frees its resources at its finish, before any bar starting at that tick
// takes them, as in the simulators.
func placeBars(g model.Gantt) ([]placement, error) {
	byGroup := make([][]int, len(g.Groups))
	for b, bar := range g.Bars {
		if bar.Group < 0 || bar.Group >= len(g.Groups) {
			return nil, fmt.Errorf("%s: cluster %d is not one of the platform's %d", barName(g, b), bar.Group, len(g.Groups))
		}
		byGroup[bar.Group] = append(byGroup[bar.Group], b)
	}
	places := make([]placement, len(g.Bars))
	for c, bars := range byGroup {
		slices.SortFunc(bars, func(a, b int) int {
			return cmp.Or(cmp.Compare(g.Bars[a].StartTick, g.Bars[b].StartTick), cmp.Compare(a, b))
		})
		freeAt := make([]int64, g.Groups[c].Resources)
		for _, b := range bars {
			bar := &g.Bars[b]
			var runs []coreRun
			var err error
			if bar.ResourceIDs != nil {
				runs, err = takeNamed(freeAt, bar.StartTick, bar.FinishTick, bar.ResourceIDs, bar.Resources)
			} else {
				runs, err = takeCores(freeAt, bar.StartTick, bar.FinishTick, bar.Resources)
			}
			if err != nil {
				return nil, fmt.Errorf("%s on cluster %s at tick %d: %w", barName(g, b), g.Groups[c].Name, bar.StartTick, err)
			}
			places[b] = placement{group: c, runs: runs}
		}
	}
	return places, nil
}

// barName names bar b in messages: "task T of job J", or "job J".
func barName(g model.Gantt, b int) string {
	bar := &g.Bars[b]
	job := "job " + g.Jobs[bar.Job].ID
	if bar.Task == "" {
		return job
	}
	return "task " + bar.Task + " of " + job
}

// takeNamed marks the resources ids, which must be need distinct ones
// free at tick start, as busy until finish and returns them as runs.
func takeNamed(freeAt []int64, start, finish int64, ids []int, need int) ([]coreRun, error) {
	if len(ids) != need {
		return nil, fmt.Errorf("names %d resources but holds %d", len(ids), need)
	}
	var runs []coreRun
	for k, id := range ids {
		switch {
		case id < 0 || id >= len(freeAt):
			return nil, fmt.Errorf("resource %d is not one of the %d (want 0..%d)", id, len(freeAt), len(freeAt)-1)
		case k > 0 && id <= ids[k-1]:
			return nil, fmt.Errorf("resources not strictly ascending at %d (after %d)", id, ids[k-1])
		case freeAt[id] > start:
			return nil, fmt.Errorf("resource %d is busy until tick %d; the schedule is not feasible", id, freeAt[id])
		}
		freeAt[id] = finish
		if n := len(runs); n > 0 && runs[n-1].First+runs[n-1].Count == id {
			runs[n-1].Count++
		} else {
			runs = append(runs, coreRun{First: id, Count: 1})
		}
	}
	return runs, nil
}

// takeCores marks need cores free at tick start as busy until finish and
// returns them as runs, picked by engine/placement.Fit (the narrowest run
// of at least need consecutive free cores, the lowest on a tie, else the
// lowest free cores), the rule the exports share.
func takeCores(freeAt []int64, start, finish int64, need int) ([]coreRun, error) {
	ids := engineplacement.Fit(freeAt, start, finish, need)
	if ids == nil {
		free := 0
		for _, at := range freeAt {
			if at <= start {
				free++
			}
		}
		return nil, fmt.Errorf("needs %d cores but %d of %d are free; the schedule is not feasible", need, free, len(freeAt))
	}
	var runs []coreRun
	for _, id := range ids {
		if n := len(runs); n > 0 && runs[n-1].First+runs[n-1].Count == id {
			runs[n-1].Count++
		} else {
			runs = append(runs, coreRun{First: id, Count: 1})
		}
	}
	return runs, nil
}
