package engine

// Predecessors returns the tasks that global task g waits for, as global
// task indices; the slice belongs to the instance and must not be changed.
func (in *Instance) Predecessors(g int) []int32 {
	return in.pred[in.predAt[g]:in.predAt[g+1]]
}

// EdgeDelay returns the network delay, in ticks, of an edge from global
// task g to a successor on another cluster (DESIGN.md section 3); an edge
// within one cluster has none.
func (in *Instance) EdgeDelay(g int) int64 { return in.delayOut[g] }
