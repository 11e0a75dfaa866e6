// Package campaign owns campaign scheduling (seeds 000 and 001, DESIGN.md
// section 4): workloads of users who submit campaigns of independent
// sequential jobs in closed loop, the policies fcfs, ostrich and log on m
// identical processors, OStrich's virtual fair-share schedule, campaign
// stretch metrics, the ostrich2013/profiles generator and campaign
// workloads built from SWF traces.
//
// # Mapping onto the engine
//
// A campaign is one engine job whose tasks are the campaign's jobs (one
// core each, kind Kind1, no edges) and whose share is the user; the
// platform is `single:m`. The engine job's arrival in [Workload.Engine] is
// the campaign's earliest allowed submit time. The closed loop is an
// [engine.Release]: a user's first campaign is submitted at its submit
// time, and campaign i+1 at max(its submit time, completion of campaign i
// + its think time). The schedule's JobArrival is therefore the real
// submission tick, from which stretch is measured.
//
// # Serialisation
//
// A campaign workload has its own JSON form (see [Workload]): users with
// an optional profile, then campaigns naming their user by index, with
// submit and think times and their jobs' execution times, plus, for traces,
// each job's recorded start for the log policy. [Workload.Engine] gives
// the plain engine workload; nothing is added to the engine's format.
//
// # Policies
//
// fcfs serves campaigns in submission order (tick, then campaign index)
// and jobs in listed order. ostrich keeps the virtual schedule of seed 000
// Sec. IV ([VirtualSchedule]) in exact rational arithmetic and, whenever a
// processor is free, starts the next job of the submitted campaign with
// the earliest virtual completion time (ties by campaign index); inside a
// campaign the order is [Options.JobOrder], shortest job first by default.
// As DESIGN.md section 4 says, the real schedule is work conserving: a
// submitted campaign whose virtual start is still in the future may run
// (with its, later, virtual completion as priority). Seed 000 additionally
// holds such a campaign back until its virtual start; that variant is not
// built, because the engine has no event at which to wake a pass at a
// virtual start that falls between real events. log replays a recorded
// schedule: every job starts at its own submit + recorded wait.
//
// # Stretch
//
// The stretch of a campaign is (completion - submission) / l with
// l = max(W/m, pmax), W the campaign's work and pmax its longest job:
// seed 001's lower bound on the campaign's flow time alone on the empty
// machine (seed 000 divides by W alone, which is not dimensionless; we
// follow seed 001 for both studies). It is 1 exactly when the campaign
// finished as early as any schedule could have on an empty machine.
package campaign
