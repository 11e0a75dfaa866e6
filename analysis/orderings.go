package analysis

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// An Ordering is a claim of the manifest's expect.orderings: a figure's
// mean under policy Left stands in Relation (<, <=, >, >=) to its mean
// under policy Right. In YAML it is a string, "ostrich < log". A paper's
// claim that one policy beats another is an ordering, and it can hold
// where the paper's own numbers are out of reach (seed 000's trimmed mean,
// DESIGN.md section 4).
type Ordering struct {
	Left, Relation, Right string
}

// Orderings are the orderings of one figure: a string or a list of them
// in YAML.
type Orderings []Ordering

// ParseOrdering parses "A < B" (or <=, >, >=): two policy names around a
// relation.
func ParseOrdering(text string) (Ordering, error) {
	fields := strings.Fields(text)
	relations := []string{RelationLess, RelationLessEqual, RelationGreater, RelationGreaterEqual}
	if len(fields) != 3 || !slices.Contains(relations, fields[1]) || fields[0] == fields[2] {
		return Ordering{}, fmt.Errorf("%q: want two different policies around one of %s, such as \"ostrich < log\"", text, strings.Join(relations, " "))
	}
	return Ordering{Left: fields[0], Relation: fields[1], Right: fields[2]}, nil
}

// String renders the ordering as a manifest writes it.
func (o Ordering) String() string { return o.Left + " " + o.Relation + " " + o.Right }

// Holds reports whether left and right, the figure's means under Left and
// Right, stand in the ordering's relation; a NaN holds nothing.
func (o Ordering) Holds(left, right float64) bool {
	switch o.Relation {
	case RelationLess:
		return left < right
	case RelationLessEqual:
		return left <= right
	case RelationGreater:
		return left > right
	case RelationGreaterEqual:
		return left >= right
	}
	return false
}

// UnmarshalYAML decodes one ordering string or a list of them.
func (o *Orderings) UnmarshalYAML(node *yaml.Node) error {
	items := []*yaml.Node{node}
	if node.Kind == yaml.SequenceNode {
		items = node.Content
	}
	var out Orderings
	for _, item := range items {
		if item.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: want an ordering such as \"ostrich < log\", or a list of them", item.Line)
		}
		ordering, err := ParseOrdering(item.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", item.Line, err)
		}
		out = append(out, ordering)
	}
	*o = out
	return nil
}

// checkOrderings checks expect.orderings: workload -> metric -> orderings,
// metrics among the cells table's value columns.
func checkOrderings(node *yaml.Node) error {
	return forEachMetric(node, "orderings", func(workload, metric string, x *yaml.Node) error {
		var o Orderings
		if err := o.UnmarshalYAML(x); err != nil {
			return fmt.Errorf("expect.orderings.%s.%s: %w", workload, metric, err)
		}
		return nil
	})
}

// OrderingMetrics returns the metrics that expect.orderings names for
// workload (directly or through AnyWorkload), in name order.
func (e Expectations) OrderingMetrics(workload string) []string {
	var metrics []string
	for _, label := range []string{workload, AnyWorkload} {
		for metric := range e.Orderings[label] {
			if !slices.Contains(metrics, metric) {
				metrics = append(metrics, metric)
			}
		}
	}
	slices.Sort(metrics)
	return metrics
}
