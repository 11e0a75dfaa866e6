package grid

import (
	"slices"

	"github.com/sweep-sched/sweep/platform"
)

// routeNode is a platform node as routing sees it: its children (nodes)
// or its cluster, and the widest cluster of every kind below it.
type routeNode struct {
	children []int32
	cluster  int32   // -1 for a router
	maxCores []int32 // per kind
}

// kindWidth stands for a job's tasks of one kind, the widest of them and
// their volume; a slice of them is a group of tasks that travels down the
// tree together. Compile lists each job's (Instance.jobKinds).
type kindWidth struct {
	kind  int32
	cores int32
	vol   int64 // core-ticks
}

func buildRoutes(in *Instance) []routeNode {
	var nodes []routeNode
	var add func(n *platform.Node) int32
	add = func(n *platform.Node) int32 {
		id := int32(len(nodes))
		nodes = append(nodes, routeNode{cluster: -1, maxCores: make([]int32, len(in.kinds))})
		if n.Cluster >= 0 {
			cl := in.Platform.Clusters[n.Cluster]
			nodes[id].cluster = int32(n.Cluster)
			for k, name := range in.kinds {
				if name == cl.Kind {
					nodes[id].maxCores[k] = int32(cl.Cores)
				}
			}
			return id
		}
		for _, c := range n.Children {
			child := add(c)
			nodes[id].children = append(nodes[id].children, child)
			for k := range nodes[id].maxCores {
				nodes[id].maxCores[k] = max(nodes[id].maxCores[k], nodes[child].maxCores[k])
			}
		}
		return id
	}
	add(in.Platform.Root)
	return nodes
}

// route assigns every kind of job j to a cluster (DESIGN.md section 3),
// s.kindCluster[i] for the job's i-th kind: at each router the whole group
// goes to the least-loaded child that can run all of it; if no child can,
// the group is split by kind and each kind goes to the least-loaded child
// that can run it. A kind's volume counts on its cluster as soon as it is
// assigned, so a later kind of the job sees it.
func (s *sim) route(j int32) {
	kinds := s.in.jobKinds[s.in.jobKindsAt[j]:s.in.jobKindsAt[j+1]]
	s.kindCluster = slices.Grow(s.kindCluster[:0], len(kinds))[:len(kinds)] // routeGroup sets each
	s.routeGroup(0, kinds, 0)
}

// routeGroup routes group, the job's kinds from the first-th on, from
// node n down.
func (s *sim) routeGroup(n int32, group []kindWidth, first int) {
	node := &s.routes[n]
	if c := node.cluster; c >= 0 {
		for i, kw := range group {
			s.kindCluster[first+i] = c
			s.clusters[c].unfinishedVol += kw.vol
		}
		return
	}
	if best := s.leastLoaded(node, group); best >= 0 {
		s.routeGroup(best, group, first)
		return
	}
	for i := range group {
		one := group[i : i+1]
		// Compile guaranteed some cluster of this kind is wide enough.
		s.routeGroup(s.leastLoaded(node, one), one, first+i)
	}
}

// leastLoaded returns the child of node that accepts the whole group with
// the smallest expected queue length, the first listed on ties; -1 if no
// child accepts it.
func (s *sim) leastLoaded(node *routeNode, group []kindWidth) int32 {
	best := int32(-1)
	var bestRem, bestCores int64
	for _, child := range node.children {
		if !accepts(&s.routes[child], group) {
			continue
		}
		rem, cores := s.queueLength(child)
		if best < 0 || cmpRatio(rem, cores, bestRem, bestCores) < 0 {
			best, bestRem, bestCores = child, rem, cores
		}
	}
	return best
}

func accepts(n *routeNode, group []kindWidth) bool {
	for _, kw := range group {
		if n.maxCores[kw.kind] < kw.cores {
			return false
		}
	}
	return true
}

// queueLength returns a node's expected queue length as the ratio
// remaining core-ticks / cores: for a cluster, its unfinished assigned work
// with running tasks counted by their remaining time; for a router, the
// smallest of its children's (the first listed on ties).
func (s *sim) queueLength(n int32) (remaining, cores int64) {
	node := &s.routes[n]
	if c := node.cluster; c >= 0 {
		cl := &s.clusters[c]
		done := s.now*cl.runningCores - cl.startWeighted
		return cl.unfinishedVol - done, int64(s.in.Platform.Clusters[c].Cores)
	}
	first := true
	for _, child := range node.children {
		r, c := s.queueLength(child)
		if first || cmpRatio(r, c, remaining, cores) < 0 {
			remaining, cores, first = r, c, false
		}
	}
	return remaining, cores
}

// clusterOf returns the cluster route chose for task g's kind.
func (s *sim) clusterOf(g int32, kinds []kindWidth) int32 {
	k := s.in.kind[g]
	for i, kw := range kinds {
		if kw.kind == k {
			return s.kindCluster[i]
		}
	}
	panic("engine: a task's kind is not among its job's")
}
