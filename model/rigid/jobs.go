package rigid

import (
	"fmt"

	"github.com/sweep-sched/sweep/export"
	"github.com/sweep-sched/sweep/policy/batsim"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// boundedSlowdownTauSeconds is the bounded slowdown's floor on the run
// time, the 10 s of seed 003's Table IX.
const boundedSlowdownTauSeconds = 10

// runSeconds returns the time job j ran in the cell's schedule, end −
// start: the one source of a job's run time for every measure, row, chart
// and export of a cell. The simulator that ended the job applied the
// cell's kill rule (min(logged run, request) under kill: request, the
// logged run under kill: never; engine/verify checks it), so the
// workload's clamped RunSeconds is not the run time under kill: never.
// Only for a job that started.
func (o *Outcome) runSeconds(j int) int64 {
	return o.Schedule.EndSeconds[j] - o.Schedule.StartSeconds[j]
}

// boundedSlowdown returns max(1, (wait + run) / max(run, tau)) with tau =
// boundedSlowdownTauSeconds.
func boundedSlowdown(waitSeconds, runSeconds int64) float64 {
	return max(1, float64(waitSeconds+runSeconds)/float64(max(runSeconds, boundedSlowdownTauSeconds)))
}

// submitEstimateSeconds returns the estimate the scheduler was given for
// job j when it was submitted, the jobs table's estimated_run: its run
// time under T (the time it ran, which the simulator told it under either
// kill rule), its request under R. Under predicted it is the request too,
// the prediction's bound and its value before the user has two ended
// jobs: the first prediction depends on the schedule, and engine/backfill
// (which makes it) and engine/verify (which re-derives it) are the places
// that know it; a third derivation here would be the rule written thrice,
// so the column stays the request until the simulator records it.
func (o *Outcome) submitEstimateSeconds(j int) int64 {
	if o.Variant == rigid.EstimateExact {
		return o.runSeconds(j)
	}
	return o.Workload.Jobs[j].EstimateSeconds(o.Variant)
}

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
		bsld := boundedSlowdown(wait, o.runSeconds(j))
		row := store.Row{id, store.Int64(job.Number), store.Int64(job.SubmitSeconds), store.Int64(s.StartSeconds[j]),
			store.Int64(s.EndSeconds[j]), store.Int64(int64(job.Procs)), store.Int64(o.submitEstimateSeconds(j)),
			store.Int64(job.RequestedSeconds), store.String(swf.UserName(job.User)), store.Int64(wait), store.Float64(bsld)}
		rows = append(rows, append(row, o.nodeColumns(j)...))
	}
	return rows
}

// ExportSchedule returns the simulated schedule of every job that
// started (warm-up and cool-down included, each marked with its phase in
// a trace month), for `sweep export`: SWF numbers, submit, start and end
// in the trace's seconds, the processors and requested time, the
// processor ids the simulation chose (a Batsim scheduler's allocations,
// the contiguous placement's blocks; nil when it counted processors, and
// the export names them by engine/placement.Fit, as the Gantt chart does),
// whether the job was killed at its requested time (reachedRequest), and
// Batsim's name of the workload, the one policy/batsim sends a scheduler.
func (o *Outcome) ExportSchedule() (*export.Schedule, error) {
	w, s := o.Workload, o.Schedule
	out := &export.Schedule{Name: w.Name, BatsimWorkload: batsim.DefaultWorkloadName, Procs: w.Procs, UnixStartSeconds: w.UnixStartSeconds}
	if w.Machine != nil && s.Nodes != nil {
		out.Nodes = w.Machine.Nodes()
	}
	ids := o.processorIDs()
	for j := range w.Jobs {
		if s.StartSeconds[j] < 0 {
			continue
		}
		job := &w.Jobs[j]
		out.Jobs = append(out.Jobs, export.Job{Number: job.Number, SubmitSeconds: job.SubmitSeconds, StartSeconds: s.StartSeconds[j],
			FinishSeconds: s.EndSeconds[j], Procs: job.Procs, RequestedSeconds: job.RequestedSeconds, User: job.User,
			Allocated: ids[j], ReachedRequest: o.reachedRequest(j), Phase: o.phase(j)})
		if w.Machine != nil && s.Nodes != nil {
			o.exportNodes(&out.Jobs[len(out.Jobs)-1], j)
		}
	}
	if len(out.Jobs) == 0 {
		return nil, fmt.Errorf("no job started in cell %s", o.CellID)
	}
	return out, nil
}

// reachedRequest reports whether job j was killed at its requested time.
// Under kill: request the model runs a job min(trace run time, requested
// time) (the SWF reader's clamp), so a job whose run time reached its
// request is one the system stopped there, as Batsim stops a delay job whose delay is not
// below its walltime (do_delay_task: the job is COMPLETED_WALLTIME_REACHED
// when delay >= walltime). A job whose log gave no request, and whose
// request is therefore its run time, was never killed. (A Batsim JSON
// workload's job without walltime requests its run time too, but
// workload/batsim does not say which those are: such a job is counted as
// reaching it.) Under kill: never no job is killed.
func (o *Outcome) reachedRequest(j int) bool {
	job := &o.Workload.Jobs[j]
	return o.Schedule.Kill == rigid.KillAtRequest && o.runSeconds(j) >= job.RequestedSeconds && (o.NoRequest == nil || !o.NoRequest[j])
}

// phase returns job j's phase in a trace month (warm-up, measured,
// cool-down by its submit time against the measured window), or "" for a
// whole workload, where every job is measured.
func (o *Outcome) phase(j int) string {
	w := o.Workload
	switch submit := w.Jobs[j].SubmitSeconds; {
	case o.Period == 0:
		return ""
	case submit < w.MeasureFromSeconds:
		return export.PhaseWarmUp
	case submit >= w.MeasureToSeconds:
		return export.PhaseCoolDown
	}
	return export.PhaseMeasured
}
