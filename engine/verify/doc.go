// Package verify checks schedules independently of the simulators that
// made them. A check re-derives from a finished schedule alone, without the
// simulator's data structures, that it obeys its model's rules: every task
// ran exactly once, no cluster ran more cores than it has, no task started
// before it was released or its predecessors finished, and the policy's
// order was followed.
//
// [Schedule] checks the schedules of package engine/grid (DAG schedules under
// grid.Policies) and of package engine/campaign (fcfs, ostrich, log);
// [Rigid] the rigid-job schedules of engine/backfill; [Moldable] the
// moldable-task schedules of engine/moldable. The runner checks every
// schedule it measures where the check costs little beside the simulation,
// and the simulators' tests check theirs; engine/enginetest wraps
// [Schedule] for tests.
package verify
