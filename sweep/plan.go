package sweep

import (
	"fmt"
	"io"
	"strings"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// A Plan is what a run of a manifest would do.
type Plan struct {
	Out      string
	Total    int               // cells in the manifest
	Axes     []Axis            // cells per axis value
	InShard  int               // cells in the shard
	Done     int               // of those, finished ok
	Failed   int               // of those, recorded failed
	ToRun    []Cell            // what a run launches
	Stale    int               // cells in the directory that this manifest does not have
	Problems []parquet.Problem // unreadable part files
	Traces   []TraceReport     // lines the trace reader dropped or repaired
}

// An Axis counts the manifest's cells per value of one axis.
type Axis struct {
	Name   string
	Values []string
	Cells  []int
}

// Plan expands the manifest and compares it with the results directory
// out. It fails if the directory holds a result whose cell has the same
// name but another meaning (changed parameters, seed or model version):
// mixing them would pair results of two different experiments.
func (m *Manifest) Plan(out string, shard Shard, retryFailed bool) (*Plan, error) {
	cells := m.Cells()
	p := &Plan{Out: out, Total: len(cells)}
	finished, err := readFinished(out, m.childTables())
	if err != nil {
		return nil, err
	}
	p.Problems = finished.problems
	status := finished.status
	inManifest := map[string]bool{}
	for _, c := range cells {
		inManifest[c.ID] = true
	}
	if err := m.checkUnchanged(out, cells, inManifest, finished); err != nil {
		return nil, err
	}
	for id := range status {
		if !inManifest[id] {
			p.Stale++
		}
	}
	for _, c := range cells {
		if !shard.contains(c) {
			continue
		}
		p.InShard++
		switch status[c.ID] {
		case table.StatusOK:
			p.Done++
			continue
		case table.StatusFailed:
			p.Failed++
			if !retryFailed {
				continue
			}
		}
		p.ToRun = append(p.ToRun, c)
	}
	p.Axes = m.axes(cells)
	p.Traces = m.TraceReports()
	return p, nil
}

func (m *Manifest) axes(cells []Cell) []Axis {
	count := func(name string, values []string, key func(Cell) string) Axis {
		a := Axis{Name: name, Values: values, Cells: make([]int, len(values))}
		for _, c := range cells {
			for i, v := range values {
				if key(c) == v {
					a.Cells[i]++
				}
			}
		}
		return a
	}
	var workloads, loads []string
	for i, w := range m.Workloads {
		workloads = append(workloads, m.sources[i].source.Describe(w.Label, w.Instances))
	}
	for _, l := range m.Loads {
		loads = append(loads, formatLoad(l))
	}
	const noLoad = "none (closed loop, trace or off-line)"
	if len(loads) == 0 {
		loads = []string{noLoad}
	}
	axes := []Axis{
		count("workload", workloads, func(c Cell) string { return workloads[c.spec] }),
		count("platform", m.Platforms, func(c Cell) string { return c.Platform }),
		count("load", loads, func(c Cell) string {
			if c.Load == 0 {
				return noLoad
			}
			return formatLoad(c.Load)
		}),
		count("policy", m.PolicyNames(), func(c Cell) string { return c.Policy }),
	}
	if k := m.ReplicateCount(); k > 1 {
		replicates := make([]string, k)
		for r := range replicates {
			replicates[r] = fmt.Sprint(r)
		}
		axes = append(axes, count("replicate", replicates, func(c Cell) string { return fmt.Sprint(c.Replicate) }))
	}
	return axes
}

// Write prints the plan as a short report.
func (p *Plan) Write(w io.Writer) {
	for _, a := range p.Axes {
		parts := make([]string, len(a.Values))
		for i, v := range a.Values {
			parts[i] = fmt.Sprintf("%s: %d", v, a.Cells[i])
		}
		fmt.Fprintf(w, "%-9s %s\n", a.Name, strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "cells     %d in the manifest, %d in this shard\n", p.Total, p.InShard)
	fmt.Fprintf(w, "done      %d ok, %d failed (in %s)\n", p.Done, p.Failed, p.Out)
	fmt.Fprintf(w, "to run    %d\n", len(p.ToRun))
	if p.Failed > 0 && len(p.ToRun)+p.Done < p.InShard {
		fmt.Fprintf(w, "note      failed cells are not rerun without --retry-failed\n")
	}
	if p.Stale > 0 {
		fmt.Fprintf(w, "note      %d cells in %s are not in this manifest (kept; `sweep analyze` still reads them)\n", p.Stale, p.Out)
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "warning   unreadable part file %s: %v (a run moves it aside and reruns its cells)\n", pr.Path, pr.Err)
	}
	for _, t := range p.Traces {
		fmt.Fprintf(w, "trace     workload %s: %s", t.Workload, t.Report)
	}
}
