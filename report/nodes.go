package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/analysis/rigid"
	"github.com/sweep-sched/sweep/stats"
)

// The rigid study's part for cells on platforms of nodes (issue 34):
// each policy's utilisation of cores, memory and GPUs, and its jobs'
// waits and bounded slowdowns per partition, as tables (text and page)
// and figures.

// textTable is a table the text and the page both show.
type textTable struct {
	Title  string
	Header []string
	Rows   [][]string
}

// nodeTables returns the node analysis's tables: utilisation per policy
// and resource, then waits, slowdowns and utilisation per policy and
// partition. A run of several loads has a load column.
func nodeTables(r *analysis.Result, u *rigid.NodeUse) []textTable {
	loads := len(r.Loads) > 1
	util := textTable{Title: "Utilisation per resource (the measured jobs' resource-seconds over the machine's from their first submit to their last end; mean over the cells ± half-width of the 95% confidence interval)"}
	if loads {
		util.Header = append(util.Header, "load")
	}
	util.Header = append(util.Header, "policy")
	for _, res := range u.Resources {
		util.Header = append(util.Header, res.Name)
	}
	for _, load := range r.Loads {
		for _, policy := range r.Policies {
			var row []string
			if loads {
				row = append(row, FormatLoad(load))
			}
			row = append(row, policy)
			found := false
			for _, res := range u.Resources {
				cell := "-"
				for _, m := range u.Utilisation {
					if m.Load == load && m.Policy == policy && m.Resource == res.Name {
						cell, found = formatMeanCI(m.MeanInterval), true
					}
				}
				row = append(row, cell)
			}
			if found {
				util.Rows = append(util.Rows, row)
			}
		}
	}
	tables := []textTable{util}
	if len(u.ByPartition) == 0 {
		return tables
	}
	parts := textTable{Title: "Per partition (rigid_partitions): the measured jobs that ran there, their mean wait and mean bounded slowdown (tau = 10 s; mean over the cells ± half-width of the 95% confidence interval), the longest wait, and the partition's utilisation per resource (mean over the cells)"}
	if loads {
		parts.Header = append(parts.Header, "load")
	}
	parts.Header = append(parts.Header, "policy", "partition", "cells", "jobs", "mean wait (s)", "longest wait (s)", "mean bounded slowdown", "cores", "memory", "GPUs")
	for _, row := range u.ByPartition {
		var cells []string
		if loads {
			cells = append(cells, FormatLoad(row.Load))
		}
		cells = append(cells, row.Policy, row.Partition, strconv.Itoa(row.Cells), strconv.FormatInt(row.Jobs, 10),
			formatMeanCI(row.WaitMeanSeconds), significant(row.WaitMaxSeconds), formatMeanCI(row.BSLDMean),
			formatShare(row.UtilCores), formatShare(row.UtilMemory), formatShare(row.UtilGPUs))
		parts.Rows = append(parts.Rows, cells)
	}
	return append(tables, parts)
}

// formatMeanCI is a mean ± the half-width of its interval, "-" when
// there is none.
func formatMeanCI(m stats.MeanInterval) string {
	if math.IsNaN(m.Mean) {
		return "-"
	}
	return FormatMean(m.Mean, (m.High-m.Low)/2)
}

// formatShare is a utilisation, "-" for a resource the partition lacks.
func formatShare(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return significant(x)
}

// printNodes prints the node tables.
func printNodes(p *printer, r *analysis.Result, u *rigid.NodeUse) {
	if u == nil {
		return
	}
	for _, t := range nodeTables(r, u) {
		p.line("")
		p.line("%s", t.Title)
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(t.Header, "\t")+"\t")
		for _, row := range t.Rows {
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		tw.Flush()
		p.lines(b.String())
	}
}

// addNodeFigures draws, per load, each policy's utilisation per resource
// and its jobs' mean bounded slowdown and mean wait per partition.
func addNodeFigures(p *page, r *analysis.Result, u *rigid.NodeUse, files *figureFiles) error {
	var resources []string
	for _, res := range u.Resources {
		resources = append(resources, res.Name)
	}
	for _, load := range r.Loads {
		suffix, at := "", ""
		if len(r.Loads) > 1 {
			suffix, at = "-load-"+FormatLoad(load), " at load "+FormatLoad(load)
		}
		util := func(policy, resource string) (stats.MeanInterval, bool) {
			for _, m := range u.Utilisation {
				if m.Load == load && m.Policy == policy && m.Resource == resource {
					return m.MeanInterval, true
				}
			}
			return stats.MeanInterval{}, false
		}
		byPartition := func(value func(rigid.PartitionRow) stats.MeanInterval) func(policy, partition string) (stats.MeanInterval, bool) {
			return func(policy, partition string) (stats.MeanInterval, bool) {
				for _, row := range u.ByPartition {
					if row.Load == load && row.Policy == policy && row.Partition == partition {
						return value(row), true
					}
				}
				return stats.MeanInterval{}, false
			}
		}
		figures := []struct {
			title, name, x, y string
			categories        []string
			mean              func(policy, category string) (stats.MeanInterval, bool)
		}{
			{"utilisation of each resource by policy" + at + " (higher is busier), mean over the cells with 95% confidence intervals",
				"nodes-utilisation" + suffix, "resource", "utilisation (fraction of the machine's)", resources, util},
			{"mean bounded slowdown per partition by policy" + at + " (tau = 10 s, lower is better), with 95% confidence intervals",
				"nodes-bsld-by-partition" + suffix, "partition", "mean bounded slowdown (ratio)", u.Partitions,
				byPartition(func(row rigid.PartitionRow) stats.MeanInterval { return row.BSLDMean })},
			{"mean wait per partition by policy" + at + " (lower is better), with 95% confidence intervals",
				"nodes-wait-by-partition" + suffix, "partition", "mean wait (hours)", u.Partitions,
				byPartition(func(row rigid.PartitionRow) stats.MeanInterval { return inHours(row.WaitMeanSeconds) })},
		}
		for _, f := range figures {
			if len(f.categories) == 0 {
				continue
			}
			ch, err := categoryChart(r.Policies, f.categories, f.mean, f.x, f.y, f.name)
			if err != nil {
				return fmt.Errorf("%s: %w", f.title, err)
			}
			svg, err := files.add(ch)
			if err != nil {
				return fmt.Errorf("%s: %w", f.title, err)
			}
			p.NodeFigures = append(p.NodeFigures, figure{Title: f.title, SVG: svg, File: ch.name})
		}
	}
	return nil
}

// inHours converts a mean in seconds to hours.
func inHours(m stats.MeanInterval) stats.MeanInterval {
	m.Mean, m.Low, m.High = m.Mean/3600, m.Low/3600, m.High/3600
	return m
}

// categoryChart draws, for each category along x, a point per policy (in
// its style, spread a little so that equal values stay visible) at the
// mean that mean returns, with its 95% confidence interval as a bar; a
// category's points are not joined across categories.
func categoryChart(policies, categories []string, mean func(policy, category string) (stats.MeanInterval, bool), xLabel, yLabel, name string) (chart, error) {
	p := newPlot()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	legend := plot.NewLegend()
	spread := 0.6 / float64(max(1, len(policies)))
	for i, policy := range policies {
		var pts errorPoints
		for k, category := range categories {
			m, ok := mean(policy, category)
			if !ok || math.IsNaN(m.Mean) {
				continue
			}
			low, high := m.Mean, m.Mean
			if !math.IsNaN(m.Low) && !math.IsNaN(m.High) {
				low, high = m.Low, m.High
			}
			x := float64(k) + (float64(i)-float64(len(policies)-1)/2)*spread
			pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: m.Mean})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{m.Mean - low, high - m.Mean})
		}
		if len(pts.XYs) == 0 {
			continue
		}
		style := styleOf(policy)
		points, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return chart{}, err
		}
		points.Color, points.Shape, points.Radius = style.Color, style.Shape, vg.Points(4)
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return chart{}, err
		}
		bars.Color, bars.LineStyle.Width = style.Color, vg.Points(1.5)
		p.Add(bars, points)
		legend.Add(policy, points)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil // lines through the categories would cross the points
	p.Add(grid)
	p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	ticks := make(plot.ConstantTicks, len(categories))
	for k, c := range categories {
		ticks[k] = plot.Tick{Value: float64(k), Label: c}
	}
	p.X.Tick.Marker = ticks
	p.Y.Min = 0
	return chart{name: name, plot: p, legend: &legend}, nil
}
