package sweep

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/store/parquet"
)

// TestStatusWhileAShardRuns writes the small manifest's results as three
// shards (groups 0 and 3, 12 cells; group 1, 6 cells; group 2, 6 cells):
// shard 1 finished, shard 2 finished with one failed cell, shard 3 still
// running with 4 of its 6 cells published in two parts. Publication times
// are set by hand, so the rate and ETA are computed here: at T, shards 1
// and 2 have one part each (no rate); shard 3's parts at T-8m and T-4m give
// 2 rows over the 480 s since its first part, and its 2 remaining cells
// take 480 s at that rate.
func TestStatusWhileAShardRuns(t *testing.T) {
	m := loadSmall(t)
	dir := t.TempDir()
	mustRun(t, m, RunOptions{Out: dir, Jobs: 1, Shard: Shard{1, 3}})
	failing := "fan-chain/i001/L1.2/burkimsher2013/random"
	mustRun(t, m, RunOptions{Out: dir, Jobs: 1, Shard: Shard{2, 3}, beforeCell: func(c Cell) {
		if c.Name() == failing {
			panic("boom")
		}
	}})

	reached, release := make(chan struct{}), make(chan struct{})
	var started atomic.Int64
	running := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), m, RunOptions{Out: dir, Jobs: 1, Shard: Shard{3, 3},
			Flush: parquet.FlushPolicy{Cells: 2},
			beforeCell: func(Cell) {
				if started.Add(1) == 5 {
					close(reached)
					<-release
				}
			}})
		running <- err
	}()
	<-reached
	released := false
	defer func() {
		if !released {
			close(release)
			<-running
		}
	}()

	T := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	parts, _, err := parquet.ListParts(dir, "cells")
	if err != nil {
		t.Fatal(err)
	}
	shard3Times := []time.Time{T.Add(-8 * time.Minute), T.Add(-4 * time.Minute)}
	for _, p := range parts {
		var at time.Time
		switch p.Metadata["sweep.shard"] {
		case "s01of03":
			at = T.Add(-30 * time.Minute)
		case "s02of03":
			at = T.Add(-15 * time.Minute)
		case "s03of03":
			at, shard3Times = shard3Times[0], shard3Times[1:]
		}
		if err := os.Chtimes(p.Path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if len(parts) != 4 || len(shard3Times) != 0 {
		t.Fatalf("%d cells parts, want 1 + 1 + 2", len(parts))
	}

	st, err := ReadStatus(dir, m, T, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	wantShards := []ShardStatus{
		{Label: "s01of03", Cells: 12, Done: 12, Parts: 1, LastActivity: T.Add(-30 * time.Minute)},
		{Label: "s02of03", Cells: 6, Done: 5, Failed: 1, Parts: 1, LastActivity: T.Add(-15 * time.Minute)},
		{Label: "s03of03", Cells: 6, Done: 4, Remaining: 2, Parts: 2, LastActivity: T.Add(-4 * time.Minute)},
	}
	for i := range st.Shards {
		st.Shards[i].LastActivity = st.Shards[i].LastActivity.UTC()
	}
	if !reflect.DeepEqual(st.Shards, wantShards) {
		t.Errorf("shards\n got %+v\nwant %+v", st.Shards, wantShards)
	}
	if st.Total != 24 || st.Done != 21 || st.Failed != 1 || st.Remaining != 2 {
		t.Errorf("total %d done %d failed %d remaining %d; want 24 21 1 2", st.Total, st.Done, st.Failed, st.Remaining)
	}
	if want := 2.0 / 480; st.Rate != want || !st.HasETA || st.ETA != 480*time.Second {
		t.Errorf("rate %v/s ETA %v (%v); want %v/s, 8m0s", st.Rate, st.ETA, st.HasETA, want)
	}
	if len(st.FailedCells) != 1 || st.FailedCells[0].Name != failing || st.FailedCells[0].Shard != "s02of03" ||
		!strings.HasPrefix(st.FailedCells[0].Error, "panic: boom\n") {
		t.Errorf("failed cells %+v; want %s from s02of03 with its panic", st.FailedCells, failing)
	}

	// Shard 3 is still running: its session says so.
	if len(st.Running) != 1 || st.Running[0].Shard != "3/3" || st.Running[0].PID != os.Getpid() {
		t.Errorf("running %+v; want shard 3/3 of this process", st.Running)
	}
	var b strings.Builder
	st.Write(&b, T)
	for _, want := range []string{
		fmt.Sprintf("running   pid %d on host ", os.Getpid()),
		"24 cells, 21 done, 1 failed, 2 remaining\n",
		"shard    cells  done  failed  remaining  parts  last activity\n",
		"s02of03  6      5     1       0          1      15m0s ago\n",
		"s03of03  6      4     0       2          2      4m0s ago\n",
		"rate      0.25 cells/min over the last 10m0s; ETA 8m0s at that rate\n",
		"  " + failing + " (s02of03, " + st.FailedCells[0].ID + "):\n    panic: boom\n    (its stack trace: sweep show DIR " + st.FailedCells[0].ID + ")\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, b.String())
		}
	}

	// Without the manifest, a shard's counts are what its writers settled.
	bare, err := ReadStatus(dir, nil, T, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if bare.Total != 0 || bare.Done != 21 || bare.Failed != 1 || bare.HasETA || bare.Shards[2].Done != 4 || bare.Shards[2].Cells != 0 {
		t.Errorf("without manifest: %+v", bare)
	}

	// Shard 3 finishes: nothing remains.
	close(release)
	released = true
	if err := <-running; err != nil {
		t.Fatal(err)
	}
	st, err = ReadStatus(dir, m, time.Now(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Done != 23 || st.Failed != 1 || st.Remaining != 0 || st.Shards[2].Parts != 3 {
		t.Errorf("after shard 3: done %d failed %d remaining %d, shard 3 parts %d; want 23 1 0 3", st.Done, st.Failed, st.Remaining, st.Shards[2].Parts)
	}
}

func TestRecentRate(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	tests := []struct {
		name   string
		events []publication
		want   float64
	}{
		{"nothing published", nil, 0},
		{"one part: no interval yet", []publication{{ago(time.Minute), 10}}, 0},
		// Younger than the window: the first part is the origin and its
		// rows do not count: 5+5 rows over 60 s.
		{"young run", []publication{{ago(60 * time.Second), 10}, {ago(30 * time.Second), 5}, {ago(10 * time.Second), 5}}, 10.0 / 60},
		// Origin: the newest part at least 10 minutes old (12m ago); 6 rows
		// in the 12 minutes since.
		{"window", []publication{{ago(time.Hour), 100}, {ago(12 * time.Minute), 50}, {ago(5 * time.Minute), 6}}, 6.0 / 720},
		{"stalled", []publication{{ago(3 * time.Hour), 10}, {ago(2 * time.Hour), 10}}, 0},
	}
	for _, tc := range tests {
		if got := recentRate(tc.events, now, 10*time.Minute); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestShardLabels: every shard of every shard count seen is listed, even
// one that has not published, beside the other writers' labels, in name
// order; a label that only looks like a shard's ("s2of4", "s05of04") is
// another writer's.
func TestShardLabels(t *testing.T) {
	tests := []struct {
		name  string
		parts map[string]int
		want  []string
	}{
		{"nothing published", map[string]int{}, nil},
		{"unsharded", map[string]int{"all": 3}, []string{"all"}},
		{"one shard of four", map[string]int{"s03of04": 2}, []string{"s01of04", "s02of04", "s03of04", "s04of04"}},
		{"two counts and an unsharded run", map[string]int{"s02of02": 1, "s01of03": 1, "all": 1},
			[]string{"all", "s01of02", "s01of03", "s02of02", "s02of03", "s03of03"}},
		{"not shard labels", map[string]int{"s2of4": 1, "s05of04": 1}, []string{"s05of04", "s2of4"}},
	}
	for _, tc := range tests {
		if got := shardLabels(tc.parts); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSettle: a cell's first ok row settles it, whatever comes after;
// until then its last failed row stands (a retry's error replaces the
// first run's).
func TestSettle(t *testing.T) {
	type row struct{ status, err, label string }
	ok, failed := "ok", "failed"
	tests := []struct {
		name string
		rows []row
		want settledRow
	}{
		{"failed, then ok on retry", []row{{failed, "e1", "s01of02"}, {ok, "", "all"}}, settledRow{status: ok, label: "all"}},
		{"ok, then failed by another writer", []row{{ok, "", "s01of02"}, {failed, "e2", "all"}}, settledRow{status: ok, label: "s01of02"}},
		{"ok twice: the first", []row{{ok, "", "s01of02"}, {ok, "", "all"}}, settledRow{status: ok, label: "s01of02"}},
		{"failed twice: the last", []row{{failed, "e1", "s01of02"}, {failed, "e2", "all"}}, settledRow{status: failed, err: "e2", label: "all"}},
	}
	for _, tc := range tests {
		var cols cellColumns
		for _, r := range tc.rows {
			cols.ids, cols.status, cols.errs = append(cols.ids, "c1"), append(cols.status, r.status), append(cols.errs, r.err)
			cols.workload, cols.platform, cols.policy = append(cols.workload, "w"), append(cols.platform, "p"), append(cols.policy, "fifo")
			cols.instance, cols.load = append(cols.instance, 1), append(cols.load, 0.9)
		}
		pub := &published{cells: map[string]*settledRow{}}
		for i, r := range tc.rows {
			pub.settle(cols, i, r.label)
		}
		tc.want.name = "w/i001/L0.9/p/fifo"
		if got := pub.cells["c1"]; len(pub.cells) != 1 || *got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, *got, tc.want)
		}
	}
}

// A failed cell's error is printed whole: a decision process's fault ends
// with its stderr lines, which `sweep status` used to cut after "its last
// 4 stderr lines:" (issue 35). The fault's text is policy/child's.
func TestWriteFailedCellsPrintsTheStderrTail(t *testing.T) {
	fault := "decision process python3 mine.py: decision 1 (hello) at 0 s: the decision process exited with status 1; its last 4 stderr lines:\n" +
		"\tTraceback (most recent call last):\n\t  File \"mine.py\", line 2, in <module>\n\t    from sweep_policy import RigidPolicy, run\n" +
		"\tModuleNotFoundError: No module named 'sweep_policy'"
	var b strings.Builder
	WriteFailedCells(&b, []FailedCell{{Name: "kth-R/1996-10/L-/single:100/mine", ID: "abc", Shard: "all", Error: fault}})
	want := "  kth-R/1996-10/L-/single:100/mine (all, abc):\n" +
		"    decision process python3 mine.py: decision 1 (hello) at 0 s: the decision process exited with status 1; its last 4 stderr lines:\n" +
		"      Traceback (most recent call last):\n" +
		"        File \"mine.py\", line 2, in <module>\n" +
		"          from sweep_policy import RigidPolicy, run\n" +
		"      ModuleNotFoundError: No module named 'sweep_policy'\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
