package resultstest

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
)

// Snapshot lists every file under dir with its size, mode, modification
// time and inode: equal snapshots mean nothing under dir was written,
// created, replaced (a rename gives another inode) or removed. Tests run
// as root in CI, where a chmod a-w directory does not stop a write, so a
// snapshot, not a permission error, is how a test shows that a command
// left a directory alone.
func Snapshot(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %v %d %v", path, info.Size(), info.Mode(), info.ModTime().UnixNano(), inode(info)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
