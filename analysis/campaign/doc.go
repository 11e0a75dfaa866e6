// Package campaign owns the analysis of the campaign model of seeds 000
// (OStrich on the LPC-EGEE trace) and 001 (OStrich on synthetic users)
// beyond the paired comparison of package analysis: the papers' figures
// of merit beside their values, the orderings a manifest expects,
// campaign-by-campaign comparisons with bootstrap intervals, per-user
// median stretch, and the campaign samples the report plots.
package campaign
