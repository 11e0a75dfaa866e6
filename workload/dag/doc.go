// Package dag defines the DAG workload, sweep's main input contract:
// jobs that are DAGs of tasks with execution times, core counts and
// architecture kinds, and their JSON file format (DESIGN.md section 6),
// which `sweep gen` writes and `sweep simulate` reads.
//
// It is a leaf: the generators (gen/grid, gen/wfcommons) produce
// workloads and the simulator (engine/grid) compiles them, without
// depending on each other.
// Validation locates every problem by job, task and field (Error) and
// rejects values whose ticks or core-ticks would overflow 64 bits.
package dag
