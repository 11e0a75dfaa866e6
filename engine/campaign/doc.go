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
// submission tick, from which stretch is measured. A job's
// [Job.ReleaseTicks] becomes its task's release offset: the job is
// submitted that long after its campaign. Synthetic campaigns keep the
// campaign model (every offset 0: all jobs arrive with the campaign);
// trace campaigns ([FromSWF]) release every job at its own recorded
// submit time, so no policy runs a job before its user submitted it, and
// a campaign keeps its first job's submit time as its submission.
//
// # Serialisation
//
// A campaign workload has its own JSON form (see [Workload]): users with
// an optional profile, then campaigns naming their user by index, with
// submit and think times and their jobs' execution times and release
// offsets, plus, for traces, each job's recorded start for the log
// policy. [Workload.Engine] gives the plain engine workload.
//
// # Policies
//
// fcfs serves campaigns in submission order (tick, then campaign index)
// and jobs in listed order. ostrich keeps the virtual schedule of seed 000
// Sec. IV ([VirtualSchedule]) in exact rational arithmetic and, whenever a
// processor is free, starts the next submitted job of the submitted
// campaign with the earliest virtual completion time (ties by campaign
// index); inside a campaign the order is [Options.JobOrder], shortest job
// first by default. A campaign enters the virtual schedule with all its
// work at its submission, also when its jobs are released later (the
// scheduler is taken to be clairvoyant about the campaign, as in the
// campaign model).
//
// A submitted campaign whose virtual start is still ahead (its user's
// previous campaign finished in the real schedule before it did in the
// virtual one) is held back by default ([Options.Hold] =
// [HoldVirtualStart]): no job of it starts before the first tick at or
// after its virtual start. Both papers state this rule. Seed 001 Sec. 4:
// "Additionally, OStrich does not allow a campaign to start before its
// virtual start time (s_i^u >= s̃_i^u)." Seed 000 Sec. IV-B, on its
// example: "even if her first campaign was finished in the real schedule
// at t = 5, her next campaign must wait until σ̃_2^(3) = 7 to be taken into
// account." DESIGN.md section 4 does not mention it, and without it a user
// who submits in closed loop takes more than the fair share that the
// virtual schedule grants; so the papers' rule is the default, and
// [HoldNone] (work conserving: a campaign may run before its virtual
// start, ranked by its later virtual completion) is the variant. A virtual
// start moves: later when a user arrives, earlier when another campaign
// completes virtually and k drops. The order therefore asks the virtual
// schedule for the exact start (up to the next submission) each time the
// engine asks it when to wake ([engine.Waker]); when held work is waiting
// and nothing else happens, the engine makes a pass at that tick.
//
// log replays a recorded schedule: every job starts at its own submit +
// recorded wait, whatever its release offset.
//
// # Stretch
//
// The stretch of a campaign is (completion - submission) / base, with
// the base chosen by [Options.StretchBase]; it does not depend on the
// policy, so fcfs, ostrich and log are divided by the same number.
//
//   - "alone" (the default, DESIGN.md section 4): the campaign's flow
//     time alone on the empty m-processor machine, taken as the greedy
//     list schedule of its jobs, shortest submitted job first, each
//     released at its offset ([Campaign.AloneFlowTicks]). It is 1 exactly
//     when the campaign did as well as if it had had the machine to
//     itself under ostrich's default order, and it accounts for jobs that
//     a trace submits over hours. It is a schedule, not the optimum
//     (minimising the flow time is NP-hard), so another order (LPT, the
//     log's) can do better and give a stretch below 1.
//   - "bound": seed 001's lower bound l = max(W/m, pmax), W the
//     campaign's work and pmax its longest job, with pmax generalised to
//     the latest release + exec of a job ([Campaign.BoundFlowTicks]; the
//     same when every offset is 0). No schedule beats it, so the stretch
//     is never below 1, but it overstates the stretch of a campaign that
//     cannot be packed perfectly (3 jobs of 10 on 2 processors: bound
//     15, alone 20). Seed 001 chose it because the optimum is NP-hard to
//     compute; seed 000 divides by W alone, which is not dimensionless.
//
// Both are computed exactly in integers; a stretch of exactly 1
// ([Row.Exact1]) is decided in integers too.
package campaign
