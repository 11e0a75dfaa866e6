package campaign

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	"github.com/sweep-sched/sweep/workload/swf"
)

// TraceReplay is how a trace workload is read and replayed (DESIGN.md
// section 4): the `replay` key of a trace workload entry. Every field is
// optional and the zero value is the default, today's behaviour:
//
//	replay:
//	  release: per-job        # each job at its logged submit, or `campaign`: all at the campaign's first
//	  loop: closed            # next campaign at max(logged submit, completion + logged think), or `open`
//	  zero-run: drop          # jobs that ran 0 seconds: drop, or keep (a campaign of only
//	                          # such jobs has no work: infinite stretch, counted as dropped)
//	  drop-failed: false      # drop jobs whose status is failed (0)
//	  drop-cancelled: false   # drop cancelled jobs (status 5) that did run
//	  exclude-users: []       # SWF user ids whose jobs are left out
//
// The options belong to the trace entry, not to the manifest's campaign
// section, because they say how one log is turned into a workload: two
// traces of a manifest may need different ones. The closed loop carries a
// delay forward (a campaign completed later than in the log pushes the
// user's next one back) but never gains (one completed earlier cannot
// bring the next before its logged submit time).
type TraceReplay struct {
	Release       string  `yaml:"release"`
	Loop          string  `yaml:"loop"`
	ZeroRun       string  `yaml:"zero-run"`
	DropFailed    bool    `yaml:"drop-failed"`
	DropCancelled bool    `yaml:"drop-cancelled"`
	ExcludeUsers  []int64 `yaml:"exclude-users"`
}

// replayKeys are the keys of TraceReplay, for error messages.
var replayKeys = []string{"release", "loop", "zero-run", "drop-failed", "drop-cancelled", "exclude-users"}

// The values of TraceReplay.ZeroRun.
const (
	zeroRunDrop = "drop"
	zeroRunKeep = "keep"
)

// UnmarshalYAML decodes the replay section with strict keys, naming the
// line of an unknown one.
func (r *TraceReplay) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: replay: want a mapping with keys %s", v.Line, strings.Join(replayKeys, ", "))
	}
	for i := 0; i < len(v.Content); i += 2 {
		if k := v.Content[i]; !slices.Contains(replayKeys, k.Value) {
			return fmt.Errorf("line %d: replay: unknown key %q; valid keys: %s", k.Line, k.Value, strings.Join(replayKeys, ", "))
		}
	}
	type plain TraceReplay
	var p plain
	if err := v.Decode(&p); err != nil {
		return err
	}
	*r = TraceReplay(p)
	return nil
}

// normalised returns the replay with defaults filled in and the excluded
// users sorted without repeats, so that leaving a key out and writing its
// default give the same cells; it checks the values.
func (r *TraceReplay) normalised() (TraceReplay, error) {
	var n TraceReplay
	if r != nil {
		n = *r
		n.ExcludeUsers = slices.Clone(r.ExcludeUsers)
	}
	n.Release = cmp.Or(n.Release, string(gcampaign.ReleasePerJob))
	n.Loop = cmp.Or(n.Loop, ecampaign.LoopClosed)
	n.ZeroRun = cmp.Or(n.ZeroRun, zeroRunDrop)
	if !slices.Contains(gcampaign.Releases(), gcampaign.Release(n.Release)) {
		return n, fmt.Errorf("replay: release %q; want one of %v", n.Release, gcampaign.Releases())
	}
	if !slices.Contains(ecampaign.Loops(), n.Loop) {
		return n, fmt.Errorf("replay: loop %q; want one of %s", n.Loop, strings.Join(ecampaign.Loops(), ", "))
	}
	if n.ZeroRun != zeroRunDrop && n.ZeroRun != zeroRunKeep {
		return n, fmt.Errorf("replay: zero-run %q; want %s or %s", n.ZeroRun, zeroRunDrop, zeroRunKeep)
	}
	slices.Sort(n.ExcludeUsers)
	n.ExcludeUsers = slices.Compact(n.ExcludeUsers)
	return n, nil
}

// canonical renders a normalised replay for cell ids.
func (r TraceReplay) canonical() string {
	users := make([]string, len(r.ExcludeUsers))
	for i, u := range r.ExcludeUsers {
		users[i] = strconv.FormatInt(u, 10)
	}
	return fmt.Sprintf("release=%s loop=%s zero-run=%s drop-failed=%t drop-cancelled=%t exclude-users=%s",
		r.Release, r.Loop, r.ZeroRun, r.DropFailed, r.DropCancelled, strings.Join(users, ","))
}

// readerOptions are the SWF reader's options of a normalised replay.
func (r TraceReplay) readerOptions(window swf.Window) swf.Options {
	return swf.Options{Window: window, KeepZeroRun: r.ZeroRun == zeroRunKeep, DropFailed: r.DropFailed,
		DropCancelled: r.DropCancelled, ExcludeUsers: r.ExcludeUsers}
}
