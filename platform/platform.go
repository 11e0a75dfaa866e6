package platform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/workload/dag"
)

// A Platform is a tree of routers whose leaves are clusters (DESIGN.md
// section 3). Jobs are routed down the tree from the root at arrival.
type Platform struct {
	Name     string
	Root     *Node
	Clusters []Cluster // the leaves in tree order (depth first, as listed)
	// Partitions, when set, make the platform one of nodes (nodes.go):
	// each partition is also the cluster of its nodes' cores.
	Partitions []Partition
}

// A Cluster is a leaf of the platform: Cores cores of one architecture Kind.
type Cluster struct {
	Name  string
	Cores int
	Kind  string
}

// A Node is a router (Children set, Cluster < 0) or a cluster (a leaf,
// Cluster indexes Platform.Clusters).
type Node struct {
	Name     string
	Children []*Node
	Cluster  int
}

// TotalCores returns the number of cores over all clusters, the C of the
// load-ratio arrival rule.
func (p *Platform) TotalCores() int {
	n := 0
	for _, c := range p.Clusters {
		n += c.Cores
	}
	return n
}

// Presets lists the platform names that Parse accepts besides files.
func Presets() []string { return []string{"burkimsher2013", "single:N"} }

// IsPreset reports whether spec names a preset rather than a file; a
// malformed preset such as single:0 is still a preset, which Parse
// refuses.
func IsPreset(spec string) bool {
	return spec == "burkimsher2013" || strings.HasPrefix(spec, "single:")
}

// Parse returns the platform a specification names: a preset
// (`burkimsher2013`, `single:N`) or the path of a platform file.
func Parse(spec string) (*Platform, error) {
	switch {
	case spec == "burkimsher2013":
		return Burkimsher2013(), nil
	case strings.HasPrefix(spec, "single:"):
		n, err := strconv.Atoi(strings.TrimPrefix(spec, "single:"))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("platform %q: want single:N with N a whole number of cores >= 1", spec)
		}
		return Single(n), nil
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("platform %q: not a preset (%s) and no such file", spec, strings.Join(Presets(), ", "))
		}
		return nil, fmt.Errorf("platform %q: %w", spec, err)
	}
	p, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("platform file %s: %w", spec, err)
	}
	return p, nil
}

// Burkimsher2013 returns the platform of seed 004: one router over clusters
// c1, c2, c3 of 1000 Kind1 cores and c4 of 1000 Kind2 cores.
func Burkimsher2013() *Platform {
	p, err := New("burkimsher2013", []Cluster{
		{"c1", 1000, "Kind1"}, {"c2", 1000, "Kind1"}, {"c3", 1000, "Kind1"}, {"c4", 1000, "Kind2"},
	})
	if err != nil {
		panic(err) // a constant platform
	}
	return p
}

// Single returns a platform of one cluster c1 with n Kind1 cores.
func Single(n int) *Platform {
	p, err := New(fmt.Sprintf("single:%d", n), []Cluster{{"c1", n, dag.DefaultKind}})
	if err != nil {
		panic(err)
	}
	return p
}

// New returns a platform of one router over the given clusters.
func New(name string, clusters []Cluster) (*Platform, error) {
	root := &Node{Name: "root", Cluster: -1}
	for i := range clusters {
		root.Children = append(root.Children, &Node{Name: clusters[i].Name, Cluster: i})
	}
	p := &Platform{Name: name, Root: root, Clusters: append([]Cluster(nil), clusters...)}
	return p, p.validate()
}

func (p *Platform) validate() error {
	if len(p.Clusters) == 0 {
		return errors.New("no clusters; want at least one")
	}
	seen := map[string]bool{}
	for _, c := range p.Clusters {
		if c.Name == "" {
			return errors.New("a cluster has no name")
		}
		if seen[c.Name] {
			return fmt.Errorf("cluster %q: duplicate name", c.Name)
		}
		seen[c.Name] = true
		if c.Cores < 1 {
			return fmt.Errorf("cluster %q: cores %d; want >= 1", c.Name, c.Cores)
		}
		if c.Kind == "" {
			return fmt.Errorf("cluster %q: no kind; want an architecture name such as Kind1", c.Name)
		}
	}
	return nil
}

// platformFile is the YAML (or JSON) form of a platform:
//
//	name: mygrid
//	children:
//	  - {cluster: c1, cores: 1000, kind: Kind1}
//	  - router: east
//	    children:
//	      - {cluster: c2, cores: 500, kind: Kind2}
type platformFile struct {
	Name       string          `yaml:"name"`
	Children   []nodeFile      `yaml:"children"`
	Partitions []partitionFile `yaml:"partitions"`
}

type nodeFile struct {
	Router   string     `yaml:"router"`
	Children []nodeFile `yaml:"children"`
	Cluster  string     `yaml:"cluster"`
	Cores    int        `yaml:"cores"`
	Kind     string     `yaml:"kind"`
	line     int
}

func (n *nodeFile) UnmarshalYAML(v *yaml.Node) error {
	// Decoding inside UnmarshalYAML does not inherit KnownFields, so the
	// keys are checked here.
	if v.Kind == yaml.MappingNode {
		for i := 0; i < len(v.Content); i += 2 {
			switch k := v.Content[i]; k.Value {
			case "router", "children", "cluster", "cores", "kind":
			default:
				return fmt.Errorf("line %d: field %s not found; valid fields: router, children, cluster, cores, kind", k.Line, k.Value)
			}
		}
	}
	type plain nodeFile
	var p plain
	if err := v.Decode(&p); err != nil {
		return err
	}
	*n = nodeFile(p)
	n.line = v.Line
	return nil
}

// Decode parses a platform file (YAML or JSON). Unknown keys are
// errors naming their line.
func Decode(data []byte) (*Platform, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f platformFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w (want keys name and children, each child either {cluster, cores, kind} or {router, children}; or name and partitions, each {name, nodes, cores, memory, gpus})", err)
	}
	if len(f.Partitions) > 0 {
		if len(f.Children) > 0 {
			return nil, errBothForms
		}
		name := f.Name
		if name == "" {
			name = "file"
		}
		return partitions(name, f.Partitions)
	}
	p := &Platform{Name: f.Name, Root: &Node{Name: "root", Cluster: -1}}
	if p.Name == "" {
		p.Name = "file"
	}
	var build func(parent *Node, children []nodeFile) error
	build = func(parent *Node, children []nodeFile) error {
		for i := range children {
			c := &children[i]
			switch {
			case c.Cluster != "" && c.Router == "" && len(c.Children) == 0:
				parent.Children = append(parent.Children, &Node{Name: c.Cluster, Cluster: len(p.Clusters)})
				p.Clusters = append(p.Clusters, Cluster{Name: c.Cluster, Cores: c.Cores, Kind: c.Kind})
				if c.Cores < 1 {
					return fmt.Errorf("line %d: cluster %q: cores %d; want >= 1", c.line, c.Cluster, c.Cores)
				}
			case c.Router != "" && c.Cluster == "" && len(c.Children) > 0:
				r := &Node{Name: c.Router, Cluster: -1}
				parent.Children = append(parent.Children, r)
				if err := build(r, c.Children); err != nil {
					return err
				}
			default:
				return fmt.Errorf("line %d: want either {cluster, cores, kind} or {router, children} with at least one child", c.line)
			}
		}
		return nil
	}
	if err := build(p.Root, f.Children); err != nil {
		return nil, err
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// Canonical returns the platform's structure as text (routers, clusters,
// cores, kinds in tree order): equal texts mean equal platforms, whatever
// file or preset they came from.
func (p *Platform) Canonical() string {
	if p.HasNodes() {
		return p.canonicalPartitions()
	}
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Cluster >= 0 {
			c := p.Clusters[n.Cluster]
			fmt.Fprintf(&b, "%s:%d:%s", c.Name, c.Cores, c.Kind)
			return
		}
		fmt.Fprintf(&b, "%s(", n.Name)
		for i, child := range n.Children {
			if i > 0 {
				b.WriteByte(',')
			}
			walk(child)
		}
		b.WriteByte(')')
	}
	walk(p.Root)
	return b.String()
}
