package sweep

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestReplayCellIDs: a trace's replay options are part of its cells'
// identity: writing the defaults or leaving them out gives the same ids,
// and every option that changes the replay gives other ids.
func TestReplayCellIDs(t *testing.T) {
	data, err := os.ReadFile("testdata/campaigns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := string(data)
	const window = `window: {from: "2004-12-06", to: "2004-12-07"}`
	ids := func(replay string) []string {
		t.Helper()
		text := strings.Replace(base, window, window+"\n    replay: "+replay, 1)
		m, err := ParseManifest([]byte(text), "testdata/campaigns.yaml")
		if err != nil {
			t.Fatalf("replay %s: %v", replay, err)
		}
		var out []string
		for _, c := range m.Cells() {
			if c.Workload == "head" {
				out = append(out, c.ID)
			}
		}
		return out
	}
	defaults := ids("{}")
	written := ids("{release: per-job, loop: closed, zero-run: drop, drop-failed: false, drop-cancelled: false, exclude-users: []}")
	if len(defaults) != 3 || !slices.Equal(defaults, written) {
		t.Errorf("ids with the defaults written %v; want those with them left out %v", written, defaults)
	}
	if a, b := ids("{exclude-users: [3, 1]}"), ids("{exclude-users: [1, 3, 1]}"); !slices.Equal(a, b) {
		t.Errorf("exclude-users [3, 1] gives %v, [1, 3, 1] %v; want the same set, the same ids", a, b)
	}
	seen := map[string]string{}
	for _, id := range defaults {
		seen[id] = "defaults"
	}
	for _, replay := range []string{"{release: campaign}", "{loop: open}", "{zero-run: keep}", "{drop-failed: true}", "{drop-cancelled: true}", "{exclude-users: [1]}"} {
		for _, id := range ids(replay) {
			if prev, dup := seen[id]; dup {
				t.Errorf("replay %s: cell id %s is also %s's", replay, id, prev)
			}
			seen[id] = replay
		}
	}
}

func TestReplayManifestErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/campaigns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := string(data)
	const window = `window: {from: "2004-12-06", to: "2004-12-07"}`
	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown key", window, window + "\n    replay: {order: lifo}", `line 15: replay: unknown key "order"; valid keys: release, loop, zero-run, drop-failed, drop-cancelled, exclude-users`},
		{"zero-run", window, window + "\n    replay: {zero-run: clamp}", `workloads[1]: replay: zero-run "clamp"; want drop or keep`},
		{"release", window, window + "\n    replay: {release: batch}", `workloads[1]: replay: release "batch"; want one of [per-job campaign]`},
		{"loop", window, window + "\n    replay: {loop: half}", `workloads[1]: replay: loop "half"; want one of closed, open`},
		{"generator", "set: {jobs: 400, users: 4, short-users: 2}", "set: {jobs: 400, users: 4, short-users: 2}\n    replay: {loop: open}", `line 12: workloads[0]: key "replay" does not apply to this workload`},
	} {
		text := strings.Replace(base, tc.from, tc.to, 1)
		if text == base {
			t.Fatalf("%s: the substitution did not apply", tc.name)
		}
		_, err := ParseManifest([]byte(text), "testdata/campaigns.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %q", tc.name, err, tc.want)
		}
	}
}
