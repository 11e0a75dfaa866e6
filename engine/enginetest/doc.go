// Package enginetest provides schedule validators for tests of sweep's
// simulators, as net/http/httptest provides servers for tests of HTTP
// code. A validator re-derives from a finished schedule alone, and
// independently of the simulator's data structures, that it obeys the
// model's rules: every task ran exactly once, no cluster ran more cores
// than it has, no task started before it was released or its predecessors
// finished, and the policy's order was followed.
//
// [Validate] and [CheckSchedule] check the schedules of package engine
// (Simulate's DAG schedules under engine.Policies) and of package
// engine/campaign (fcfs, ostrich, log). Each model adds its own file here
// for its own schedules.
package enginetest
