package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/internal/suggest"
)

// WorkloadSpec is one entry of a manifest's workloads: the keys every
// model reads, and the model's own keys in Options.
type WorkloadSpec struct {
	// Label names the workload in results; default: the preset name
	// without its family prefix ("log-independent"), or the trace file's
	// name up to its first dot.
	Label     string            `yaml:"label"`
	Generator string            `yaml:"generator,omitempty"`
	Instances int               `yaml:"instances,omitempty"`
	Set       map[string]string `yaml:"set,omitempty"`
	// Trace is a workload log (path relative to the manifest) replayed
	// instead of a generator.
	Trace string `yaml:"trace,omitempty"`
	// Options are the keys of the model that takes the entry (window,
	// replay, months, estimates, ...), each decoded by that model.
	Options map[string]*yaml.Node `yaml:",inline"`

	// Line is the entry's line in the manifest, for messages.
	Line int `yaml:"-"`
}

// CommonKeys are the workload-entry keys every model reads.
var CommonKeys = []string{"label", "generator", "instances", "set", "trace"}

// UnmarshalYAML records the entry's line and keeps the keys beyond
// CommonKeys for the model that takes the entry.
func (w *WorkloadSpec) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: workloads: want a mapping such as {generator: PRESET, instances: N}", v.Line)
	}
	type plain struct {
		Label     string            `yaml:"label"`
		Generator string            `yaml:"generator"`
		Instances int               `yaml:"instances"`
		Set       map[string]string `yaml:"set"`
		Trace     string            `yaml:"trace"`
	}
	common := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: v.Line, Column: v.Column}
	w.Options = nil
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if slices.Contains(CommonKeys, k.Value) {
			common.Content = append(common.Content, k, val)
			continue
		}
		if w.Options == nil {
			w.Options = map[string]*yaml.Node{}
		}
		w.Options[k.Value] = val
	}
	if err := checkInstances(common); err != nil {
		return err
	}
	var p plain
	if err := common.Decode(&p); err != nil {
		return err
	}
	w.Label, w.Generator, w.Instances, w.Set, w.Trace = p.Label, p.Generator, p.Instances, p.Set, p.Trace
	w.Line = v.Line
	return nil
}

// checkInstances refuses an instances value that is not a whole number,
// naming the field (the YAML decoder would name only a Go type).
func checkInstances(common *yaml.Node) error {
	for i := 0; i+1 < len(common.Content); i += 2 {
		k, v := common.Content[i], common.Content[i+1]
		var n int
		if k.Value == "instances" && v.Decode(&n) != nil {
			return fmt.Errorf("line %d: workloads: instances: %q; want a whole number >= 1 (the generator's instances, each its own cells)", v.Line, v.Value)
		}
	}
	return nil
}

// OneTrace checks a trace entry, which is one workload: it refuses
// instances above 1 (cells says what the trace's cells are, as in ", its
// months the cells", or is empty) and set, which applies to generators,
// and sets Instances to 1.
func (w *WorkloadSpec) OneTrace(cells string) error {
	if w.Instances > 1 {
		return fmt.Errorf("instances %d: a trace is one workload%s; want 1 (or leave it out)", w.Instances, cells)
	}
	if len(w.Set) > 0 {
		return fmt.Errorf("set applies to generators, not traces")
	}
	w.Instances = 1
	return nil
}

// CheckOptions refuses an option key that is not among the model's keys,
// naming its line and the valid keys.
func (w *WorkloadSpec) CheckOptions(modelKeys ...string) error {
	for _, key := range w.OptionKeys() {
		if !slices.Contains(modelKeys, key) {
			valid := append(slices.Clone(CommonKeys), modelKeys...)
			return fmt.Errorf("line %d: workloads: key %q does not apply to this workload%s; valid keys: %s", w.Options[key].Line, key, suggest.DidYouMean(key, valid), strings.Join(valid, ", "))
		}
	}
	return nil
}

// OptionKeys returns the entry's option keys, sorted.
func (w *WorkloadSpec) OptionKeys() []string {
	keys := make([]string, 0, len(w.Options))
	for k := range w.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Option decodes the option key into v (a pointer), with strict keys; it
// reports whether the entry has the key.
func (w *WorkloadSpec) Option(key string, v any) (bool, error) {
	node, ok := w.Options[key]
	if !ok {
		return false, nil
	}
	if err := node.Decode(v); err != nil {
		return true, fmt.Errorf("%s: %w", key, err)
	}
	return true, nil
}

// ApplySet applies the entry's `set` parameters through set, in key
// order, so that errors come in a stable order; an error names the
// parameter.
func (w *WorkloadSpec) ApplySet(set func(key, value string) error) error {
	for _, key := range slices.Sorted(maps.Keys(w.Set)) {
		if err := set(key, w.Set[key]); err != nil {
			return fmt.Errorf("set: %w", err)
		}
	}
	return nil
}

// ReadHashed reads r with read and returns the hex SHA-256 of all of r,
// what read left unread included: a source parses its input file and
// fingerprints it in one pass.
func ReadHashed(r io.Reader, read func(io.Reader) error) (string, error) {
	h := sha256.New()
	if err := read(io.TeeReader(r, h)); err != nil {
		return "", err
	}
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("reading to hash: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
