// Package grid builds synthetic workloads: the job-size distributions,
// DAG shapes, task attributes and load-ratio arrivals of seed 004's
// Table 2 (DESIGN.md section 3, "Generators"), the named presets that
// reproduce that table with every parameter overridable. The campaign
// generator ostrich2013/profiles of seed 001 is gen/campaign's.
//
// A generated workload depends only on the root seed, the preset with its
// parameters (in canonical form, see Params.Canonical) and the instance
// number: InstanceSeed derives the instance's random stream from exactly
// these. Arrivals are a separate, draw-free function of the jobs' volumes,
// the platform's cores and the load ratio, so every load sees the same jobs.
//
// Generated jobs list their tasks in a topological order: every task's
// predecessors come before it.
package grid
