//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package parquet

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on path, creating the file, and
// returns the function that releases it. The kernel releases the lock of a
// killed process, so no stale lock outlives its writer.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: opening lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: locking %s: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
