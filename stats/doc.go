// Package stats holds the statistics sweep reports, each documented with
// its conventions so anyone can reuse them: the paired t-test (two-sided,
// gonum's Student t), the Wilcoxon signed-rank test (scipy 1.10's
// defaults), Wilson score intervals, dominance counts, Holm's adjustment,
// the percentile bootstrap with reproducible seeded resamples, the median
// log-ratio effect size, box plots (Tukey's 1.5 IQR) and the type 7
// quantile (numpy's default). It imports only the standard library, gonum
// and montanaflynn/stats, and knows nothing of schedules or result tables.
package stats
