// Package batsim is the simulator side of Batsim's protocol (the JSON
// protocol of Batsim 4.x that pybatsim 3.2.1 speaks; docs/batsim.md) for
// rigid jobs: an unmodified Batsim decision process (a pybatsim
// scheduler, batsched, ...) schedules a workload/rigid workload on a
// cluster of numbered resources.
//
// The scheduler command runs as a supervised child (policy/child) and
// binds a ZeroMQ REP socket at an endpoint in a private 0700 directory;
// the simulator connects as the REQ side, sends SIMULATION_BEGINS, then
// at every instant where something happens one message with its events
// (JOB_SUBMITTED, JOB_COMPLETED, REQUESTED_CALL, NOTIFY
// no_more_static_job_to_submit), and applies the decisions of each reply
// (EXECUTE_JOB on exactly the resources given, REJECT_JOB,
// CALL_ME_LATER, NOTIFY registration_finished) at their timestamps, as
// Batsim does; the reply's "now" is when the scheduler is ready for the
// next message. A job runs its run time (already cut at its requested
// time, as in engine/backfill) and frees its resources when it ends.
//
// Time is integer nanoseconds: exact, so a schedule is a pure function of
// the workload and the scheduler's replies, and fine enough for a
// scheduler that consumes time between whole seconds.
package batsim
