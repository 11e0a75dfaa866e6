package enginetest

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Pybatsim returns pybatsim's launcher: $SWEEP_PYBATSIM, the repository's
// .venv-batsim (make pybatsim, scripts/install-pybatsim), or pybatsim on
// the PATH. It skips tb, saying why, when there is none.
func Pybatsim(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("SWEEP_PYBATSIM"); p != "" {
		return p
	}
	if root, err := moduleRoot(); err == nil {
		venv := filepath.Join(root, ".venv-batsim", "bin", "pybatsim")
		if _, err := os.Stat(venv); err == nil {
			return venv
		} else if !errors.Is(err, fs.ErrNotExist) {
			tb.Fatal(err)
		}
	}
	if p, err := exec.LookPath("pybatsim"); err == nil {
		return p
	}
	tb.Skip("pybatsim is not installed: run make pybatsim (or set SWEEP_PYBATSIM to its launcher)")
	return ""
}

// moduleRoot returns the directory holding go.mod, from the working
// directory (a test's package) up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fs.ErrNotExist
		}
		dir = up
	}
}
