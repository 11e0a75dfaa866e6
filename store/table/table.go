// Package table defines the result tables of a results directory: their
// names, their columns with types, and the statuses a cell can have. The
// runner (package sweep) writes them and package analysis reads them, both
// by the names defined here, so a column is named in one place only.
//
// The tables are tidy: one row per cell in Cells, one row per job per cell
// in Jobs, one row per campaign per cell in Campaigns; every child row
// carries its cell's CellID. Ids, ticks and counts are int64, measures
// float64, names dictionary-encoded strings. A column name has one type in
// every table (user is a string in campaigns and users alike), so tables
// concatenate and join without casts.
package table

import (
	"strconv"

	"github.com/sweep-sched/sweep/store"
)

// Table names: the folders of a results directory.
const (
	Cells         = "cells"
	Jobs          = "jobs"
	Campaigns     = "campaigns"
	VolumeDeciles = "volume_deciles"
)

// ModelsKey is the key-value metadata the runner writes into every part
// file: the comma-separated names of the models of the run ("grid",
// "campaign", "rigid", "moldable"), which say what analysis its cells
// need.
const ModelsKey = "sweep.models"

// RunStartedKey (the run's start, RFC 3339 in UTC) and WorkersKey (the
// cells it simulated at once) are the key-value metadata the runner writes
// into every part file of one run, so that an analysis can state the
// run's wall time and cores.
const (
	RunStartedKey = "sweep.run_started"
	WorkersKey    = "sweep.workers"
)

// CPUDir is the folder of a results directory where each session of a
// run that simulated cells (a run, a resume, a shard) records, once its
// cells are written, the CPU time it used: one SessionCPU as JSON per
// session, named by its start and shard. A killed session records none.
const CPUDir = "cpu"

// A SessionCPU is the CPU time of one session of a run, from the
// operating system's accounting (getrusage): sweep's own (every thread,
// user and system), and its child processes' (external policies, Batsim
// schedulers and their own children, once reaped). RunStarted and Shard
// are the session's RunStartedKey and shard metadata.
type SessionCPU struct {
	RunStarted      string  `json:"run_started"`
	Shard           string  `json:"shard"`
	SweepSeconds    float64 `json:"sweep_cpu_seconds"`
	ChildrenSeconds float64 `json:"children_cpu_seconds"`
}

// Cell statuses, the Status column.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Columns of the cells table's identity, in table order; the measures of
// the cell's model follow them (see CellsSchema).
const (
	CellID     = "cell_id"
	Experiment = "experiment"
	Workload   = "workload"
	Generator  = "generator"
	Instance   = "instance"
	Replicate  = "replicate" // 0 to replicates-1; see sweep.ReplicateSeed
	Load       = "load"      // null for workloads without a load ratio
	Platform   = "platform"
	Policy     = "policy"
	Seed       = "seed"
	Status     = "status"
	Error      = "error" // null unless Status is StatusFailed
	WallMS     = "wall_ms"
)

// CellHead returns the identity columns of the cells table, in order.
func CellHead() []store.Column {
	s, i := store.TypeString, store.TypeInt64
	return []store.Column{
		{Name: CellID, Type: s}, {Name: Experiment, Type: s}, {Name: Workload, Type: s},
		{Name: Generator, Type: s}, {Name: Instance, Type: i}, {Name: Replicate, Type: i},
		{Name: Load, Type: store.TypeFloat64, Nullable: true},
		{Name: Platform, Type: s}, {Name: Policy, Type: s}, {Name: Seed, Type: i},
		{Name: Status, Type: s}, {Name: Error, Type: s, Nullable: true}, {Name: WallMS, Type: i},
	}
}

// A Measure is a numeric column that follows the identity in the cells
// table: null in failed cells and in cells of a model without it. A model
// declares each of its measures once, with the getter that fills it
// (model.Model.Measures); the analysis and the report take the measures'
// names, units and directions from there.
type Measure struct {
	Name    string
	Integer bool // int64; float64 otherwise
	// Unit is what the value counts, for tables and axes: "ticks",
	// "ratio", "processor-hours"; "" for a pure number.
	Unit string
	// Doc says in one line what the measure is.
	Doc string
	// Better says which way the measure improves, for the analysis.
	Better Direction
	// Timing marks a wall-clock measure (an algorithm's run time), which
	// varies from run to run: a replay does not compare it.
	Timing bool
}

// CellsSchema returns the cells table: CellHead, then measures.
func CellsSchema(measures []Measure) store.Schema {
	cols := CellHead()
	for _, m := range measures {
		typ := store.TypeFloat64
		if m.Integer {
			typ = store.TypeInt64
		}
		cols = append(cols, store.Column{Name: m.Name, Type: typ, Nullable: true})
	}
	return store.Schema{Table: Cells, Columns: cols}
}

// Columns of the jobs table (after CellID), one row per job of a DAG
// workload: ticks, core-ticks, and the job's measures of seed 004.
const (
	Job             = "job" // the job's index in its workload
	JobArrival      = "arrival"
	JobStart        = "start" // first task start
	JobFinish       = "finish"
	JobVolume       = "volume"
	JobCriticalPath = "critical_path"
	JobSLR          = "slr"
	JobStretch      = "stretch"
	JobSpeedup      = "speedup"
	JobTasks        = "tasks"
)

// JobsSchema returns the jobs table.
func JobsSchema() store.Schema {
	i, f := store.TypeInt64, store.TypeFloat64
	return store.Schema{Table: Jobs, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: Job, Type: i}, {Name: JobArrival, Type: i},
		{Name: JobStart, Type: i}, {Name: JobFinish, Type: i}, {Name: JobVolume, Type: i},
		{Name: JobCriticalPath, Type: i}, {Name: JobSLR, Type: f}, {Name: JobStretch, Type: f},
		{Name: JobSpeedup, Type: f}, {Name: JobTasks, Type: i},
	}}
}

// Columns of the volume_deciles table (after CellID): per DAG cell, one row
// per populated decile of job volume (seed 004's Fig. 7), so that the
// analysis needs no job rows.
const (
	Decile       = "decile" // 1 (smallest jobs) .. DecileCount
	DecileJobs   = "jobs"
	DecileSLRSum = "slr_sum"
	DecileSLRMax = "slr_max"
)

// DecileCount is the number of volume classes of Fig. 7 of seed 004.
const DecileCount = 10

// VolumeDecilesSchema returns the volume_deciles table.
func VolumeDecilesSchema() store.Schema {
	i, f := store.TypeInt64, store.TypeFloat64
	return store.Schema{Table: VolumeDeciles, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: Decile, Type: i}, {Name: DecileJobs, Type: i},
		{Name: DecileSLRSum, Type: f}, {Name: DecileSLRMax, Type: f},
	}}
}

// Columns of the campaigns table (after CellID), one row per campaign.
const (
	CampaignUser       = "user" // the workload's user name: u01.. generated, u<SWF id> from a trace
	CampaignProfile    = "profile"
	Campaign           = "campaign" // 1-based ordinal among the user's campaigns
	CampaignJobs       = "jobs"
	CampaignSubmit     = "submit"
	CampaignCompletion = "completion"
	CampaignWork       = "work"
	CampaignStretch    = "stretch"
)

// CampaignCount is the campaign model's measure of a cell's campaigns in
// the cells table, null for cells without campaigns: it tells campaign
// cells from DAG cells.
const CampaignCount = "campaigns"

// CampaignOutlierStretch is the stretch above which seed 000 leaves a
// campaign out of its figures and statistics ("stretches of more than
// 1000"): the campaign measures named trimmed leave them out, and so do
// the analysis and the report.
const CampaignOutlierStretch = 1000

// CampaignsSchema returns the campaigns table.
func CampaignsSchema() store.Schema {
	i := store.TypeInt64
	return store.Schema{Table: Campaigns, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: CampaignUser, Type: store.TypeString},
		{Name: CampaignProfile, Type: store.TypeString}, {Name: Campaign, Type: i}, {Name: CampaignJobs, Type: i},
		{Name: CampaignSubmit, Type: i}, {Name: CampaignCompletion, Type: i}, {Name: CampaignWork, Type: i},
		{Name: CampaignStretch, Type: store.TypeFloat64},
	}}
}

// RigidJobs is the table of the rigid model's jobs (record.jobs): one row
// per measured job of a cell that started, in seconds. It is not the jobs
// table of DAG cells, whose jobs are DAGs of tasks measured in ticks.
const RigidJobs = "rigid_jobs"

// Columns of the rigid_jobs table (after CellID).
const (
	RigidJobNumber    = "job" // the SWF job number
	RigidJobSubmit    = "submit"
	RigidJobStart     = "start"
	RigidJobEnd       = "end"
	RigidJobCores     = "cores"
	RigidJobEstimate  = "estimated_run" // seconds: the run time the scheduler was given at submit (T: the time run; R and predicted: the request); not "estimate", a double in the analysis tables
	RigidJobRequested = "requested"     // the user's requested time
	RigidJobUser      = "user"          // "u<SWF id>", as in users and campaigns
	RigidJobWait      = "wait"
	// RigidJobBoundedSlowdown is max(1, (wait + run) / max(run, 10 s)).
	RigidJobBoundedSlowdown = "bounded_slowdown"
	// On a platform of nodes (null otherwise): the nodes, memory (MiB)
	// and GPUs the job held in all, its partition and its node ids
	// ("0,1,7": counted across the partitions in platform order).
	RigidJobNodes     = "nodes"
	RigidJobMemoryMiB = "memory_mib"
	RigidJobGPUs      = "gpus"
	RigidJobPartition = "partition"
	RigidJobNodeIDs   = "node_ids"
)

// RigidJobsSchema returns the rigid_jobs table.
func RigidJobsSchema() store.Schema {
	i := store.TypeInt64
	return store.Schema{Table: RigidJobs, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: RigidJobNumber, Type: i}, {Name: RigidJobSubmit, Type: i},
		{Name: RigidJobStart, Type: i}, {Name: RigidJobEnd, Type: i}, {Name: RigidJobCores, Type: i},
		{Name: RigidJobEstimate, Type: i}, {Name: RigidJobRequested, Type: i}, {Name: RigidJobUser, Type: store.TypeString},
		{Name: RigidJobWait, Type: i}, {Name: RigidJobBoundedSlowdown, Type: store.TypeFloat64},
		{Name: RigidJobNodes, Type: i, Nullable: true}, {Name: RigidJobMemoryMiB, Type: i, Nullable: true},
		{Name: RigidJobGPUs, Type: i, Nullable: true}, {Name: RigidJobPartition, Type: store.TypeString, Nullable: true},
		{Name: RigidJobNodeIDs, Type: store.TypeString, Nullable: true},
	}}
}

// RigidPartitions is the table of a rigid cell on a platform of nodes
// (record.jobs): one row per partition, its measured jobs' waits and
// slowdowns and its utilisation per resource.
const RigidPartitions = "rigid_partitions"

// RigidPartitionsSchema returns the rigid_partitions table.
func RigidPartitionsSchema() store.Schema {
	i, f := store.TypeInt64, store.TypeFloat64
	return store.Schema{Table: RigidPartitions, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: "partition", Type: store.TypeString}, {Name: "jobs", Type: i},
		{Name: "wait_mean_seconds", Type: f}, {Name: "wait_max_seconds", Type: f}, {Name: "bsld_mean", Type: f},
		{Name: "util_cores", Type: f}, {Name: "util_memory", Type: f}, {Name: "util_gpus", Type: f},
	}}
}

// Users is the table of fair-share runs (seed 003): one row per user per
// cell, for every user with a job in the system during the cell's month.
const Users = "users"

// Measures of a fair-share cell (seed 003) in the cells table, after the
// identity: the month simulated, its workload (Table I), the fair-share
// deviation (Tables III-VII), waits and slowdowns (Table IX) and the
// planner's work.
const (
	FairMonth           = "month" // yyyymm, UTC
	FairJobs            = "month_jobs"
	FairUsers           = "month_users"
	FairDemandProcHours = "demand_proc_hours"
	FairDemandPercent   = "demand_percent"
	FairTotalAbsDev     = "total_abs_dev"
	FairTopUser         = "top_user"
	FairTopUserDemand   = "top_user_demand_proc_hours"
	FairTopUserDev      = "top_user_dev"
	FairWaitMeanHours   = "wait_mean_h"
	FairWaitMaxHours    = "wait_max_h"
	FairWaitP99Hours    = "wait_p99_h"
	FairSlowdownTau10   = "bsld_tau10"
	FairSlowdownTau60   = "bsld_tau60"
	FairSlowdown        = "slowdown"
	FairTwSeconds       = "tw_seconds"
	FairPlacements      = "placements"
	FairBudgetExhausted = "budget_exhausted"
	FairDroppedWideJobs = "dropped_wide_jobs"
	FairRequestFromRun  = "request_from_run"
	FairWarmUpJobs      = "warm_up_jobs"
)

// Columns of the users table (after CellID). User is a string category,
// as in the campaigns table: the SWF user id written "u<id>" (swf.UserName),
// so a column name has one type in every table; the cells table's
// top_user is the same user's SWF id as an integer.
const (
	UserID           = "user" // "u<SWF user id>"
	UserJobs         = "jobs" // jobs submitted in the month
	UserDemand       = "demand_proc_hours"
	UserDev          = "dev" // processor-hours, positive = over-share
	UserMeanWait     = "mean_wait_s"
	UserMeanAccuracy = "mean_accuracy" // run time / requested time
)

// UsersSchema returns the users table.
func UsersSchema() store.Schema {
	i, f := store.TypeInt64, store.TypeFloat64
	return store.Schema{Table: Users, Columns: []store.Column{
		{Name: CellID, Type: store.TypeString}, {Name: UserID, Type: store.TypeString}, {Name: UserJobs, Type: i},
		{Name: UserDemand, Type: f}, {Name: UserDev, Type: f}, {Name: UserMeanWait, Type: f},
		{Name: UserMeanAccuracy, Type: f},
	}}
}

// Measures of a moldable-task cell (seed 002) in the cells table: the
// instance's size, the schedule's two criteria, their lower bounds
// (lambda* of the MRT dual test, the safe interval LP) and the ratios of
// one to the other, and the algorithm's own run time.
const (
	MoldableTasks      = "tasks"
	MoldableCmax       = "cmax"
	MoldableSumWC      = "sum_wc"
	MoldableCmaxBound  = "cmax_bound"
	MoldableSumWCBound = "sum_wc_bound"
	MoldableCmaxRatio  = "cmax_ratio"
	MoldableSumWCRatio = "sum_wc_ratio"
	MoldableRunSeconds = "run_seconds" // a measurement: differs between runs
)

// A Direction says which way a metric improves, for dominance tables.
type Direction int

// The directions of Measure.Better.
const (
	// Descriptive columns describe the workload, not the schedule's
	// quality, and are not ranked.
	Descriptive Direction = iota
	LowerIsBetter
	HigherIsBetter
)

// String returns the direction's name.
func (d Direction) String() string {
	switch d {
	case Descriptive:
		return "descriptive"
	case LowerIsBetter:
		return "lower is better"
	case HigherIsBetter:
		return "higher is better"
	}
	return "Direction(" + strconv.Itoa(int(d)) + ")"
}
