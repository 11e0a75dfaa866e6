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

// tryLock takes an exclusive flock on the open file f without waiting;
// held is false when another process holds it.
func tryLock(f *os.File) (held bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: locking %s: %w", f.Name(), err)
	}
	return true, nil
}

// waitLock waits for the flock of the open file f to be free, takes it
// shared and lets it go at once.
func waitLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("store: waiting for %s: %w", f.Name(), err)
		}
		return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}
}
