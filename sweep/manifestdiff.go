package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// A ChangedError is a results directory that already holds cells of the
// manifest's names computed with other settings: the manifest changed
// since the run, or the directory belongs to another experiment. It is
// bad input (the directory or the manifest must change), not a failure.
type ChangedError struct {
	Out, Cell string
	// Differences name each setting that differs between the directory's
	// copy of its manifest and the manifest given, with both values; empty
	// when the texts agree (a changed model version or trace file).
	Differences   []string
	ModelVersions string
}

func (e *ChangedError) Error() string {
	what := "the manifest changed: " + strings.Join(e.Differences, "; ")
	if len(e.Differences) == 0 {
		what = fmt.Sprintf("the manifest's text is the same, so a model version (now %s) or an input file changed", e.ModelVersions)
	}
	return fmt.Sprintf("%s already holds cell %s computed with other settings (%s); mixing them would pair results of two experiments: use another --out, or remove %s",
		e.Out, e.Cell, what, e.Out)
}

// manifestChanges compares the manifest m was loaded from with the copy
// saved in the results directory out and names the settings that differ;
// nil when either cannot be read. The analysis and expect sections do not
// change cells and are left out.
func (m *Manifest) manifestChanges(out string) []string {
	saved, err := os.ReadFile(filepath.Join(out, "manifest.yaml"))
	if err != nil {
		return nil
	}
	_, saved = copiedManifest(saved)
	given, err := os.ReadFile(m.path)
	if err != nil {
		return nil
	}
	_, given = copiedManifest(given)
	var before, after map[string]any
	if yaml.Unmarshal(saved, &before) != nil || yaml.Unmarshal(given, &after) != nil {
		return nil
	}
	for _, section := range []string{"analysis", "expect"} {
		delete(before, section)
		delete(after, section)
	}
	var diffs []string
	yamlDiff("", before, after, &diffs)
	return diffs
}

// yamlDiff appends to diffs, for each path where the decoded YAML values
// a (the results') and b (the manifest given) differ, "path: was A, now
// B", in key order.
func yamlDiff(path string, a, b any, diffs *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		var keys []string
		for k := range am {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			yamlDiff(joinPath(path, k), am[k], bm[k], diffs)
		}
		return
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			yamlDiff(fmt.Sprintf("%s[%d]", path, i), as[i], bs[i], diffs)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*diffs = append(*diffs, fmt.Sprintf("%s: was %s, now %s", path, yamlValue(a), yamlValue(b)))
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlValue prints a decoded YAML value in flow style, "absent" for none.
func yamlValue(v any) string {
	if v == nil {
		return "absent"
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	node := &yaml.Node{}
	if node.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	setFlow(node)
	if enc.Encode(node) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}

func setFlow(n *yaml.Node) {
	n.Style |= yaml.FlowStyle
	for _, c := range n.Content {
		setFlow(c)
	}
}
