// Package rigid owns the analysis of the rigid-job model: of its
// fair-share cells of seed 003 (Vasupongayya 2012), each trace month's
// cells read back with their per-user devs, the paper's Tables I, III/IV,
// VI/VII and IX to print beside ours, and the paper's qualitative claims
// checked against the run; of its cells on platforms of nodes (issue 34),
// each policy's utilisation per resource and its jobs' waits and
// slowdowns per partition (AnalyzeNodes).
package rigid
