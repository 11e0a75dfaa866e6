package sweep

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sweep-sched/sweep/store/table"
)

// cpuTimes are the CPU seconds the process and its reaped children have
// used so far, from getrusage: a child process's CPU (a Python policy's)
// is nowhere in the cells' own times.
type cpuTimes struct{ self, children float64 }

func readCPUTimes() cpuTimes {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	return cpuTimes{rusageSeconds(&self), rusageSeconds(&children)}
}

func rusageSeconds(r *syscall.Rusage) float64 {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()).Seconds()
}

// since is the CPU used from start to t.
func (t cpuTimes) since(start cpuTimes) cpuTimes {
	return cpuTimes{t.self - start.self, t.children - start.children}
}

// saveSessionCPU records the session's CPU time in out's CPUDir, written
// whole or not at all (a temporary file renamed).
func saveSessionCPU(out string, s table.SessionCPU) error {
	dir := filepath.Join(out, table.CPUDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("recording the run's CPU time: %w", err)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("recording the run's CPU time: %w", err)
	}
	tmp, err := writeTemp(dir, ".tmp-cpu-", append(data, '\n'))
	if err != nil {
		return fmt.Errorf("recording the run's CPU time: %w", err)
	}
	defer os.Remove(tmp)
	name := strings.NewReplacer(":", "", ".", "", "-", "").Replace(s.RunStarted) + "-" + s.Shard + ".json"
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("recording the run's CPU time: %w", err)
	}
	return nil
}
