// Package campaign defines the campaign workload of seeds 000 and 001
// (DESIGN.md section 4): users who submit campaigns of independent
// sequential jobs in closed loop, with think times, per-job release
// offsets and, for traces, each job's recorded start; and its JSON form.
//
// It is a leaf contract: gen/campaign builds them, synthetic or from SWF
// traces, engine/campaign schedules them and analysis measures their
// stretch. DAG returns the plain DAG workload that the simulator
// compiles.
package campaign
