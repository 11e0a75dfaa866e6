// Package platform defines where work runs: a tree of routers over clusters
// of identical cores of one architecture kind (DESIGN.md section 3), the
// presets `burkimsher2013` and `single:N`, and the YAML platform file.
//
// It is a leaf contract shared by the manifest (sweep), the generators'
// load-ratio rule (gen) and the simulator (engine), which routes jobs down
// the tree.
package platform
