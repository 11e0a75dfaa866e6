// Package analysis owns what sweep measures and concludes: the per-job and
// per-schedule metrics of a simulated schedule (seed 004 Sec. 3.1), the
// campaign measures of seeds 000 and 001 (stretch with its bases, the
// papers' figures of merit), the paired statistics that compare policies
// (t-tests, dominance, box plots, confidence intervals), and the analysis of a run's results directory:
// pairing its cells across policies, re-basing cumulative completion,
// writing the analysis tables as Parquet and printing them beside the
// paper's values from the manifest's `expect` section.
package analysis
