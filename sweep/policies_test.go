package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// externalManifest writes a manifest with the tiny trace and a policy
// script into a new folder and loads it.
func externalManifest(t *testing.T, policies, script string) (*Manifest, error) {
	t.Helper()
	dir := t.TempDir()
	trace, err := os.ReadFile("testdata/norequest.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "policies"), 0o755)
	os.WriteFile(filepath.Join(dir, "norequest.swf.txt"), trace, 0o644)
	os.WriteFile(filepath.Join(dir, "policies", "mine.py"), []byte(script), 0o644)
	text := `experiment: ext
seed: 1
platform: single:4
workloads:
  - trace: norequest.swf.txt
    label: tiny
    months: {from: 1970-01, to: 1970-01}
    estimates: [T]
policies: ` + policies + "\n"
	path := filepath.Join(dir, "m.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	return LoadManifest(path)
}

// cellIDs maps a manifest's cell names to their ids.
func cellIDs(t *testing.T, m *Manifest) map[string]string {
	ids := map[string]string{}
	for _, c := range m.Cells() {
		ids[c.Policy] = c.ID
	}
	return ids
}

// An external policy's command, params and script content are its
// identity; built-in policies keep their ids, and moving the folder
// keeps every id.
func TestExternalPolicyIdentity(t *testing.T) {
	load := func(policies, script string) map[string]string {
		m, err := externalManifest(t, policies, script)
		if err != nil {
			t.Fatal(err)
		}
		return cellIDs(t, m)
	}
	const mine = `[fcfs-easy, {name: mine, command: [python3, policies/mine.py], params: {k: "1"}}]`
	base := load(`[fcfs-easy]`, "")
	a := load(mine, "print(1)\n")
	if a["fcfs-easy"] != base["fcfs-easy"] {
		t.Errorf("an external entry changed fcfs-easy's id")
	}
	if again := load(mine, "print(1)\n"); again["mine"] != a["mine"] {
		t.Errorf("the same manifest in another folder changed the policy's id")
	}
	for what, ids := range map[string]map[string]string{
		"script": load(mine, "print(2)\n"),
		"params": load(strings.Replace(mine, `"1"`, `"2"`, 1), "print(1)\n"),
		"argv":   load(strings.Replace(mine, "python3", "python3.12", 1), "print(1)\n"),
	} {
		if ids["mine"] == a["mine"] {
			t.Errorf("a changed %s kept the policy's id", what)
		}
		if ids["fcfs-easy"] != base["fcfs-easy"] {
			t.Errorf("a changed %s changed fcfs-easy's id", what)
		}
	}
	m, err := externalManifest(t, mine, "print(1)\n")
	if err != nil {
		t.Fatal(err)
	}
	e := m.entries["mine"]
	if !filepath.IsAbs(e.Argv[1]) || e.Argv[0] != "python3" || e.FileSHA256[1] == "" || e.FileSHA256[0] != "" {
		t.Errorf("argv %q, hashes %q: want python3 from PATH and the script resolved and hashed", e.Argv, e.FileSHA256)
	}
	// The Parquet metadata's form; the hash of "print(1)\n" by sha256sum.
	want := "param \"k\"=\"1\"\ncommand \"python3\" \"policies/mine.py\"@sha256:cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213\n"
	if got := m.PolicyEntries()["mine"]; got != want {
		t.Errorf("metadata %q, want %q", got, want)
	}
}

func TestExternalPolicyErrors(t *testing.T) {
	tests := []struct{ policies, want string }{
		{`[{name: x, command: [a], batsim: [b]}]`, "give command (sweep's pipe protocol) or batsim (a Batsim scheduler), not both"},
		{`[{name: x, command: []}]`, "empty command"},
		{`[{name: fcfs-easy, command: [a]}]`, `policy "fcfs-easy": the name is model rigid's built-in policy`},
		{`[{name: x, command: [a], model: nope}]`, `model "nope": unknown; valid models: grid, campaign, moldable, rigid`},
		{`[{name: x, command: [a], model: campaign}]`, "model campaign runs no command policies"},
		{`[{name: x, command: [a], timeout: soon}]`, `timeout "soon": want a positive Go duration`},
		{`[{name: x, batsim: [a], params: {k: v}}]`, "a Batsim scheduler takes its options in its argv"},
		{`[{name: fcfs-easy, timeout: 5s}]`, "model and timeout apply to external policies"},
		{`[{name: x, commands: [a]}]`, `unknown key "commands"; valid keys: name, params, command, batsim, model, timeout`},
		{`[{name: x, command: [a], model: grid}]`, `workload "tiny" is a rigid workload, and policy "x" is a grid policy`},
	}
	for _, tt := range tests {
		_, err := externalManifest(t, tt.policies, "")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.policies, err, tt.want)
		}
	}
}
