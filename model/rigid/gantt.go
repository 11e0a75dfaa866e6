package rigid

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/model"
)

// Gantt returns the schedule as a Gantt chart's input: one bar per job
// that started (warm-up and cool-down jobs included), a tick a second,
// over the processors of the cell's cluster. A job's processors are the
// ones its simulation named: a contiguous placement's block (its
// engine/placement schedule) or a Batsim scheduler's; when the simulation
// counted free processors, the chart picks them. A job's time alone is the
// time it ran (runSeconds: cut at its request under kill: request), so the
// worst job is the one of largest slowdown.
func (o *Outcome) Gantt() model.Gantt {
	w, s := o.Workload, o.Schedule
	if w.Machine != nil && s.Nodes != nil {
		return o.nodeGantt()
	}
	g := model.Gantt{Words: model.GanttWords{Bar: "job", Resource: "processor", Ratio: "slowdown"},
		Groups: []model.GanttGroup{{Name: o.Cluster, Resources: w.Procs}}}
	ids := o.processorIDs()
	for j := range w.Jobs {
		if s.StartSeconds[j] < 0 {
			continue
		}
		job := &w.Jobs[j]
		g.Bars = append(g.Bars, model.GanttBar{Job: len(g.Jobs), Resources: job.Procs,
			StartTick: s.StartSeconds[j], FinishTick: s.EndSeconds[j], ResourceIDs: ids[j]})
		g.Jobs = append(g.Jobs, model.GanttJob{ID: strconv.FormatInt(job.Number, 10), ArrivalTick: job.SubmitSeconds,
			FinishTick: s.EndSeconds[j], AloneTicks: o.runSeconds(j)})
	}
	return g
}

// processorIDs returns each job's processor ids when the simulation named
// them, else nil ones.
func (o *Outcome) processorIDs() [][]int {
	if o.Processors != nil {
		return o.Processors
	}
	ids := make([][]int, len(o.Workload.Jobs))
	if o.Schedule.FirstResource != nil {
		for _, run := range o.Schedule.ResourceSchedule(o.Workload).Runs {
			ids[run.Job] = run.Resources
		}
	}
	return ids
}

// nodeGantt returns a schedule on a platform of nodes as a Gantt chart's
// input: a group per partition, its resources its nodes' cores (rows are
// nodes), and a job a bar on each node it held, as high as the cores it
// held there. The simulator counts a node's free cores without naming
// them, so each share takes the node's lowest cores free at its start
// (jobs by start, ends before starts at an instant, as the simulator
// frees them): any such choice is feasible, since no node ever holds more
// cores than it has.
func (o *Outcome) nodeGantt() model.Gantt {
	w, s := o.Workload, o.Schedule
	g := model.Gantt{Words: model.GanttWords{Bar: "job", Resource: "core", Group: "partition", Ratio: "slowdown"}}
	groupOf, firstCore := make([]int, 0, w.Machine.Nodes()), make([]int, 0, w.Machine.Nodes())
	first := 0
	for k, q := range w.Machine.Partitions {
		g.Groups = append(g.Groups, model.GanttGroup{Name: q.Name, Resources: q.Nodes * q.Cores, NodeResources: q.Cores, FirstNode: first})
		for n := range q.Nodes {
			groupOf, firstCore = append(groupOf, k), append(firstCore, n*q.Cores)
		}
		first += q.Nodes
	}
	var started []int
	for j := range w.Jobs {
		if s.StartSeconds[j] >= 0 {
			started = append(started, j)
		}
	}
	slices.SortStableFunc(started, func(a, b int) int { return cmp.Compare(s.StartSeconds[a], s.StartSeconds[b]) })
	freeAt := make([][]int64, len(w.Machine.Partitions))
	for k, q := range w.Machine.Partitions {
		freeAt[k] = make([]int64, q.Nodes*q.Cores)
	}
	bars := make([][]model.GanttBar, len(w.Jobs))
	for _, j := range started {
		for _, sh := range s.Nodes[j] {
			k, from := groupOf[sh.Node], firstCore[sh.Node]
			ids := make([]int, 0, sh.Cores)
			for c := from; c < from+w.Machine.Partitions[k].Cores && len(ids) < int(sh.Cores); c++ {
				if freeAt[k][c] <= s.StartSeconds[j] {
					ids = append(ids, c)
					freeAt[k][c] = s.EndSeconds[j]
				}
			}
			bars[j] = append(bars[j], model.GanttBar{Group: k, Resources: len(ids), StartTick: s.StartSeconds[j], FinishTick: s.EndSeconds[j], ResourceIDs: ids})
		}
	}
	for j := range w.Jobs {
		if s.StartSeconds[j] < 0 {
			continue
		}
		for _, b := range bars[j] {
			b.Job = len(g.Jobs)
			g.Bars = append(g.Bars, b)
		}
		g.Jobs = append(g.Jobs, model.GanttJob{ID: strconv.FormatInt(w.Jobs[j].Number, 10), ArrivalTick: w.Jobs[j].SubmitSeconds,
			FinishTick: s.EndSeconds[j], AloneTicks: o.runSeconds(j)})
	}
	return g
}
