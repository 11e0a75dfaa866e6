//go:build killdisk

package sweep

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killDiskManifest is a run with many job rows per cell (4,000-job
// instances), so that a killed writer's temporary parts hold row groups.
const killDiskManifest = `experiment: killdisk
seed: 35
platform: burkimsher2013
workloads:
  - generator: burkimsher2013/log-independent
    label: logind
    instances: 72
    set: {jobs: 4000, total: 400000000}
loads: [0.9, 1.2]
policies: [pslr, fairshare, srtf]
record: {jobs: true}
`

// diskBytes is what the files under dir occupy (du's count: blocks).
func diskBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// temporaries lists the temporary files under dir: parts being written
// and manifest copies.
func temporaries(t *testing.T, dir string) (paths []string, bytes int64) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasPrefix(d.Name(), ".tmp-part-") || strings.HasPrefix(d.Name(), manifestTempPrefix)) {
			paths = append(paths, path)
			if info, err := d.Info(); err == nil {
				bytes += info.Size()
			}
		}
		return nil
	})
	return paths, bytes
}

// TestKill9OnSmallDisk is issue 35's acceptance check: a run with job rows
// is killed (SIGKILL) 10 times on a tmpfs that holds 1.3 times a clean
// run, then resumed: the resume completes, the tables equal the clean
// run's, and no temporary file is left. It mounts a tmpfs, so it needs
// root (make test-killdisk; .ci/run runs it).
func TestKill9OnSmallDisk(t *testing.T) {
	if os.Getenv("SWEEP_KILLDISK_CHILD") != "" {
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "killdisk.yaml")
	if err := os.WriteFile(path, []byte(killDiskManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m := loadTestManifest(t, path)
	clean := filepath.Join(dir, "clean")
	mustRun(t, m, RunOptions{Out: clean, Jobs: 2})
	size := diskBytes(t, clean)
	sizeKB := (size*13/10 + 1023) / 1024
	mnt := filepath.Join(dir, "disk")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%dk", sizeKB), "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root and CAP_SYS_ADMIN): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	t.Logf("clean run: %d KB on disk; tmpfs of %d KB (1.3x)", size/1024, sizeKB)
	out := filepath.Join(mnt, "out")

	rng := rand.New(rand.NewPCG(35, 10))
	maxTemps, maxTempBytes := 0, int64(0)
	for kill := 1; kill <= 10; kill++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillDiskChild$")
		cmd.Env = append(os.Environ(), "SWEEP_KILLDISK_CHILD="+out, "SWEEP_KILLDISK_MANIFEST="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(1000+rng.IntN(5000)) * time.Millisecond)
		temps, tempBytes := temporaries(t, out)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err == nil {
			t.Fatalf("kill %d: the run had finished; make it slower", kill)
		}
		if strings.Contains(stderr.String(), "no space left") {
			t.Fatalf("kill %d: the killed run met a full disk: %s", kill, stderr.String())
		}
		maxTemps, maxTempBytes = max(maxTemps, len(temps)), max(maxTempBytes, tempBytes)
		p, err := m.Plan(out, Shard{}, false)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("kill %d: %d of %d cells done, %d temporary files (%d KB) at the kill, %d KB used", kill, p.Done, p.Total, len(temps), tempBytes/1024, diskBytes(t, mnt)/1024)
	}
	s, err := Run(context.Background(), m, RunOptions{Out: out, Jobs: 2})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	t.Logf("resume ran %d cells; warnings %q; %d KB used", s.Ran, s.Warnings, diskBytes(t, mnt)/1024)
	if temps, _ := temporaries(t, out); len(temps) > 0 {
		t.Errorf("temporary files left: %q", temps)
	}
	if p, err := m.Plan(out, Shard{}, false); err != nil || p.Done != p.Total {
		t.Fatalf("after the resume: %v, %+v", err, p)
	}
	sameTables(t, clean, out)
	t.Logf("at most %d temporary files (%d KB) at a kill", maxTemps, maxTempBytes/1024)
}

// TestKillDiskChild is the run TestKill9OnSmallDisk kills: every cell
// slowed down, parts published as a real run's are (every 5 s or 500
// cells), so that a killed writer leaves temporary parts with row groups
// of job rows (64K rows each), as in issue 35's 172 MB of them.
func TestKillDiskChild(t *testing.T) {
	out := os.Getenv("SWEEP_KILLDISK_CHILD")
	if out == "" {
		t.Skip("only run as TestKill9OnSmallDisk's child")
	}
	m := loadTestManifest(t, os.Getenv("SWEEP_KILLDISK_MANIFEST"))
	slow := func(Cell) { time.Sleep(100 * time.Millisecond) }
	_, err := Run(context.Background(), m, RunOptions{Out: out, Jobs: 2, beforeCell: slow})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
