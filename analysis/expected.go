package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The relations of an Expected value.
const (
	RelationEqual        = "="
	RelationLess         = "<"
	RelationLessEqual    = "<="
	RelationGreater      = ">"
	RelationGreaterEqual = ">="
)

// Default tolerances of an Expected number without a stated one. A paper
// reports a mean of tens of instances to two or three digits, and we draw
// other instances, so ours matches when it is within RelativeTolerance of
// the paper's value. A share (a column ending in _share, a fraction from 0
// to 1) also matches within ShareTolerance, 2 percentage points: 10% of a
// share as small as seed 001's 1.3% is 0.13 points, finer than the
// sampling noise of a few thousand campaigns.
const (
	RelativeTolerance = 0.10
	ShareTolerance    = 0.02
)

// Expected is one paper value of the manifest's expect.values: a number,
// which ours matches within a tolerance, or a bound. In YAML it is a
// number (0.423), or a string with a relation ("> 50", "< 1.4", ">= 2",
// "<= 0.04") or a number with its own absolute tolerance ("6.3 ± 0.5",
// also written "6.3 +- 0.5").
type Expected struct {
	Relation string // one of the Relation constants
	Value    float64
	// Tolerance is the absolute tolerance stated with "±"; when
	// ToleranceStated is false, ToleranceFor gives the default.
	Tolerance       float64
	ToleranceStated bool
}

// ParseExpected parses the text of an expected value (see Expected).
func ParseExpected(text string) (Expected, error) {
	s := strings.TrimSpace(text)
	for _, relation := range []string{RelationLessEqual, RelationGreaterEqual, RelationLess, RelationGreater} {
		if rest, ok := strings.CutPrefix(s, relation); ok {
			value, err := parseFinite(rest)
			if err != nil {
				return Expected{}, err
			}
			return Expected{Relation: relation, Value: value}, nil
		}
	}
	for _, sep := range []string{"±", "+-"} {
		if number, tolerance, ok := strings.Cut(s, sep); ok {
			value, err := parseFinite(number)
			if err != nil {
				return Expected{}, err
			}
			tol, err := parseFinite(tolerance)
			if err != nil || tol < 0 {
				return Expected{}, fmt.Errorf("tolerance %q: want a number >= 0", strings.TrimSpace(tolerance))
			}
			return Expected{Relation: RelationEqual, Value: value, Tolerance: tol, ToleranceStated: true}, nil
		}
	}
	value, err := parseFinite(s)
	if err != nil {
		return Expected{}, err
	}
	return Expected{Relation: RelationEqual, Value: value}, nil
}

func parseFinite(text string) (float64, error) {
	text = strings.TrimSpace(text)
	value, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(value) || math.IsInf(value, 0) {
		return 0, fmt.Errorf("%q is not a finite number", text)
	}
	return value, nil
}

// UnmarshalYAML decodes a number or a relation string.
func (e *Expected) UnmarshalYAML(node *yaml.Node) error {
	parsed, err := expectedOf(node)
	if err != nil {
		return err
	}
	*e = parsed
	return nil
}

// expectedOf parses a YAML scalar as an Expected, naming its line.
func expectedOf(node *yaml.Node) (Expected, error) {
	if node.Kind != yaml.ScalarNode {
		return Expected{}, fmt.Errorf("line %d: want a number or a relation such as \"> 50\", \"< 1.4\" or \"6.3 ± 0.5\"", node.Line)
	}
	e, err := ParseExpected(node.Value)
	if err != nil {
		return Expected{}, fmt.Errorf("line %d: %q: %v; want a number or a relation such as \"> 50\", \"< 1.4\" or \"6.3 ± 0.5\"", node.Line, node.Value, err)
	}
	return e, nil
}

// ToleranceFor returns the absolute tolerance of an "=" value of metric:
// the stated one, else RelativeTolerance of the value, widened to
// ShareTolerance for a share.
func (e Expected) ToleranceFor(metric string) float64 {
	if e.ToleranceStated {
		return e.Tolerance
	}
	tolerance := RelativeTolerance * math.Abs(e.Value)
	if strings.HasSuffix(metric, "_share") {
		tolerance = max(tolerance, ShareTolerance)
	}
	return tolerance
}

// Matches reports whether ours, a value of metric, satisfies the paper's:
// the inequality, or for a number, a distance of at most ToleranceFor. A
// NaN matches nothing.
func (e Expected) Matches(metric string, ours float64) bool {
	switch e.Relation {
	case RelationLess:
		return ours < e.Value
	case RelationLessEqual:
		return ours <= e.Value
	case RelationGreater:
		return ours > e.Value
	case RelationGreaterEqual:
		return ours >= e.Value
	}
	return math.Abs(ours-e.Value) <= e.ToleranceFor(metric)
}

// String renders the value as a manifest writes it: "0.423", "> 50",
// "6.3 ± 0.5".
func (e Expected) String() string {
	value := strconv.FormatFloat(e.Value, 'g', -1, 64)
	switch {
	case e.Relation != RelationEqual:
		return e.Relation + " " + value
	case e.ToleranceStated:
		return value + " ± " + strconv.FormatFloat(e.Tolerance, 'g', -1, 64)
	}
	return value
}

// AnyWorkload is the key of expect.values that applies to every workload
// label without its own entry for a metric and policy.
const AnyWorkload = "*"

// PaperValue returns the paper's value of metric for policy on the
// workload labelled workload: its own entry, else the AnyWorkload entry.
func (e Expectations) PaperValue(workload, metric, policy string) (Expected, bool) {
	if v, ok := e.Values[workload][metric][policy]; ok {
		return v, true
	}
	v, ok := e.Values[AnyWorkload][metric][policy]
	return v, ok
}

// ValueMetrics returns the metrics that expect.values gives for workload
// (directly or through AnyWorkload), in name order.
func (e Expectations) ValueMetrics(workload string) []string {
	var metrics []string
	for _, label := range []string{workload, AnyWorkload} {
		for metric := range e.Values[label] {
			if !slices.Contains(metrics, metric) {
				metrics = append(metrics, metric)
			}
		}
	}
	slices.Sort(metrics)
	return metrics
}

// checkValues checks expect.values: workload -> metric -> policy -> value,
// metrics among the cells table's value columns.
func checkValues(node *yaml.Node) error {
	return forEachMetric(node, "values", func(workload, metric string, policies *yaml.Node) error {
		if policies.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: expect.values.%s.%s: want a mapping of policy names", policies.Line, workload, metric)
		}
		for k := 0; k+1 < len(policies.Content); k += 2 {
			if _, err := expectedOf(policies.Content[k+1]); err != nil {
				return fmt.Errorf("expect.values.%s.%s.%s: %w", workload, metric, policies.Content[k].Value, err)
			}
		}
		return nil
	})
}

// forEachMetric walks an expect section shaped workload -> metric -> x,
// checking that the workloads and metrics are mappings, and calls check
// with each metric's x. Whether the metrics are measures is checkMetrics's
// to say.
func forEachMetric(node *yaml.Node, section string, check func(workload, metric string, x *yaml.Node) error) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: expect.%s: want a mapping of workload labels (or %q for all)", node.Line, section, AnyWorkload)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		workload, metrics := node.Content[i].Value, node.Content[i+1]
		if metrics.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: expect.%s.%s: want a mapping of metric names", metrics.Line, section, workload)
		}
		for j := 0; j+1 < len(metrics.Content); j += 2 {
			metric := metrics.Content[j]
			if err := check(workload, metric.Value, metrics.Content[j+1]); err != nil {
				return err
			}
		}
	}
	return nil
}
