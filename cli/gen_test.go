package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/workload/dag"
	mworkload "github.com/sweep-sched/sweep/workload/moldable"
)

func runGenTo(t *testing.T, args ...string) (string, []byte, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "w.json")
	var stdout, stderr bytes.Buffer
	err := testApp().runGen(context.Background(), append(args, "-o", out), &stdout, &stderr)
	if err != nil {
		return stderr.String(), nil, err
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return stdout.String(), data, nil
}

func TestRunGen(t *testing.T) {
	args := []string{"--preset", "burkimsher2013/fan-chain", "--seed", "9", "--instance", "2", "--set", "jobs=40", "--set", "total=1e6"}
	summary, first, err := runGenTo(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(summary, "40 jobs, ") || !strings.Contains(summary, ", exec 1000000 ticks, ") {
		t.Errorf("summary %q; want jobs=40 and exec=1000000 (the total)", summary)
	}
	_, again, err := runGenTo(t, args...)
	if err != nil || !bytes.Equal(first, again) {
		t.Errorf("same arguments twice: files differ (err %v)", err)
	}
	other := append(args[:len(args):len(args)], "--instance", "3")
	if _, third, err := runGenTo(t, other...); err != nil || bytes.Equal(first, third) {
		t.Errorf("instance 3: same file as instance 2 (err %v); want a different workload", err)
	}
	w, err := dag.Decode(bytes.NewReader(first), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	if w.HasArrivals() || len(w.Jobs) != 40 {
		t.Errorf("without --load: %d jobs, arrivals %v; want 40 jobs without arrivals", len(w.Jobs), w.HasArrivals())
	}

	// single:10 at load 1: each gap is ceil(volume/10).
	_, data, err := runGenTo(t, append(args, "--load", "1", "--platform", "single:10")...)
	if err != nil {
		t.Fatal(err)
	}
	w, err = dag.Decode(bytes.NewReader(data), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	var at int64
	for k, j := range w.Jobs {
		if j.Arrival == nil || *j.Arrival != at {
			t.Fatalf("job %d arrival %v; want %d", k, j.Arrival, at)
		}
		at += (j.Volume() + 9) / 10
	}
}

func TestRunGenErrors(t *testing.T) {
	cases := []struct {
		args     []string
		contains string
	}{
		{[]string{"--preset", "nope"}, "valid presets: burkimsher2013/uniform-independent"},
		{[]string{}, "--preset is required"},
		{[]string{"--preset", "burkimsher2013/fan", "--set", "depth=2"}, "valid parameters: cores"},
		{[]string{"--preset", "burkimsher2013/fan", "--load", "0.9"}, "--load needs --platform"},
		{[]string{"--preset", "burkimsher2013/fan", "--load", "x", "--platform", "single:4"}, "want a positive number"},
		{[]string{"--preset", "burkimsher2013/fan", "--load", "1", "--platform", "grid5000"}, "not a preset (burkimsher2013, single:N)"},
		{[]string{"--preset", "burkimsher2013/fan", "extra"}, "unexpected arguments"},
	}
	for _, c := range cases {
		_, _, err := runGenTo(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("sweep gen %v: error %v; want one containing %q", c.args, err, c.contains)
		}
	}
}

// TestRunGenMoldable: a moldable preset writes workload/moldable's JSON,
// the instance gen/moldable generates from the same seed and settings.
func TestRunGenMoldable(t *testing.T) {
	args := []string{"--preset", "dutot2004/uniform-high", "--seed", "4", "--instance", "1", "--set", "tasks=10", "--set", "processors=8"}
	summary, data, err := runGenTo(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(summary, "10 moldable tasks on 8 processors") {
		t.Errorf("summary %q", summary)
	}
	got, err := mworkload.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := gmoldable.Lookup("dutot2004/uniform-high")
	params := p.Defaults()
	if err := params.SetAll([]string{"tasks=10", "processors=8"}); err != nil {
		t.Fatal(err)
	}
	want, err := gmoldable.Generate(params, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sweep gen wrote another workload than gen/moldable generates")
	}
	if _, _, err := runGenTo(t, append(args, "--load", "1", "--platform", "single:8")...); err == nil || !strings.Contains(err.Error(), "off-line") {
		t.Errorf("--load with a moldable preset: %v", err)
	}
}

// TestGenCampaignPreset: `sweep gen` writes the campaign generator that
// manifests accept (it used to refuse it), identical to gcampaign.GenerateProfiles
// with the same parameters, seed and instance.
func TestGenCampaignPreset(t *testing.T) {
	summary, data, err := runGenTo(t, "--preset", "ostrich2013/profiles", "--seed", "3", "--instance", "1",
		"--set", "jobs=200", "--set", "users=4", "--set", "short-users=2")
	if err != nil {
		t.Fatal(err)
	}
	p := gcampaign.DefaultProfilesParams()
	p.Jobs, p.Users, p.ShortUsers = 200, 4, 2
	w, err := gcampaign.GenerateProfiles(p, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := w.Encode(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want.Bytes()) {
		t.Errorf("sweep gen wrote a different workload than gcampaign.GenerateProfiles")
	}
	if wantSummary := fmt.Sprintf("4 users, %d campaigns, 200 jobs\n", len(w.Campaigns)); summary != wantSummary {
		t.Errorf("summary %q; want %q", summary, wantSummary)
	}
}
