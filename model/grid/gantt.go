package grid

import (
	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/model"
)

// Gantt returns the simulated schedule as a Gantt chart's input.
func (o *Outcome) Gantt() model.Gantt { return Gantt(o.Schedule) }

// Gantt returns schedule s as a Gantt chart's input: the platform's
// clusters of cores, one bar per task (the chart picks its cores: the
// simulator counts them), and before each task the network delays of its
// inputs from other clusters, from the predecessor's finish to the
// arrival of its data. A job's time alone is its critical path, so the
// worst job is the one of largest SLR.
func Gantt(s *gridengine.Schedule) model.Gantt {
	in := s.Instance
	g := model.Gantt{Words: model.GanttWords{Bar: "task", Resource: "core", Wait: "network delay"}}
	for _, c := range in.Platform.Clusters {
		g.Groups = append(g.Groups, model.GanttGroup{Name: c.Name, Resources: c.Cores})
	}
	for j, o := range s.Outcomes() {
		g.Jobs = append(g.Jobs, model.GanttJob{ID: in.JobIDs[j], ArrivalTick: o.ArrivalTick, FinishTick: o.FinishTick, AloneTicks: o.CriticalPathTicks})
	}
	g.Bars = make([]model.GanttBar, in.Tasks())
	for t := range in.Tasks() {
		var waits []model.GanttSpan
		for p := range in.Predecessors(t) {
			if s.TaskCluster[p] != s.TaskCluster[t] && in.Delay(p) != 0 {
				waits = append(waits, model.GanttSpan{FromTick: s.TaskFinish[p], ToTick: s.TaskFinish[p] + in.Delay(p)})
			}
		}
		g.Bars[t] = model.GanttBar{Job: in.TaskJob(t), Task: in.TaskIDs[t], Group: int(s.TaskCluster[t]), Resources: in.Cores(t),
			StartTick: s.TaskStart[t], FinishTick: s.TaskFinish[t], Waits: waits}
	}
	return g
}
