// Package campaign builds the campaign model's workloads (seeds 000/001):
// from a log in the Standard Workload Format, each user's jobs grouped
// into campaigns by the MAX rule and replayed with the user's recorded
// think times (LoadTrace, FromJobs), and the synthetic generator
// ostrich2013/profiles of short and long users (GenerateProfiles).
//
// # Campaigns
//
// [Detect] groups each user's jobs with the MAX rule of Emeras,
// Pinheiro, Rzadca and Trystram (seed 000, after Feitelson): taking the
// user's jobs by submit time, a job joins the current campaign when it is
// submitted strictly before the latest finish time, in the log, of the
// campaign's jobs (submit + wait + run); otherwise it opens a new one.
//
// A generated workload depends only on the root seed, the parameters in
// canonical form and the instance number, through grid.InstanceSeed like
// every other sweep generator.
package campaign
