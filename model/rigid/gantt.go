package rigid

import (
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
	g := model.Gantt{Words: model.GanttWords{Bar: "job", Resource: "processor"},
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
