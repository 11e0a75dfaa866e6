package parquet

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateTemp creates a new file in dir named prefix followed by a random
// suffix, open for writing, with the mode of any new file: 0666 less the
// umask. os.CreateTemp gives 0600 whatever the umask, which leaves results
// on a shared cluster file system unreadable to colleagues.
func CreateTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		f, err := os.OpenFile(filepath.Join(dir, prefix+rand.Text()[:12]), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}

// MkdirTemp creates a new directory in dir named prefix followed by a
// random suffix, with the mode of any new directory: 0777 less the umask
// (os.MkdirTemp gives 0700), and returns its path.
func MkdirTemp(dir, prefix string) (string, error) {
	for range 100 {
		path := filepath.Join(dir, prefix+rand.Text()[:12])
		err := os.Mkdir(path, 0o777)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return path, err
	}
	return "", &fs.PathError{Op: "mkdirtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}
