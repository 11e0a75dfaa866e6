// Package rigidtrace reads a log in the Standard Workload Format as the
// rigid model's jobs and cuts it into trace months, the rigid model's
// workloads (design note fairshare.md, sections 1-2).
//
// A log is read once ([Load], [Read]) under the rigid model's rules on
// top of the SWF reader's: every job with a run time above 0 whatever its
// status, processors repaired from the request, the run time clamped to
// the requested time, a missing request replaced by the run time, and
// jobs wider than the cluster dropped ([Trace.ForCluster] for another
// cluster size). [Trace.Month] then cuts a calendar month (UTC) out of
// it: the simulation starts with the jobs of the warm-up before the
// month (a week by default, as in Vasupongayya's paper), measures the
// jobs submitted in the month, and runs on with every later job of the
// log (the cool-down), so that the month's jobs meet the load that
// followed them.
package rigidtrace
