package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/resultstest"
	"github.com/sweep-sched/sweep/store/parquet"
)

// copyFile copies testdata file from into dir under its base name.
func copyFile(t *testing.T, from, dir string) string {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, filepath.Base(from))
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestChangedCellsRefused runs a manifest of each model, changes what its
// cells' results depend on (a section setting, a generator parameter, a
// trace's content) and runs again into the same directory: refused before
// anything is written, naming the change. Before the check compared cells
// by a name rebuilt without the month, the rigid cases ran and added their
// cells beside the old ones (issue 35), and a changed trace was not named.
func TestChangedCellsRefused(t *testing.T) {
	cases := []struct {
		name     string
		manifest string
		setup    [2]string // old -> new in the manifest before the first run
		files    []string  // as the manifest names them; copied beside it
		python   bool      // runs the Python client
		old, new string    // in the manifest's text ("" : none)
		file     string    // rewritten (one of files), old -> new in it
		cell     string
		want     []string // differences, each a substring of one
	}{
		{name: "grid generator parameter", manifest: "testdata/small.yaml", old: "total: 20000000", new: "total: 30000000",
			cell: "fan-chain/i000/L0.9/burkimsher2013/pslr", want: []string{"workloads[0].set.total: was 20000000, now 30000000"}},
		{name: "moldable section", manifest: "testdata/moldable.yaml", old: "shuffles: 3", new: "shuffles: 4",
			cell: "high-n12/i000/L-/single:16/DEMT", want: []string{"moldable.shuffles: was 3, now 4"}},
		{name: "campaign section", manifest: "testdata/campaigns.yaml", files: []string{"../../workload/swf/testdata/tiny.swf.txt"},
			old: "record: {campaigns: true, jobs: true}", new: "record: {campaigns: true, jobs: true}\ncampaign: {job-order: lpt}",
			cell: "synth/i000/L-/single:8/ostrich", want: []string{"campaign: was absent, now {job-order: lpt}"}},
		{name: "campaign trace content", manifest: "testdata/campaigns.yaml", files: []string{"../../workload/swf/testdata/tiny.swf.txt"},
			file: "tiny.swf.txt", old: "\n5 ", new: "\n5 1",
			cell: "head/i000/L-/single:8/ostrich", want: []string{"input file tiny.swf.txt (sha256): was "}},
		{name: "rigid section", manifest: "testdata/fairshare-tiny.yaml", files: []string{"norequest.swf.txt"},
			old: "policies: [fcfs-easy]", new: "policies: [fcfs-easy]\nrigid: {window: sliding}",
			cell: "tiny-T/1970-01/single:4/fcfs-easy", want: []string{"rigid: was absent, now {window: sliding}"}},
		{name: "rigid fairshare alias", manifest: "testdata/fairshare-tiny.yaml", files: []string{"norequest.swf.txt"},
			old: "policies: [fcfs-easy]", new: "policies: [fcfs-easy]\nfairshare: {tw: 24h}",
			cell: "tiny-T/1970-01/single:4/fcfs-easy", want: []string{"fairshare: was absent, now {tw: 24h}"}},
		{name: "rigid policy script", manifest: "testdata/fairshare-tiny.yaml", python: true,
			setup: [2]string{"policies: [fcfs-easy]", "policies: [fcfs-easy, {name: py-easy, command: [python3, ../../python/examples/easy.py]}]"},
			files: []string{"norequest.swf.txt", "../../python/examples/easy.py"},
			file:  "easy.py", old: "from sweep_policy", new: "# edited\nfrom sweep_policy",
			cell: "tiny-T/1970-01/single:4/py-easy", want: []string{"policy py-easy's definition: was command \"python3\" \"easy.py\"@sha256:"}},
		{name: "rigid trace content", manifest: "testdata/fairshare-tiny.yaml", files: []string{"norequest.swf.txt"},
			file: "norequest.swf.txt", old: "1 100 0 60 2", new: "1 100 0 90 2",
			cell: "tiny-T/1970-01/single:4/fcfs-easy", want: []string{"input file norequest.swf.txt (sha256): was "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.python {
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 is absent: the Python policy cannot run")
				}
				python, _ := filepath.Abs("../python")
				t.Setenv("PYTHONPATH", python)
			}
			dir := t.TempDir()
			text, err := os.ReadFile(tc.manifest)
			if err != nil {
				t.Fatal(err)
			}
			text = []byte(strings.Replace(string(text), tc.setup[0], tc.setup[1], 1))
			for _, f := range tc.files {
				copyFile(t, filepath.Join(filepath.Dir(tc.manifest), f), dir)
			}
			// The copied files sit beside the manifest.
			for _, f := range tc.files {
				text = []byte(strings.ReplaceAll(string(text), f, filepath.Base(f)))
			}
			path := filepath.Join(dir, "m.yaml")
			if err := os.WriteFile(path, text, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if s := mustRun(t, loadTestManifest(t, path), RunOptions{Out: out, Jobs: 2}); s.Failed != 0 {
				t.Fatalf("%d cells failed", s.Failed)
			}
			edit := func(path, old, new string) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), old) {
					t.Fatalf("%s has no %q", path, old)
				}
				if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.file != "" {
				edit(filepath.Join(dir, tc.file), tc.old, tc.new)
			} else {
				edit(path, tc.old, tc.new)
			}
			before := resultstest.Snapshot(t, out)
			_, err = Run(context.Background(), loadTestManifest(t, path), RunOptions{Out: out, Jobs: 2})
			var ce *ChangedError
			if !errors.As(err, &ce) {
				t.Fatalf("changed run: %v; want a ChangedError", err)
			}
			if ce.Cell != tc.cell {
				t.Errorf("refused for cell %s, want %s", ce.Cell, tc.cell)
			}
			for _, w := range tc.want {
				if !slices.ContainsFunc(ce.Differences, func(d string) bool { return strings.Contains(d, w) }) {
					t.Errorf("differences %q name no %q", ce.Differences, w)
				}
			}
			if after := resultstest.Snapshot(t, out); !slices.Equal(before, after) {
				t.Errorf("the refused run wrote into %s:\nbefore %q\nafter  %q", out, before, after)
			}
		})
	}
}

// TestOtherManifestRefusedWhileRunning: while a run writes a directory, a
// run of another manifest (another seed: every cell's id changes) into it
// is refused, naming the directory and the running process; the first
// run's tables are complete and equal a lone run's. Before the check ran
// under the lock, both ran and the directory held 48 cells of two seeds
// (issue 35).
func TestOtherManifestRefusedWhileRunning(t *testing.T) {
	m := loadSmall(t)
	lone, shared := t.TempDir(), t.TempDir()
	mustRun(t, m, RunOptions{Out: lone, Jobs: 2})
	text, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	otherPath := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(otherPath, []byte(strings.Replace(string(text), "seed: 7", "seed: 8", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	other := loadTestManifest(t, otherPath)

	started, refused := make(chan struct{}), make(chan struct{})
	var once sync.Once
	first := make(chan *Summary, 1)
	go func() {
		first <- mustRun(t, m, RunOptions{Out: shared, Jobs: 2, beforeCell: func(Cell) {
			once.Do(func() {
				close(started)
				<-refused
			})
		}})
	}()
	<-started
	before := resultstest.Snapshot(t, shared)
	_, err = Run(context.Background(), other, RunOptions{Out: shared, Jobs: 2})
	close(refused)
	var inUse *InUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("second run: %v; want an InUseError", err)
	}
	if inUse.Out != shared || inUse.Other.PID != os.Getpid() || !strings.HasSuffix(inUse.Other.Label, filepath.Join("testdata", "small.yaml")) {
		t.Errorf("refusal names %s and %+v; want %s and this process running testdata/small.yaml", inUse.Out, inUse.Other, shared)
	}
	for _, w := range []string{shared, fmt.Sprintf("pid %d on host ", os.Getpid()), "small.yaml"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("message %q does not name %q", err, w)
		}
	}
	if after := resultstest.Snapshot(t, shared); len(after) < len(before) {
		t.Errorf("the refused run removed files: before %q, after %q", before, after)
	}
	if s := <-first; s.Ran != 24 || s.Failed != 0 {
		t.Fatalf("first run ran %d (%d failed), want 24 (0)", s.Ran, s.Failed)
	}
	sameTables(t, lone, shared)
}

// TestTruncatedChildPartRerun truncates a jobs part (as a full disk
// does): status names it, the plan counts the cells published with it as
// not done, and the resume moves the flush's parts aside and runs those
// cells again, leaving tables equal to a lone run's. Before, only cells/
// was checked: the run had nothing to do and the jobs table stayed
// unreadable (issue 35).
func TestTruncatedChildPartRerun(t *testing.T) {
	m := loadSmall(t)
	lone, dir := t.TempDir(), t.TempDir()
	mustRun(t, m, RunOptions{Out: lone, Jobs: 2})
	mustRun(t, m, RunOptions{Out: dir, Jobs: 1, Flush: parquet.FlushPolicy{Cells: 5}})
	jobs, err := filepath.Glob(filepath.Join(dir, "jobs", "part-*.parquet"))
	if err != nil || len(jobs) < 2 {
		t.Fatalf("jobs parts %q (%v); want several", jobs, err)
	}
	victim := jobs[1]
	info, err := os.Stat(victim)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(victim, info.Size()/2); err != nil {
		t.Fatal(err)
	}
	st, err := ReadStatus(dir, m, time.Now(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(st.Problems, func(p parquet.Problem) bool { return p.Path == victim }) {
		t.Errorf("status problems %v do not name %s", st.Problems, victim)
	}
	plan, err := m.Plan(dir, Shard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.ToRun) != 5 {
		t.Errorf("plan runs %d cells, want the 5 of the truncated flush", len(plan.ToRun))
	}
	s := mustRun(t, m, RunOptions{Out: dir, Jobs: 2})
	if s.Ran != 5 {
		t.Errorf("resume ran %d cells, want 5", s.Ran)
	}
	sameTables(t, lone, dir)
	if _, err := os.Stat(victim + ".bad"); err != nil {
		t.Errorf("the truncated part was not moved aside: %v", err)
	}
}

// TestMonthsMovedNotRefused: a rigid manifest whose months move (a month
// added before the first, so every month's index shifts) keeps its
// finished cells and runs the new month only: months are named by their
// month, not their index, so no cell looks changed.
func TestMonthsMovedNotRefused(t *testing.T) {
	dir := t.TempDir()
	// One 2-processor job on 1970-01-01 and one on 1970-02-01 (2678400 s).
	trace := "; UnixStartTime: 0\n; MaxProcs: 4\n" +
		"1 100 0 60 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 2678500 0 60 2 -1 -1 2 -1 -1 1 2 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(filepath.Join(dir, "two.swf.txt"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := func(from string) string {
		return "experiment: months\nseed: 1\nplatform: single:4\nworkloads:\n" +
			"  - {trace: two.swf.txt, label: two, months: {from: " + from + ", to: 1970-02}, estimates: [T]}\n" +
			"policies: [fcfs-easy]\n"
	}
	path := filepath.Join(dir, "m.yaml")
	out := filepath.Join(dir, "out")
	if err := os.WriteFile(path, []byte(manifest("1970-02")), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := mustRun(t, loadTestManifest(t, path), RunOptions{Out: out, Jobs: 1}); s.Ran != 1 {
		t.Fatalf("ran %d cells, want 1", s.Ran)
	}
	if err := os.WriteFile(path, []byte(manifest("1970-01")), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Run(context.Background(), loadTestManifest(t, path), RunOptions{Out: out, Jobs: 1})
	if err != nil {
		t.Fatalf("months moved: %v", err)
	}
	if s.Ran != 1 || s.AlreadyDone != 1 {
		t.Errorf("ran %d, %d already done; want the new month only (1, 1)", s.Ran, s.AlreadyDone)
	}
}
