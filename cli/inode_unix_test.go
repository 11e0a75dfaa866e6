//go:build unix

package cli

import (
	"os"
	"syscall"
)

// inode is a file's inode number: a file replaced by a rename has another.
func inode(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
