package rigid

import (
	"fmt"

	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/workload/swf"
)

// boundedSlowdownTauSeconds is the bounded slowdown's floor on the run
// time, the 10 s of seed 003's Table IX.
const boundedSlowdownTauSeconds = 10

// jobRows are the rigid_jobs rows of the outcome's measured jobs that
// started.
func (o *Outcome) jobRows() []store.Row {
	w, s := o.Workload, o.Schedule
	id := store.String(o.CellID)
	var rows []store.Row
	for j := range w.Jobs {
		if !w.Measured(j) || s.StartSeconds[j] < 0 {
			continue
		}
		job := &w.Jobs[j]
		wait := s.StartSeconds[j] - job.SubmitSeconds
		bsld := max(1, float64(wait+job.RunSeconds)/float64(max(job.RunSeconds, boundedSlowdownTauSeconds)))
		rows = append(rows, store.Row{id, store.Int64(job.Number), store.Int64(job.SubmitSeconds), store.Int64(s.StartSeconds[j]),
			store.Int64(s.EndSeconds[j]), store.Int64(int64(job.Procs)), store.Int64(job.EstimateSeconds(o.Variant)),
			store.Int64(job.RequestedSeconds), store.String(swf.UserName(job.User)), store.Int64(wait), store.Float64(bsld)})
	}
	return rows
}

// ExportSchedule returns the simulated schedule of every job that
// started (warm-up and cool-down included), for `sweep export`: SWF
// numbers, submit, start and end in the trace's seconds, the processors
// and requested time.
func (o *Outcome) ExportSchedule() (*export.Schedule, error) {
	w, s := o.Workload, o.Schedule
	out := &export.Schedule{Name: w.Name, Procs: w.Procs, UnixStartSeconds: w.UnixStartSeconds}
	for j := range w.Jobs {
		if s.StartSeconds[j] < 0 {
			continue
		}
		job := &w.Jobs[j]
		out.Jobs = append(out.Jobs, export.Job{Number: job.Number, SubmitSeconds: job.SubmitSeconds, StartSeconds: s.StartSeconds[j],
			FinishSeconds: s.EndSeconds[j], Procs: job.Procs, RequestedSeconds: job.RequestedSeconds, User: job.User})
	}
	if len(out.Jobs) == 0 {
		return nil, fmt.Errorf("no job started in cell %s", o.CellID)
	}
	return out, nil
}
