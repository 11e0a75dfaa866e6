// Package grid is sweep's discrete-event simulator for seed 004's grid:
// DAG workloads (package workload/dag) compiled against a platform (package
// platform) into instances (upward ranks, critical paths, network delays),
// routing down the platform's tree, and the online list scheduling of seed
// 004 with its ordering policies. It imports no analysis, generator or
// runner code: measures are computed from its Schedule by package
// analysis.
//
// Time is integer ticks. A simulation separates three parts so that other
// models fit without a rewrite: the release of work (Release: open-loop
// arrivals, or closed-loop campaigns), the ordering of each cluster's ready
// tasks (a policy), and the allocation rule that starts tasks from the
// ordered queue (strict head of queue). Every rule, tie-break and order of
// events within a tick follows DESIGN.md section 3, so a schedule is a pure
// function of the instance, the arrivals, the policy and the seed.
package grid
