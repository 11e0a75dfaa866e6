package parquet

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func timeOf(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func touch(t *testing.T, path string, modified time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, modified, modified); err != nil {
		t.Fatal(err)
	}
}

func TestNewTag(t *testing.T) {
	now := timeOf(t, "2026-03-01T10:04:05+02:00")
	a, err := NewTag("s01of03", now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewTag("s01of03", now)
	if err != nil {
		t.Fatal(err)
	}
	// The time is rendered in UTC: 10:04:05+02:00 is 08:04:05Z.
	pattern := regexp.MustCompile(`^s01of03-20260301T080405Z-[0-9a-f]{12}$`)
	if !pattern.MatchString(a) || !pattern.MatchString(b) {
		t.Errorf("tags %q, %q do not match %v", a, b, pattern)
	}
	if a == b {
		t.Errorf("two tags made in the same second are both %q", a)
	}
	if _, err := NewTag("s1/3", now); err == nil {
		t.Error("label with '/' accepted")
	}
}

func TestTagOf(t *testing.T) {
	tests := []struct{ name, tag string }{
		{"part-s01of03-20260301T080405Z-0a1b2c3d4e5f-000012.parquet", "s01of03-20260301T080405Z-0a1b2c3d4e5f"},
		{".tmp-part-abc-000001", "abc"},
		{"part-abc-000001.parquet.bad", ""},
		{"part-abc-x.parquet", ""},
		{"notes.parquet", ""},
	}
	for _, tt := range tests {
		if got := tagOf(tt.name); got != tt.tag {
			t.Errorf("tagOf(%q) = %q, want %q", tt.name, got, tt.tag)
		}
	}
}

// TestRemoveDeadTemps: the temporary files of writers that are not live
// go, whatever their age; a live writer's stay, as do parts and other
// files.
func TestRemoveDeadTemps(t *testing.T) {
	dir := t.TempDir()
	now := timeOf(t, "2026-03-01T10:00:00Z")
	cells := filepath.Join(dir, "cells")
	for _, name := range []string{
		".tmp-part-dead-000003",    // a killed writer's, a second old
		".tmp-part-live-000007",    // a live session's
		".tmp-part-junk",           // no writer's name: nobody's
		"part-dead-000000.parquet", // a part, never touched
		"notes.txt",
	} {
		touch(t, filepath.Join(cells, name), now)
	}
	removed, err := RemoveDeadTemps(dir, "cells", map[string]bool{"live": true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(cells, ".tmp-part-dead-000003"), filepath.Join(cells, ".tmp-part-junk")}
	if !reflect.DeepEqual(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	if left, want := dirNames(t, cells), []string{".tmp-part-live-000007", "notes.txt", "part-dead-000000.parquet"}; !reflect.DeepEqual(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
	if removed, err := RemoveDeadTemps(dir, "jobs", nil); err != nil || len(removed) != 0 {
		t.Errorf("missing table: removed %q, err %v; want nothing", removed, err)
	}
}

func TestOrphans(t *testing.T) {
	dir := t.TempDir()
	now := timeOf(t, "2026-03-01T10:00:00Z")
	for _, p := range []string{
		"cells/part-a-000001.parquet", "jobs/part-a-000001.parquet",
		"jobs/part-a-000002.parquet",  // killed before its cells part
		"cells/part-b-000001.parquet", // a flush with no job rows
		"jobs/.tmp-part-a-000003",
	} {
		touch(t, filepath.Join(dir, p), now)
	}
	got, err := Orphans(dir, "jobs", "cells")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "jobs", "part-a-000002.parquet")}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans %q, want %q", got, want)
	}
}

func TestMoveAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "part-a-000001.parquet")
	var got []string
	for range 2 {
		touch(t, path, time.Now())
		moved, err := MoveAside(path)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.Base(moved))
	}
	if want := []string{"part-a-000001.parquet.bad", "part-a-000001.parquet.bad1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("moved to %q, want %q", got, want)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("original still there: %v", err)
	}
	if _, err := MoveAside(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("moving a missing file: err %v, want one naming %s", err, path)
	}
}
