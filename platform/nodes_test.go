package platform

import (
	"reflect"
	"strings"
	"testing"
)

// The platform of issue 34's example, read from its YAML form.
func TestPartitions(t *testing.T) {
	p, err := Parse("testdata/cpu-gpu.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Partition{{"cpu", 2, 4, 8 << 10, 0}, {"gpu", 1, 8, 64 << 10, 4}}
	if !reflect.DeepEqual(p.Partitions, want) || p.TotalCores() != 16 || !p.HasNodes() {
		t.Fatalf("partitions %+v, %d cores; want %+v, 16 cores", p.Partitions, p.TotalCores(), want)
	}
	if got := p.Canonical(); got != "nodes(cpu:2x4c8192m0g,gpu:1x8c65536m4g)" {
		t.Errorf("canonical %q", got)
	}
	if Single(4).HasNodes() {
		t.Error("single:4 has nodes")
	}
}

func TestPartitionErrors(t *testing.T) {
	for yaml, want := range map[string]string{
		"partitions:\n  - {name: a, nodes: 1, cores: 2, memory: 8 bananas}\n":                              `line 2: partition "a": memory: "8 bananas": want a whole number with a unit, such as 512MiB`,
		"partitions:\n  - {name: a, nodes: 0, cores: 2}\n":                                                 `line 2: partition "a": nodes 0; want >= 1`,
		"partitions:\n  - {name: a, nodes: 1, cores: 0}\n":                                                 `cores 0 per node; want >= 1`,
		"partitions:\n  - {name: a, nodes: 1, cores: 1, gpu: 2}\n":                                         `line 2: partition field gpu not found; valid fields: name, nodes, cores, memory, gpus`,
		"partitions:\n  - {nodes: 1, cores: 1}\n":                                                          `line 2: a partition has no name`,
		"partitions:\n  - {name: a, nodes: 1, cores: 1}\n  - {name: a, nodes: 1, cores: 1}\n":              `line 3: partition "a": duplicate name`,
		"partitions:\n  - {name: a, nodes: 1, cores: 1}\nchildren:\n  - {cluster: c, cores: 1, kind: K}\n": "not both",
	} {
		if _, err := Decode([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", yaml, err, want)
		}
	}
}

func TestParseMemoryMiB(t *testing.T) {
	for s, want := range map[string]int64{"": 0, "512MiB": 512, "64GiB": 65536, "1TiB": 1 << 20, "2G": 2048, "3M": 3} {
		if got, err := ParseMemoryMiB(s); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"64", "GiB", "-1GiB", "1.5GiB", "9999999999999TiB"} {
		if _, err := ParseMemoryMiB(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}
