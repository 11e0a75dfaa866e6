package sweep

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
)

// inputKeyPrefix starts the part-file metadata key of each input file a
// run's sources read, followed by the path as the manifest names it; the
// value is the file's SHA-256. A changed trace changes its cells' ids; the
// key lets the refusal name the file.
const inputKeyPrefix = "sweep.input_sha256."

// inputFiles are the files the manifest names that its sources and
// platforms were read from (traces, workload and platform files), noted
// while they were resolved (concurrently).
type inputFiles struct {
	mu    sync.Mutex
	paths map[string]string // as the manifest names it -> as opened
}

func (f *inputFiles) note(named, opened string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.paths == nil {
		f.paths = map[string]string{}
	}
	f.paths[named] = opened
}

// hashes returns the SHA-256 of each regular input file by its name in
// the manifest; a file that cannot be read is left out (its source read
// it when the manifest was loaded).
func (f *inputFiles) hashes() map[string]string {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	paths := maps.Clone(f.paths)
	f.mu.Unlock()
	out := map[string]string{}
	for named, opened := range paths {
		if info, err := os.Stat(opened); err != nil || !info.Mode().IsRegular() {
			continue
		}
		if sum, err := fileSHA256(opened); err == nil {
			out[named] = sum
		}
	}
	return out
}

// sourcePath is pathOf for the files the manifest's sources and platforms
// read (the model.Env Path of its sources), noting each.
func (m *Manifest) sourcePath(named string) string {
	opened := m.pathOf(named)
	if m.inputs != nil {
		m.inputs.note(named, opened)
	}
	return opened
}

// metadataChanges names what differs between the run that wrote a
// finished cell (its part's metadata) and the manifest's cell c of the
// same name beyond the manifest's text: c's policy definition (a changed
// policy file), an input file's content, the model versions. Parts
// written before a key existed say nothing of it.
func (m *Manifest) metadataChanges(c Cell, before map[string]string) []string {
	var diffs []string
	differ := func(what, was, now string) {
		if was != now {
			diffs = append(diffs, fmt.Sprintf("%s: was %s, now %s", what, orAbsent(was), orAbsent(now)))
		}
	}
	if was, ok := before["sweep.policy."+c.Policy]; ok || m.PolicyEntries()[c.Policy] != "" {
		differ(fmt.Sprintf("policy %s's definition", c.Policy), strings.TrimSpace(was), strings.TrimSpace(m.PolicyEntries()[c.Policy]))
	}
	var now map[string]string
	for _, key := range slices.Sorted(maps.Keys(before)) {
		named, ok := strings.CutPrefix(key, inputKeyPrefix)
		if !ok {
			continue
		}
		if now == nil {
			now = m.inputs.hashes()
		}
		if sum, ok := now[named]; ok {
			differ(fmt.Sprintf("input file %s (sha256)", named), before[key], sum)
		}
	}
	if was, ok := before["sweep.model_version"]; ok {
		differ("model versions", was, m.models.Versions())
	}
	return diffs
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}
