// Package report owns the rendering of a run's analysis, which the
// packages under analysis compute: the text `sweep analyze` prints (the
// papers' tables beside their values, notes on what was left out) and the
// HTML page of `sweep report`. The page has, for grid runs, seed 004's
// Tables 3 and 4 beside the paper's values, the mean worst-case SLR per
// load and its figures; for campaign runs, the figures of merit of seeds
// 000 and 001 beside the papers' values, the distribution of campaign
// stretch and the per-user max stretch by profile; for moldable and
// fair-share runs, seeds 002 and 003's figures; all drawn with gonum/plot
// as inline SVG, in one self-contained page that opens offline.
package report
