package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// A SectionAliaser is a Model whose settings section also answers to
// other top-level keys: the names it had before a rename, so that every
// manifest written with them runs unchanged and gives the same cells. A
// manifest gives the section under one of its keys, not two.
type SectionAliaser interface {
	// SectionAliases lists the other keys of the model's section.
	SectionAliases() []string
}

// SectionKeys returns the top-level manifest keys of m's section: its
// Section, then its aliases; none for a model without a section.
func SectionKeys(m Model) []string {
	s := m.Section()
	if s == "" {
		return nil
	}
	keys := []string{s}
	if a, ok := m.(SectionAliaser); ok {
		keys = append(keys, a.SectionAliases()...)
	}
	return keys
}

// DecodeSection decodes a model's manifest section into v (a pointer to a
// struct with yaml tags), refusing a key not listed with its line and the
// valid keys: decoding inside a yaml.Node does not inherit a decoder's
// strictness.
func DecodeSection(section *yaml.Node, v any, keys ...string) error {
	if section.Kind != yaml.MappingNode {
		return fmt.Errorf("want a mapping with keys %s", strings.Join(keys, ", "))
	}
	for i := 0; i < len(section.Content); i += 2 {
		if k := section.Content[i]; !slices.Contains(keys, k.Value) {
			return fmt.Errorf("line %d: unknown key %q; valid keys: %s", k.Line, k.Value, strings.Join(keys, ", "))
		}
	}
	return section.Decode(v)
}

// PoliciesOf lists named policies that take no parameters, with their
// one-line docs, in the order of names.
func PoliciesOf(names []string, docs map[string]string) []Policy {
	out := make([]Policy, len(names))
	for i, name := range names {
		out[i] = Policy{Name: name, Doc: docs[name]}
	}
	return out
}

// ReadWorkloadFile reads a workload file that takes no reading options,
// for a FileReader: its bytes, and its identity for cell ids ("file
// sha256=..."). kind names the format in messages.
func ReadWorkloadFile(path, kind string, options map[string]string) (data []byte, canon string, err error) {
	if len(options) > 0 {
		return nil, "", InputError{Err: fmt.Errorf("%s: a %s file takes no options; got %v", path, kind, slices.Sorted(maps.Keys(options)))}
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, "", InputError{Err: err}
	}
	sum := sha256.Sum256(data)
	return data, "file sha256=" + hex.EncodeToString(sum[:]), nil
}
