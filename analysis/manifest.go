package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/store/table"

	"gopkg.in/yaml.v3"
)

// Defaults of Settings' zero fields: seed 004 compares every policy with
// Projected-SLR at the 5% level (Sec. 4.2).
const (
	DefaultReference = "pslr"
	DefaultAlpha     = 0.05
)

// Settings is the `analysis` section of a manifest:
//
//	analysis:
//	  reference: pslr   # the policy every other is compared with
//	  alpha: 0.05       # significance level of the paired t-tests
//	  base: 250000000   # fixed cumulative-completion base, in ticks
//	  adjust: holm      # adjust p-values for multiple comparisons: none | holm
//
// Every key is optional. Without base, cumulative completion is compared at
// one base per pair group: the largest makespan among its policies
// (DESIGN.md section 3). With adjust: holm, the p-values of each table's
// comparisons are Holm-adjusted (see AdjustHolm) and significance is read
// from the adjusted values.
type Settings struct {
	Reference string  `yaml:"reference"`
	Alpha     float64 `yaml:"alpha"`
	// BaseTicks, when set, is the cumulative-completion base of every cell.
	BaseTicks *int64 `yaml:"base"`
	// Adjust is the multiple-comparison adjustment, AdjustNone or
	// AdjustHolm; empty means AdjustNone.
	Adjust string `yaml:"adjust"`
}

// The values of Settings.Adjust.
const (
	AdjustNone = "none"
	AdjustHolm = "holm"
)

// WithDefaults returns s with its zero fields set to the defaults.
func (s Settings) WithDefaults() Settings {
	if s.Reference == "" {
		s.Reference = DefaultReference
	}
	if s.Alpha == 0 {
		s.Alpha = DefaultAlpha
	}
	if s.Adjust == "" {
		s.Adjust = AdjustNone
	}
	return s
}

// Validate reports a setting that cannot be used, after WithDefaults.
func (s Settings) Validate() error {
	if s.Reference == "" {
		return errors.New("reference: empty; name a policy, e.g. pslr")
	}
	if !(s.Alpha > 0 && s.Alpha < 1) {
		return fmt.Errorf("alpha: %v is not strictly between 0 and 1 (e.g. 0.05)", s.Alpha)
	}
	if s.Adjust != AdjustNone && s.Adjust != AdjustHolm {
		return fmt.Errorf("adjust: %q; want %s or %s", s.Adjust, AdjustNone, AdjustHolm)
	}
	if s.BaseTicks != nil && *s.BaseTicks < 0 {
		return fmt.Errorf("base: %d ticks; want >= 0, or leave it out for the largest makespan of each pair group", *s.BaseTicks)
	}
	return nil
}

// UnmarshalYAML decodes the section, rejecting unknown keys with their line
// (decoding inside UnmarshalYAML does not inherit a decoder's KnownFields).
func (s *Settings) UnmarshalYAML(node *yaml.Node) error {
	if err := checkKeys(node, "analysis", "reference", "alpha", "base", "adjust"); err != nil {
		return err
	}
	type plain Settings
	var p plain
	if err := node.Decode(&p); err != nil {
		return err
	}
	if p.Alpha != 0 || p.Reference != "" || p.BaseTicks != nil || p.Adjust != "" {
		if err := Settings(p).WithDefaults().Validate(); err != nil {
			return fmt.Errorf("line %d: analysis: %w", node.Line, err)
		}
	}
	*s = Settings(p)
	return nil
}

// SectionsCheck returns the check of a manifest's analysis and expect
// sections against the measures of the registry's models: a
// sweep.SectionsCheck, which the commands pass to the manifest loader,
// since the runner does not read these sections.
func SectionsCheck(measures []table.Measure) func(analysis, expect *yaml.Node, policies []string) error {
	return func(analysis, expect *yaml.Node, policies []string) error {
		if err := CheckSections(analysis, expect, policies); err != nil || expect == nil {
			return err
		}
		return checkMetrics(expect, measures)
	}
}

// CheckSections validates a manifest's analysis and expect sections (nil
// when absent) against its policies: the reference must be one of them.
// The metrics of the expect section are SectionsCheck's to check.
func CheckSections(analysis, expect *yaml.Node, policies []string) error {
	var s Settings
	if analysis != nil {
		if err := analysis.Decode(&s); err != nil {
			return err
		}
		if s.Reference != "" && !slices.Contains(policies, s.Reference) {
			return fmt.Errorf("line %d: analysis: reference %q is not in policies (%s)", analysis.Line, s.Reference, strings.Join(policies, ", "))
		}
	}
	if expect != nil {
		var e Expectations
		if err := expect.Decode(&e); err != nil {
			return err
		}
	}
	return nil
}

// Expectations is the `expect` section of a manifest: the paper's values
// that `sweep analyze` prints beside ours. Dominance percentages are those
// of the reference policy (Settings.Reference) dominating each other
// policy; values are figures of merit of campaign workloads (Expected).
//
//	expect:
//	  dominance:              # metric -> policy -> load -> percent
//	    slr_max:              # seed 004 Table 3
//	      lrtf: {0.8: 96, 0.9: 100, 1.0: 100, 1.1: 100, 1.2: 100}
//	  nonsignificant:         # metric -> policy -> loads where the paper
//	    slr_max:              # finds no significant difference (its bold cells)
//	      srtf: [0.8, 0.9, 1.0, 1.1, 1.2]
//	  values:                 # workload label (or "*": all) -> metric -> policy -> value
//	    users10:
//	      short_user_max_stretch_mean: {fcfs: "> 50", ostrich: 12.8}
//	  orderings:              # workload label (or "*") -> metric -> "A < B" or a list of them
//	    lpc-egee:
//	      campaign_stretch_trimmed_mean: "ostrich < log"
//
// Dominance and nonsignificant metrics must be ranked measures of the
// run's models; percentages lie in [0, 100]; loads are positive. Values
// metrics are any of their measures (checkMetrics).
type Expectations struct {
	Dominance      map[string]map[string]map[float64]float64 `yaml:"dominance"`
	Nonsignificant map[string]map[string][]float64           `yaml:"nonsignificant"`
	Values         map[string]map[string]map[string]Expected `yaml:"values"`
	Orderings      map[string]map[string]Orderings           `yaml:"orderings"`
}

// UnmarshalYAML decodes and checks the section, naming the line of the
// first unknown key or invalid value.
func (e *Expectations) UnmarshalYAML(node *yaml.Node) error {
	if err := checkKeys(node, "expect", "dominance", "nonsignificant", "values", "orderings"); err != nil {
		return err
	}
	// Checking before decoding names the offending value in our terms.
	for i := 0; i+1 < len(node.Content); i += 2 {
		var check func(*yaml.Node) error
		switch node.Content[i].Value {
		case "dominance":
			check = checkPercent
		case "nonsignificant":
			check = checkLoads
		case "values":
			if err := checkValues(node.Content[i+1]); err != nil {
				return err
			}
			continue
		case "orderings":
			if err := checkOrderings(node.Content[i+1]); err != nil {
				return err
			}
			continue
		}
		if err := checkMetricPolicyMap(node.Content[i].Value, node.Content[i+1], check); err != nil {
			return err
		}
	}
	type plain Expectations
	var p plain
	if err := node.Decode(&p); err != nil {
		return err
	}
	*e = Expectations(p)
	return nil
}

// PaperPercent returns the paper's dominance percentage of the reference
// over policy on metric at load.
func (e Expectations) PaperPercent(metric, policy string, load float64) (float64, bool) {
	percent, ok := e.Dominance[metric][policy][load]
	return percent, ok
}

// PaperSignificant reports whether the paper gives a value for the cell and,
// if so, whether it found the difference significant.
func (e Expectations) PaperSignificant(metric, policy string, load float64) (significant, known bool) {
	if _, ok := e.PaperPercent(metric, policy, load); !ok {
		return false, false
	}
	return !slices.Contains(e.Nonsignificant[metric][policy], load), true
}

// checkKeys rejects a key of a mapping node that is not in valid.
func checkKeys(node *yaml.Node, section string, valid ...string) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s: want a mapping with keys %s", node.Line, section, strings.Join(valid, ", "))
	}
	for i := 0; i < len(node.Content); i += 2 {
		if key := node.Content[i]; !slices.Contains(valid, key.Value) {
			return fmt.Errorf("line %d: %s: unknown key %q; valid keys: %s", key.Line, section, key.Value, strings.Join(valid, ", "))
		}
	}
	return nil
}

// checkMetricPolicyMap checks a metric -> policy -> value map, value by
// value with check.
func checkMetricPolicyMap(section string, node *yaml.Node, check func(*yaml.Node) error) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: expect.%s: want a mapping of metric names", node.Line, section)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		metric := node.Content[i]
		policies := node.Content[i+1]
		if policies.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: expect.%s.%s: want a mapping of policy names", policies.Line, section, metric.Value)
		}
		for j := 0; j+1 < len(policies.Content); j += 2 {
			if err := check(policies.Content[j+1]); err != nil {
				return fmt.Errorf("expect.%s.%s.%s: %w", section, metric.Value, policies.Content[j].Value, err)
			}
		}
	}
	return nil
}

// checkPercent checks a load -> percent mapping.
func checkPercent(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of load to percent, e.g. {0.8: 96}", node.Line)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if err := checkLoad(node.Content[i]); err != nil {
			return err
		}
		var percent float64
		if err := node.Content[i+1].Decode(&percent); err != nil || !(percent >= 0 && percent <= 100) {
			return fmt.Errorf("line %d: percent %q; want a number from 0 to 100", node.Content[i+1].Line, node.Content[i+1].Value)
		}
	}
	return nil
}

// checkLoads checks a sequence of loads.
func checkLoads(node *yaml.Node) error {
	if node.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: want a list of loads, e.g. [0.8, 0.9]", node.Line)
	}
	for _, load := range node.Content {
		if err := checkLoad(load); err != nil {
			return err
		}
	}
	return nil
}

func checkLoad(node *yaml.Node) error {
	var load float64
	if err := node.Decode(&load); err != nil || !(load > 0) {
		return fmt.Errorf("line %d: load %q; want a positive load ratio such as 0.8", node.Line, node.Value)
	}
	return nil
}

// checkMetrics checks that the metrics an expect section names are
// measures of the run's models: ranked ones for dominance and
// nonsignificant, any for values and orderings. The section's shape is
// checked already (Expectations.UnmarshalYAML).
func checkMetrics(expect *yaml.Node, measures []table.Measure) error {
	var ranked, all []string
	for _, m := range measures {
		all = append(all, m.Name)
		if m.Better != table.Descriptive {
			ranked = append(ranked, m.Name)
		}
	}
	for i := 0; i+1 < len(expect.Content); i += 2 {
		section, node := expect.Content[i].Value, expect.Content[i+1]
		switch section {
		case "dominance", "nonsignificant":
			for j := 0; j+1 < len(node.Content); j += 2 {
				if metric := node.Content[j]; !slices.Contains(ranked, metric.Value) {
					return fmt.Errorf("line %d: expect.%s: unknown metric %q; valid metrics: %s", metric.Line, section, metric.Value, strings.Join(ranked, ", "))
				}
			}
		case "values", "orderings":
			for j := 0; j+1 < len(node.Content); j += 2 {
				workload, metrics := node.Content[j].Value, node.Content[j+1]
				for k := 0; k+1 < len(metrics.Content); k += 2 {
					if metric := metrics.Content[k]; !slices.Contains(all, metric.Value) {
						return fmt.Errorf("line %d: expect.%s.%s: unknown metric %q; valid metrics: %s", metric.Line, section, workload, metric.Value, strings.Join(all, ", "))
					}
				}
			}
		}
	}
	return nil
}

// ParseManifestSections extracts the `analysis` and `expect` sections of a
// manifest, ignoring its other keys (the full manifest is the sweep
// package's to check), and checks that the metrics the expect section
// names are among measures when measures are given. name is used in
// errors, which carry the line. Zero settings take their defaults; a
// missing section is empty.
func ParseManifestSections(data []byte, name string, measures ...table.Measure) (Settings, Expectations, error) {
	var sections struct {
		Analysis Settings     `yaml:"analysis"`
		Expect   Expectations `yaml:"expect"`
	}
	var nodes struct {
		Expect yaml.Node `yaml:"expect"`
	}
	err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&sections)
	if err == nil && measures != nil {
		if err = yaml.NewDecoder(bytes.NewReader(data)).Decode(&nodes); err == nil {
			err = checkMetrics(&nodes.Expect, measures)
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return Settings{}, Expectations{}, fmt.Errorf("%s: %w", name, err)
	}
	return sections.Analysis.WithDefaults(), sections.Expect, nil
}

// Metadata returns the settings as the key-value metadata of the analysis
// tables: analysis.reference, analysis.alpha, analysis.adjust and, when
// fixed, analysis.base.
func (s Settings) Metadata() map[string]string {
	metadata := map[string]string{
		"analysis.reference": s.Reference,
		"analysis.alpha":     strconv.FormatFloat(s.Alpha, 'g', -1, 64),
		"analysis.adjust":    s.Adjust,
	}
	if s.BaseTicks != nil {
		metadata["analysis.base"] = strconv.FormatInt(*s.BaseTicks, 10)
	}
	return metadata
}
