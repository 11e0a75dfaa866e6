package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/store/parquet"
)

// An InUseError is a results directory being written by a run of another
// manifest: mixing them would pair results of two experiments. It is bad
// input (another --out, or wait), not a failure.
type InUseError struct {
	Out   string
	Other parquet.Owner
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s is in use by a run of another manifest (%s); mixing them would pair results of two experiments: wait for it to finish, or use another --out",
		e.Out, e.Other)
}

// shardOf is how a session names its shard: "i/n", "" for all cells.
func shardOf(sh Shard) string {
	if sh.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.Index, sh.Count)
}

// disjoint reports whether two shards of one manifest share no cell: i/n
// and j/n with i != j.
func disjoint(a, b string) bool {
	sa, errA := ParseShard(a)
	sb, errB := ParseShard(b)
	return errA == nil && errB == nil && sa.Count == sb.Count && sa.Index != sb.Index
}

// joinOut makes this run a session of the results directory out, and
// under its admission lock plans the run, checks it against the directory
// (Plan) and readies the directory (repair, the manifest's copy), so no
// other run can change the directory between the check and this run's
// first part. A live run of another manifest is refused (InUseError); one
// of the same manifest whose cells overlap this run's is waited for (its
// cells are then done, so neither computes a cell twice; the wait is
// told to opts.Waiting); shards of one manifest share the directory.
func (m *Manifest) joinOut(ctx context.Context, out string, opts RunOptions, tags []string, started time.Time, sum *Summary) (*parquet.Session, *Plan, error) {
	label := m.path
	if abs, err := filepath.Abs(m.path); err == nil {
		label = abs
	}
	me := parquet.Owner{Started: started, Key: m.Hash(), Label: "manifest " + label, Shard: shardOf(opts.Shard), Tags: tags}
	for {
		a, err := parquet.Admit(out)
		if err != nil {
			return nil, nil, fmt.Errorf("joining the runs of %s: %w", out, err)
		}
		other, wait := overlapping(me, a.Live)
		if other != nil && !wait {
			a.Release()
			return nil, nil, &InUseError{Out: out, Other: *other}
		}
		if other != nil {
			if opts.Waiting != nil {
				opts.Waiting(fmt.Sprintf("%s is in use by a run of the same manifest (%s): waiting for it to finish, then running what it left", out, other))
			}
			if err := waitFor(ctx, a, *other); err != nil {
				return nil, nil, err
			}
			continue
		}
		session, plan, err := m.prepareOut(out, opts, a, me, sum)
		a.Release()
		return session, plan, err
	}
}

// overlapping returns a live session that this one cannot run beside:
// another manifest's (wait false), or the same manifest's with cells in
// common (wait true); nil when there is none.
func overlapping(me parquet.Owner, live []parquet.Owner) (*parquet.Owner, bool) {
	if other := ofAnotherManifest(me.Key, live); other != nil {
		return other, false
	}
	for i, o := range live {
		if !disjoint(o.Shard, me.Shard) {
			return &live[i], true
		}
	}
	return nil, false
}

// waitFor waits for the session of o to end, or for ctx.
func waitFor(ctx context.Context, a *parquet.Admission, o parquet.Owner) error {
	a.Release()
	done := make(chan error, 1)
	go func() { done <- a.WaitFor(o) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("waiting for %s: %w", strings.TrimSpace(o.String()), ctx.Err())
	}
}

// refuseInUse refuses the run early when a run of another manifest is
// writing out (read without the lock, which joinOut checks again): its
// cells would otherwise look like changed settings to the plan.
func (m *Manifest) refuseInUse(out string) error {
	live, err := parquet.LiveSessions(out)
	if err != nil {
		return err
	}
	if other := ofAnotherManifest(m.Hash(), live); other != nil {
		return &InUseError{Out: out, Other: *other}
	}
	return nil
}

// ofAnotherManifest returns the first live session whose manifest is not
// the one of hash key; nil when there is none.
func ofAnotherManifest(key string, live []parquet.Owner) *parquet.Owner {
	for i, o := range live {
		if o.Key != key {
			return &live[i]
		}
	}
	return nil
}
