// Package analysis owns what every model's analysis of a results directory
// shares: reading the cells table (and which models a run recorded),
// pairing the cells that differ only by policy within each replicate,
// re-basing cumulative completion, comparing each policy with the
// reference on every ranked value column (paired t-tests, Wilcoxon
// signed-rank tests, dominance with Wilson intervals, median log ratios
// with bootstrap intervals, Holm's adjustment, box plots, means per load)
// pooled and per replicate, the manifest's analysis and expect sections
// (settings, paper values, orderings), the papers' claims, and writing
// the analysis tables as Parquet. The analyses of the models (analysis/grid,
// analysis/campaign, analysis/rigid, analysis/moldable) build on it;
// package report renders them; the statistics are package stats.
package analysis
