// Package analysis owns what sweep measures and concludes: the per-job and
// per-schedule metrics of a simulated schedule (seed 004 Sec. 3.1), the
// campaign measures of seeds 000 and 001 (stretch with its bases, the
// papers' figures of merit), the statistics that compare policies (paired
// t-tests, Wilcoxon signed-rank tests, dominance with Wilson intervals,
// median log ratios with percentile bootstrap intervals, Holm's
// adjustment, box plots, t intervals of means), and the analysis of a
// run's results directory: pairing its cells across policies within each
// replicate, re-basing cumulative completion, repeating the comparisons
// per replicate, writing the analysis tables as Parquet and printing them
// beside the paper's values from the manifest's `expect` section.
package analysis
