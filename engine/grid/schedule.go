package grid

// A JobOutcome is what a schedule did to one job: everything the per-job
// and per-schedule metrics of DESIGN.md section 3 need.
type JobOutcome struct {
	ArrivalTick       int64 // when the job was submitted
	StartTick         int64 // first start of any of its tasks
	FinishTick        int64 // last finish of any of its tasks
	VolumeCoreTicks   int64 // sum of exec x cores over its tasks
	CriticalPathTicks int64 // longest path, counting unavoidable delays only
	Tasks             int
}
