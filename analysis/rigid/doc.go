// Package rigid owns the analysis of the rigid-job fair-share model of
// seed 003 (Vasupongayya 2012): each trace month's cells read back with
// their per-user devs, the paper's Tables I, III/IV, VI/VII and IX to
// print beside ours, and the paper's qualitative claims checked against
// the run.
package rigid
