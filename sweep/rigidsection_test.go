package sweep

import (
	"os"
	"strings"
	"testing"
)

// rigidSectionManifest is a rigid-model manifest on the three-job log of
// testdata with every setting of its section away from the default; KEY
// stands for the section's key.
const rigidSectionManifest = `experiment: rigid-section
seed: 1
platform: single:4
workloads:
  - trace: norequest.swf.txt
    label: tiny
    months: {from: 1970-01, to: 1970-01}
    estimates: [T]
policies: [relshare, tradeoff-fs]
KEY: {window: sliding, tw: 24h, budget: 2000}
`

// TestRigidSectionNames: the rigid model's section reads the same under
// its name rigid: and under fairshare:, the name it had before, and gives
// the same settings and the same cell ids. The ids are those that sweep
// run wrote into the cells table for the fairshare: spelling at commit
// 02f8416, before rigid: existed.
func TestRigidSectionNames(t *testing.T) {
	wantIDs := map[string]string{
		"tiny-T/1970-01/single:4/relshare":    "ccbbe97461407eb7d5eb1d3d",
		"tiny-T/1970-01/single:4/tradeoff-fs": "6f9eda6f43b525bd647353a4",
	}
	const wantSettings = "window=sliding backfill=easy tw=86400s alpha=1 objective=tradeoff budget=2000"
	for _, key := range []string{"fairshare", "rigid"} {
		t.Run(key, func(t *testing.T) {
			m, err := ParseManifest([]byte(strings.Replace(rigidSectionManifest, "KEY", key, 1)), "testdata/rigid-section.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if got := m.settings["rigid"].Canonical(); got != wantSettings {
				t.Errorf("settings %q, want %q", got, wantSettings)
			}
			cells := m.Cells()
			if len(cells) != len(wantIDs) {
				t.Fatalf("%d cells, want %d", len(cells), len(wantIDs))
			}
			for _, c := range cells {
				if want := wantIDs[c.Name()]; c.ID != want {
					t.Errorf("cell %s: id %s, want %s", c.Name(), c.ID, want)
				}
			}
		})
	}
}

// TestRigidSectionStudy: experiments/vasupongayya2012.yaml, written with
// fairshare:, gives the same cells with rigid:. The ids of two cells are
// those of the study's cells table from sweep run at commit 02f8416,
// before rigid: existed.
func TestRigidSectionStudy(t *testing.T) {
	needKTH(t)
	const path = "../experiments/vasupongayya2012.yaml"
	base, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("../../shared/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"); err != nil {
		t.Skip("the SDSC Blue log is absent from ../shared/traces/")
	}
	renamed := strings.Replace(string(base), "\nfairshare: ", "\nrigid: ", 1)
	if renamed == string(base) {
		t.Fatal("the study has no fairshare: section to rename")
	}
	wantIDs := map[string]string{
		"kth-T/1996-10/single:100/relshare":      "95900dd08815406f868851fe",
		"sdsc-R/2000-06/single:1152/tradeoff-fs": "d6054f935fbcf3e3fb0c028b",
	}
	var ids [2][]string
	for i, text := range []string{string(base), renamed} {
		m, err := ParseManifest([]byte(text), path)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, c := range m.Cells() {
			ids[i] = append(ids[i], c.ID)
			if want, ok := wantIDs[c.Name()]; ok {
				found++
				if c.ID != want {
					t.Errorf("manifest %d: cell %s: id %s, want %s", i, c.Name(), c.ID, want)
				}
			}
		}
		if found != len(wantIDs) || len(ids[i]) != 132 {
			t.Errorf("manifest %d: %d cells, %d of the named ones; want 132 and %d", i, len(ids[i]), found, len(wantIDs))
		}
	}
	if strings.Join(ids[0], " ") != strings.Join(ids[1], " ") {
		t.Error("fairshare: and rigid: give different cell ids")
	}
}

// TestRigidSectionErrors: a message about the section names the key the
// manifest wrote; both keys at once are refused, naming both.
func TestRigidSectionErrors(t *testing.T) {
	for _, tt := range []struct {
		name, section, want string
	}{
		{"bad window under rigid", "rigid: {window: hourly}", `line 10: rigid: window "hourly"; want tumbling`},
		{"bad window under fairshare", "fairshare: {window: hourly}", `line 10: fairshare: window "hourly"; want tumbling`},
		{"unknown key under rigid", "rigid: {windows: sliding}", `line 10: rigid: line 10: unknown key "windows"; valid keys: window, backfill`},
		{"both", "rigid: {budget: 2000}\nfairshare: {budget: 2000}",
			"line 10: rigid and line 11: fairshare: the rigid model's settings twice (fairshare: is another name of rigid:); give one of them"},
		{"both, fairshare first", "fairshare: {}\nrigid: {}",
			"line 10: fairshare and line 11: rigid: the rigid model's settings twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(rigidSectionManifest, "KEY: {window: sliding, tw: 24h, budget: 2000}", tt.section, 1)
			_, err := ParseManifest([]byte(text), "testdata/rigid-section.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant %q", err, tt.want)
			}
		})
	}
}
