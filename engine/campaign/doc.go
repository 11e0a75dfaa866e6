// Package campaign owns campaign scheduling (seeds 000 and 001, DESIGN.md
// section 4): the policies fcfs, ostrich and log on m identical
// processors for the campaign workloads of package workload/campaign
// (users who submit campaigns of independent sequential jobs in closed
// loop), and OStrich's virtual fair-share schedule. The generator
// ostrich2013/profiles and the trace campaigns are in gen/campaign.
//
// # Mapping onto the engine
//
// A campaign is one engine job whose tasks are the campaign's jobs (one
// core each, kind Kind1, no edges) and whose share is the user; the
// platform is `single:m`. The engine job's arrival in [campaign.Workload.DAG] is
// the campaign's earliest allowed submit time. The closed loop is an
// [engine.Release]: a user's first campaign is submitted at its submit
// time, and campaign i+1 at max(its submit time, completion of campaign i
// + its think time). The schedule's JobArrival is therefore the real
// submission tick, from which stretch is measured. Replaying a trace, the
// closed loop carries a delay forward but never gains: a campaign that
// completes later than in the log delays the user's next one, while one
// that completes earlier cannot bring the next before its logged submit
// time. [Options.Loop] = [LoopOpen] instead submits every campaign at its
// submit time. A job's
// ReleaseTicks becomes its task's release offset: the job is
// submitted that long after its campaign. Synthetic campaigns keep the
// campaign model (every offset 0: all jobs arrive with the campaign);
// trace campaigns (gen/campaign) release every job at its own recorded
// submit time, so no policy runs a job before its user submitted it, and
// a campaign keeps its first job's submit time as its submission.
//
// # Serialisation
//
// The campaign workload's JSON form is package workload/campaign's;
// [Compile] turns it into the engine instance that [Simulate] runs.
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
// # Measures
//
// Campaign stretch and the papers' figures of merit are measures, not
// scheduling: they live in package analysis (CampaignRows, with the
// stretch bases "bound", "bound-release" and "alone" documented there), so that this
// simulator depends on no analysis code.
package campaign
