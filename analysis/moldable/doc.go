// Package moldable owns the analysis of seed 002's moldable-task model
// (Dutot et al. 2004): the C_max and minsum ratios over their lower
// bounds averaged per workload, number of tasks and algorithm, the run
// times, and the text's claims checked against a run.
package moldable
