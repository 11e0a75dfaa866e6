package model

// A Charted outcome can be drawn as a Gantt chart (`sweep show --gantt`,
// `sweep simulate --gantt`, the report's worst cells).
type Charted interface {
	// Gantt returns the simulated schedule as the chart's input.
	Gantt() Gantt
}

// Gantt is a simulated schedule as a Gantt chart draws it, whatever the
// model: the platform's resources (cores, processors) in groups
// (clusters), and each bar the time a task or a job held some resources
// of one group. It is data only; package report/gantt draws it.
type Gantt struct {
	// Words name the chart's things in its captions and labels.
	Words GanttWords
	// Groups are the platform's groups of lanes, in platform order.
	Groups []GanttGroup
	// Jobs are the schedule's jobs; bars name them by index.
	Jobs []GanttJob
	// Bars are the schedule's tasks (or jobs, when a job is one bar), in
	// the order the chart breaks ties in: by index.
	Bars []GanttBar
}

// GanttWords name what a chart shows, in the singular: its plural adds an
// s.
type GanttWords struct {
	// Bar is what one bar is: "task" or "job".
	Bar string
	// Resource is one resource of a group: "core" or "processor".
	Resource string
	// Wait names the dashed spans before bars ("network delay"), or is
	// empty when the model has none.
	Wait string
	// Group is what a group is: "cluster" when empty, or "partition".
	Group string
	// Ratio names a job's response over its time alone: "SLR" when
	// empty (a DAG's), or "slowdown" (a rigid job's).
	Ratio string
}

// A GanttGroup is a group of resources numbered from 0: a cluster of
// cores, or of processors, or a partition of nodes' cores.
type GanttGroup struct {
	Name      string
	Resources int
	// NodeResources, when positive, says the group's resources are the
	// cores of nodes of NodeResources cores each, node k's numbered from
	// k*NodeResources: the chart's rows then stand for whole nodes, and a
	// job on several nodes is a bar on each. FirstNode is the machine's id
	// of the group's node 0 (nodes are numbered across partitions).
	NodeResources, FirstNode int
}

// A GanttJob is one job of a schedule.
type GanttJob struct {
	// ID labels the job in bar titles and the legend.
	ID string
	// ArrivalTick and FinishTick bound the job's life.
	ArrivalTick, FinishTick int64
	// AloneTicks is the job's response on an empty platform (a DAG's
	// critical path, a rigid job's run time): the chart finds the worst
	// job by its response over AloneTicks (SLR, slowdown). 0 when unknown.
	AloneTicks int64
}

// A GanttBar is one task or job on Resources resources of group Group
// from StartTick to FinishTick.
type GanttBar struct {
	// Job indexes Gantt.Jobs.
	Job int
	// Task is the task's id, or empty when the bar is a whole job.
	Task                  string
	Group                 int
	Resources             int
	StartTick, FinishTick int64
	// ResourceIDs are the resources the bar held, ascending, when the
	// simulator named them (contiguous blocks, a Batsim scheduler); nil
	// when it only counted free ones, and the chart picks them.
	ResourceIDs []int
	// Waits are the spans the bar waited for before it could start, such
	// as network delays of its inputs, drawn on its row.
	Waits []GanttSpan
}

// A GanttSpan is the time from FromTick to ToTick.
type GanttSpan struct{ FromTick, ToTick int64 }
