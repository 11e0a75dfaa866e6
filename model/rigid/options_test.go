package rigid

import (
	"context"
	"maps"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-sched/sweep/workload/rigid"
)

func settings(t *testing.T, section string) Settings {
	t.Helper()
	var node *yaml.Node
	if section != "" {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(section), &doc); err != nil {
			t.Fatal(err)
		}
		node = doc.Content[0]
	}
	s, err := Model{}.ParseSettings(node)
	if err != nil {
		t.Fatal(err)
	}
	return s.(Settings)
}

// The EASY policies' modelling options reach the simulator: on the
// hand-made trace of contiguity (engine/backfill's contiguousCases, 4
// processors: jobs 0-3 on one each, jobs 1 and 3 end at 2), job 4 of 2
// processors starts at 2 counting processors, at 10 on consecutive ids.
func TestEASYOptionsReachTheSimulator(t *testing.T) {
	w := &rigid.Workload{Name: "contiguous", Procs: 4, Jobs: []rigid.Job{
		{Number: 1, Procs: 1, RunSeconds: 10, RequestedSeconds: 10}, {Number: 2, Procs: 1, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 3, Procs: 1, RunSeconds: 10, RequestedSeconds: 10}, {Number: 4, Procs: 1, RunSeconds: 2, RequestedSeconds: 2},
		{Number: 5, SubmitSeconds: 2, Procs: 2, RunSeconds: 5, RequestedSeconds: 5}}}
	s := settings(t, "")
	for _, c := range []struct {
		policy string
		params map[string]string
		want   int64
	}{
		{PolicyFCFSEasy, nil, 2},
		{PolicyFCFSEasy, map[string]string{ParamPlacement: "contiguous"}, 10},
		{PolicyFCFSEasy, map[string]string{ParamPlacement: "contiguous", ParamPass: "per-event"}, 10},
		{PolicyRelShare, map[string]string{ParamPlacement: "contiguous"}, 10},
		{PolicyRelShare, map[string]string{ParamPass: "per-event"}, 2},
	} {
		sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, s, c.policy, c.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := sched.StartSeconds[4]; got != c.want {
			t.Errorf("%s %v: job 4 starts at %d, want %d", c.policy, c.params, got, c.want)
		}
	}
	// Conservative backfilling takes per-event passes too.
	sched, err := builtinSchedule(context.Background(), w, rigid.EstimateRequested, settings(t, "backfill: conservative"), PolicyRelShare, map[string]string{ParamPass: "per-event"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sched.StartSeconds[4]; got != 2 {
		t.Errorf("relshare, conservative, per event: job 4 starts at %d, want 2", got)
	}
}

// Bad values, and contiguous placement with conservative backfilling, are
// refused naming what would do; defaults written out are dropped, so
// they keep the plain policy's cells.
func TestCheckParams(t *testing.T) {
	easy, conservative := settings(t, ""), settings(t, "backfill: conservative")
	for _, c := range []struct {
		s       Settings
		policy  string
		params  map[string]string
		want    map[string]string
		wantErr string
	}{
		{easy, PolicyFCFSEasy, map[string]string{"placement": "processors", "pass": "per-instant"}, map[string]string{}, ""},
		{easy, PolicyFCFSEasy, map[string]string{"placement": "contiguous", "pass": "per-event"}, map[string]string{"placement": "contiguous", "pass": "per-event"}, ""},
		{easy, PolicyFCFSEasy, map[string]string{"placement": "scattered"}, nil, `placement "scattered": want processors`},
		{easy, PolicyRelShare, map[string]string{"pass": "per-second"}, nil, `pass "per-second": want per-instant`},
		{conservative, PolicyRelShare, map[string]string{"placement": "contiguous"}, nil, "backfill: conservative"},
		{conservative, PolicyRelShare, map[string]string{"pass": "per-event"}, map[string]string{"pass": "per-event"}, ""},
	} {
		got, err := Model{}.CheckParams(c.s, c.policy, c.params)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %v: error %v, want one saying %q", c.policy, c.params, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", c.policy, c.params, err)
			continue
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("%s %v: kept %v, want %v", c.policy, c.params, got, c.want)
		}
	}
}
