package parquet

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestSessions: a joined session is live to the next admission (flock
// conflicts between two opens of one file, in one process as between
// two); a session file nobody holds (its process killed) is dead, its
// tags reported and its file removed; a closed session is gone.
func TestSessions(t *testing.T) {
	dir := t.TempDir()
	a, err := Admit(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Live) != 0 || len(a.DeadTags) != 0 {
		t.Fatalf("new directory: live %v, dead %v", a.Live, a.DeadTags)
	}
	started := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	s, err := a.Join(Owner{Started: started, Key: "k1", Label: "m.yaml", Shard: "s01of02", Tags: []string{"t1", "t2"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Release()
	// A killed process's session: its file, with no lock on it.
	dead := filepath.Join(dir, sessionsDir, "host-1-x.json")
	if err := os.WriteFile(dead, []byte(`{"pid": 1, "host": "h", "tags": ["t9"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Admit(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Live) != 1 || b.Live[0].Key != "k1" || b.Live[0].PID != os.Getpid() || !b.Live[0].Started.Equal(started) {
		t.Fatalf("live %+v; want the joined session", b.Live)
	}
	if want := map[string]bool{"t1": true, "t2": true}; !reflect.DeepEqual(b.LiveTags(), want) {
		t.Errorf("live tags %v, want %v", b.LiveTags(), want)
	}
	if live, err := LiveSessions(dir); err != nil || len(live) != 1 || live[0].Label != "m.yaml" {
		t.Errorf("LiveSessions: %+v, %v; want the joined session", live, err)
	}
	if !reflect.DeepEqual(b.DeadTags, []string{"t9"}) {
		t.Errorf("dead tags %v, want [t9]", b.DeadTags)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead session's file is still there: %v", err)
	}
	// WaitFor returns once the session ends.
	done := make(chan error)
	go func() { done <- b.WaitFor(b.Live[0]) }()
	select {
	case err := <-done:
		t.Fatalf("WaitFor returned while the session lives: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	s.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c, err := Admit(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if len(c.Live) != 0 || len(c.DeadTags) != 0 {
		t.Errorf("after Close: live %v, dead %v; want none", c.Live, c.DeadTags)
	}
}
