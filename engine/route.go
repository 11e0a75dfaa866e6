package engine

import "github.com/sweep-sched/sweep/platform"

// routeNode is a platform node as routing sees it: its children (nodes)
// or its cluster, and the widest cluster of every kind below it.
type routeNode struct {
	children []int32
	cluster  int32   // -1 for a router
	maxCores []int32 // per kind
}

// kindWidth stands for a job's tasks of one kind and the widest of them;
// a slice of them is a group of tasks that travels down the tree together.
type kindWidth struct {
	kind  int32
	cores int32
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

// route assigns every task of job j to a cluster (DESIGN.md section 3): at
// each router the whole group goes to the least-loaded child that can run
// all of it; if no child can, the group is split by kind and each kind goes
// to the least-loaded child that can run it.
func (s *sim) route(j int32) {
	in := s.in
	group := s.groupBuf[:0]
	first, end := in.jobFirst[j], in.jobFirst[j+1]
	for g := first; g < end; g++ {
		k, c := in.kind[g], in.task[g].cores
		found := false
		for i := range group {
			if group[i].kind == k {
				group[i].cores = max(group[i].cores, c)
				found = true
				break
			}
		}
		if !found {
			group = append(group, kindWidth{k, c})
		}
	}
	s.groupBuf = group
	s.routeGroup(0, group, j)
}

func (s *sim) routeGroup(n int32, group []kindWidth, j int32) {
	node := &s.routes[n]
	if node.cluster >= 0 {
		s.assign(node.cluster, group, j)
		return
	}
	if best := s.leastLoaded(node, group); best >= 0 {
		s.routeGroup(best, group, j)
		return
	}
	for i := range group {
		one := group[i : i+1]
		// Compile guaranteed some cluster of this kind is wide enough.
		s.routeGroup(s.leastLoaded(node, one), one, j)
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

func (s *sim) assign(c int32, group []kindWidth, j int32) {
	in := s.in
	first, end := in.jobFirst[j], in.jobFirst[j+1]
	for g := first; g < end; g++ {
		for _, kw := range group {
			if in.kind[g] == kw.kind {
				s.cluster[g] = c
				s.clusters[c].unfinishedVol += in.task[g].exec * int64(in.task[g].cores)
				break
			}
		}
	}
}
