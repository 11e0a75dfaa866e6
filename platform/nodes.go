package platform

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/workload/dag"
)

// A Partition is a count of identical nodes, each with Cores cores,
// MemoryMiB of memory and GPUs GPUs: a platform of nodes (issue 34) is a
// list of them, such as CPU nodes beside large-memory and GPU nodes.
type Partition struct {
	Name      string
	Nodes     int
	Cores     int   // per node
	MemoryMiB int64 // per node; 0: memory is not a resource here
	GPUs      int   // per node
}

// partitionFile is one entry of a platform file's partitions:
//
//	name: cpu-gpu
//	partitions:
//	  - {name: cpu, nodes: 2, cores: 4, memory: 8GiB}
//	  - {name: gpu, nodes: 1, cores: 8, memory: 64GiB, gpus: 4}
type partitionFile struct {
	Name   string `yaml:"name"`
	Nodes  int    `yaml:"nodes"`
	Cores  int    `yaml:"cores"`
	Memory string `yaml:"memory"`
	GPUs   int    `yaml:"gpus"`
	line   int
}

var partitionKeys = []string{"name", "nodes", "cores", "memory", "gpus"}

func (f *partitionFile) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a partition is a mapping of %s", v.Line, strings.Join(partitionKeys, ", "))
	}
	for i := 0; i < len(v.Content); i += 2 {
		k := v.Content[i]
		known := false
		for _, want := range partitionKeys {
			known = known || k.Value == want
		}
		if !known {
			return fmt.Errorf("line %d: partition field %s not found; valid fields: %s", k.Line, k.Value, strings.Join(partitionKeys, ", "))
		}
	}
	type plain partitionFile
	var p plain
	if err := v.Decode(&p); err != nil {
		return fmt.Errorf("line %d: partition: %w", v.Line, err)
	}
	*f = partitionFile(p)
	f.line = v.Line
	return nil
}

// partitions builds a platform of nodes from a file's partitions, each
// also a cluster of its nodes' cores (TotalCores, the load rule).
func partitions(name string, files []partitionFile) (*Platform, error) {
	parts := make([]Partition, len(files))
	seen := map[string]bool{}
	for i, f := range files {
		where := fmt.Sprintf("line %d: partition %q", f.line, f.Name)
		switch {
		case f.Name == "":
			return nil, fmt.Errorf("line %d: a partition has no name; want name: cpu (or any name)", f.line)
		case seen[f.Name]:
			return nil, fmt.Errorf("%s: duplicate name", where)
		case f.Nodes < 1:
			return nil, fmt.Errorf("%s: nodes %d; want >= 1", where, f.Nodes)
		case f.Cores < 1:
			return nil, fmt.Errorf("%s: cores %d per node; want >= 1", where, f.Cores)
		case f.GPUs < 0:
			return nil, fmt.Errorf("%s: gpus %d per node; want >= 0", where, f.GPUs)
		}
		seen[f.Name] = true
		mem, err := ParseMemoryMiB(f.Memory)
		if err != nil {
			return nil, fmt.Errorf("%s: memory: %w", where, err)
		}
		parts[i] = Partition{Name: f.Name, Nodes: f.Nodes, Cores: f.Cores, MemoryMiB: mem, GPUs: f.GPUs}
	}
	clusters := make([]Cluster, len(parts))
	for i, p := range parts {
		clusters[i] = Cluster{Name: p.Name, Cores: p.Nodes * p.Cores, Kind: dag.DefaultKind}
	}
	p, err := New(name, clusters)
	if err != nil {
		return nil, err
	}
	p.Partitions = parts
	return p, nil
}

// memoryUnits are the units a memory size may carry, in MiB.
var memoryUnits = []struct {
	suffix string
	mib    int64
}{{"TiB", 1 << 20}, {"GiB", 1 << 10}, {"MiB", 1}, {"TB", 1 << 20}, {"GB", 1 << 10}, {"MB", 1}, {"T", 1 << 20}, {"G", 1 << 10}, {"M", 1}}

// ParseMemoryMiB reads a memory size such as 64GiB, 512MiB or 1TiB (G, M
// and T, GB, MB and TB are read as the binary units, as Slurm does) into
// MiB; "" is 0, no memory.
func ParseMemoryMiB(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	for _, u := range memoryUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if err != nil || n < 0 || n > (1<<62)/u.mib {
			break
		}
		return n * u.mib, nil
	}
	return 0, fmt.Errorf("%q: want a whole number with a unit, such as 512MiB, 64GiB or 1TiB", s)
}

// HasNodes reports whether the platform is one of nodes (partitions)
// rather than clusters of processors.
func (p *Platform) HasNodes() bool { return len(p.Partitions) > 0 }

// canonicalPartitions renders the partitions for Canonical.
func (p *Platform) canonicalPartitions() string {
	var b strings.Builder
	b.WriteString("nodes(")
	for i, q := range p.Partitions {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%dx%dc%dm%dg", q.Name, q.Nodes, q.Cores, q.MemoryMiB, q.GPUs)
	}
	b.WriteByte(')')
	return b.String()
}

var errBothForms = errors.New("a platform file has either children (clusters and routers) or partitions (nodes), not both")
