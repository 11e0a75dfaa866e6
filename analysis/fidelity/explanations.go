package fidelity

import (
	_ "embed"
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"
)

// DocURL is docs/fidelity.md, the investigations that explanations point
// at; a section's address is DocURL + "#" + its anchor.
const DocURL = "https://github.com/sweep-sched/sweep/blob/main/docs/fidelity.md"

// SectionURL returns the address of a section of docs/fidelity.md.
func SectionURL(anchor string) string { return DocURL + "#" + anchor }

// explanationsYAML are the verdicts of docs/fidelity.md for the claims
// that do not hold on the shipped runs; a test keeps them equal to
// docs/fidelity-claims.yaml.
//
//go:embed explanations.yaml
var explanationsYAML []byte

// An Explanation is the verdict of an investigation of one claim that
// does not hold: Explained with its cause, or DoesNotHold when no setting
// of ours reproduces the paper.
type Explanation struct {
	Study        string `yaml:"study"`
	Claim        string `yaml:"claim"`
	Status       Status `yaml:"status"`
	Reason       string `yaml:"reason"`
	Section      string `yaml:"section"`
	ReproducedBy string `yaml:"reproduced_by"`
}

// Explanations are the registered explanations by study and claim id.
type Explanations map[[2]string]Explanation

// Registered returns the explanations built into sweep
// (explanations.yaml).
func Registered() (Explanations, error) {
	return ParseExplanations(explanationsYAML, "explanations.yaml")
}

// ParseExplanations reads a YAML list of explanations; name is used in
// errors. Each entry needs a study, a claim, a status (explained or
// does-not-hold), a reason and a section, and names its claim once.
func ParseExplanations(data []byte, name string) (Explanations, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := Explanations{}
	if len(doc.Content) == 0 {
		return out, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: line %d: want a list of explanations", name, list.Line)
	}
	for _, node := range list.Content {
		if err := checkKeys(node); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var e Explanation
		if err := node.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, node.Line, err)
		}
		switch {
		case e.Study == "" || e.Claim == "":
			return nil, fmt.Errorf("%s: line %d: an explanation needs a study and a claim id", name, node.Line)
		case e.Status != Explained && e.Status != DoesNotHold:
			return nil, fmt.Errorf("%s: line %d: status %q; want %s or %s", name, node.Line, e.Status, Explained, DoesNotHold)
		case e.Reason == "" || e.Section == "":
			return nil, fmt.Errorf("%s: line %d: %s %s: an explanation needs a reason and the section of docs/fidelity.md", name, node.Line, e.Study, e.Claim)
		}
		key := [2]string{e.Study, e.Claim}
		if _, ok := out[key]; ok {
			return nil, fmt.Errorf("%s: line %d: %s %s is explained twice", name, node.Line, e.Study, e.Claim)
		}
		out[key] = e
	}
	return out, nil
}

// Explain sets the study of claims and gives each claim that does not
// hold its registered explanation, if any: its status (Explained, or
// DoesNotHold after investigation), reason, section and reproducing
// setting. A claim that holds or is not checkable keeps its status: an
// explanation never overrides the data.
func Explain(study string, claims []Claim, explanations Explanations) []Claim {
	out := make([]Claim, len(claims))
	for i, c := range claims {
		c.Study = study
		if e, ok := explanations[[2]string{study, c.ID}]; ok && c.Status == DoesNotHold {
			c.Status, c.Reason, c.Section, c.ReproducedBy = e.Status, e.Reason, e.Section, e.ReproducedBy
		}
		out[i] = c
	}
	return out
}

// explanationKeys are the keys of an explanation.
var explanationKeys = []string{"study", "claim", "status", "reason", "section", "reproduced_by"}

// checkKeys rejects an entry that is not a mapping or has a key other
// than explanationKeys.
func checkKeys(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping with keys %v", node.Line, explanationKeys)
	}
	for i := 0; i < len(node.Content); i += 2 {
		if key := node.Content[i]; !slices.Contains(explanationKeys, key.Value) {
			return fmt.Errorf("line %d: unknown key %q; valid keys: %v", key.Line, key.Value, explanationKeys)
		}
	}
	return nil
}
