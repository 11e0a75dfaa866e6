// Package grid owns the analysis of seed 004's DAG model (Burkimsher et
// al. 2013) beyond the paired comparison of package analysis: Tables 3
// and 4 (dominance beside the paper's values), the SLR by job-volume
// decile (Fig. 7) and each policy's worst cell, which the report draws as
// a Gantt chart.
package grid
