//go:build unix

package resultstest

import (
	"io/fs"
	"syscall"
)

// inode is a file's inode number: a file replaced by a rename has another.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
