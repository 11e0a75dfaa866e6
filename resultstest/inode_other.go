//go:build !unix

package resultstest

import "io/fs"

// inode is 0 where the system has no inode numbers: snapshots then tell a
// replaced file by its size, mode and time alone.
func inode(fs.FileInfo) uint64 { return 0 }
