//go:build slurm

// The Slurm integration test runs the job-array script of `sweep slurm`
// on a real one-node Slurm that scripts/slurm-local installs and starts.
// Run it with `make test-slurm` (as root on a Debian machine); it skips,
// saying why, where Slurm cannot start.

package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
	"github.com/sweep-sched/sweep/sweep"
)

// slurmWait bounds every wait for the cluster.
const slurmWait = 5 * time.Minute

func TestSlurmJobArray(t *testing.T) {
	work := t.TempDir()
	startSlurm(t)
	binary := filepath.Join(t.TempDir(), "sweep")
	if out, err := exec.Command("go", "build", "-o", binary, "../cmd/sweep").CombinedOutput(); err != nil {
		t.Fatalf("building sweep: %v\n%s", err, out)
	}
	for _, name := range []string{"slurm.yaml", "slurm-failing.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := sweep.LoadManifest(filepath.Join(work, "slurm.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// inShard lists shard i's cells: all of them are to run in an empty
	// directory.
	inShard := func(i int) map[string]bool {
		p, err := m.Plan(t.TempDir(), sweep.Shard{Index: i, Count: 4}, false)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, c := range p.ToRun {
			ids[c.ID] = true
		}
		return ids
	}
	// sweep slurm asks the real sinfo whether a node has the CPUs asked for.
	for _, tc := range []struct {
		cpus string
		warn bool
	}{{"1", false}, {"4096", true}} {
		cmd := exec.Command(binary, "slurm", "slurm.yaml", "--shards", "4", "--cpus", tc.cpus)
		cmd.Dir = work
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sweep slurm --cpus %s: %v", tc.cpus, err)
		}
		if warned := strings.Contains(stderr.String(), "no node on this cluster has that many CPUs"); warned != tc.warn {
			t.Errorf("sweep slurm --cpus %s: stderr %q; want a warning: %v", tc.cpus, stderr.String(), tc.warn)
		}
	}

	script := slurmScript(t, work, binary, "slurm.yaml", "--shards", "4")
	results := filepath.Join(work, "results", "slurmtest")

	// The whole array, with task 1 cancelled after its first publication.
	began := time.Now()
	first := sbatch(t, work, script)
	waitFor(t, "task 1's first published part", func() bool { return countParts(t, results, "s01of04") > 0 })
	// sweep status reads the directory while the shards write into it.
	out := sweepStatus(t, binary, results)
	t.Logf("sweep status while the array runs:\n%s", out)
	if !strings.Contains(out, "48 cells, ") || !strings.Contains(out, "\ns01of04  12     ") {
		t.Error("sweep status does not show the 48 cells and shard 1")
	}
	slurmCmd(t, work, "scancel", first+"_1")
	waitGone(t, first)
	t.Logf("array %s done in %s", first, time.Since(began).Round(time.Second))
	if state, code := taskState(t, first+"_1"); state != "CANCELLED" {
		t.Errorf("task 1: state %s exit %s, want CANCELLED", state, code)
	}
	for i := 2; i <= 4; i++ {
		if state, code := taskState(t, fmt.Sprintf("%s_%d", first, i)); state != "COMPLETED" || code != "0:0" {
			t.Errorf("task %d: state %s exit %s, want COMPLETED 0:0", i, state, code)
		}
	}
	doneBefore := doneCells(t, results)
	var shard1Done int
	for id := range doneBefore {
		if inShard(1)[id] {
			shard1Done++
		}
	}
	if shard1Done == 0 || shard1Done == 12 {
		t.Fatalf("shard 1 had %d of its 12 cells done when cancelled; the test needs a task cancelled mid-run (cells too fast or too slow here?)", shard1Done)
	}
	if len(doneBefore) != 36+shard1Done {
		t.Fatalf("%d cells done after the first array, want 36 of shards 2-4 and %d of shard 1", len(doneBefore), shard1Done)
	}

	// The same script again: task 1 runs only what was left; the others nothing.
	began = time.Now()
	second := sbatch(t, work, script)
	waitGone(t, second)
	t.Logf("resubmitted array %s done in %s", second, time.Since(began).Round(time.Second))
	wantLine := fmt.Sprintf("12 in this shard, %d already done, %d ran (0 failed)", shard1Done, 12-shard1Done)
	if log := taskLog(t, work, "slurmtest", second, 1, ".out"); !strings.Contains(log, wantLine) {
		t.Errorf("resubmitted task 1 printed %q, want %q", log, wantLine)
	}
	for i := 2; i <= 4; i++ {
		if log := taskLog(t, work, "slurmtest", second, i, ".out"); !strings.Contains(log, "12 in this shard, 12 already done, 0 ran") {
			t.Errorf("resubmitted task %d printed %q; it should have found its cells done", i, log)
		}
	}

	if out := sweepStatus(t, binary, results); !strings.Contains(out, "48 cells, 48 done, 0 failed, 0 remaining\n") {
		t.Errorf("sweep status after the resubmitted array:\n%s", out)
	}

	// Two runs of shard 3 at once, into a fresh directory.
	raceScript := slurmScript(t, work, binary, "slurm.yaml", "--shards", "4", "--out", "race")
	began = time.Now()
	r1 := sbatch(t, work, raceScript, "--array=3")
	r2 := sbatch(t, work, raceScript, "--array=3")
	waitGone(t, r1)
	waitGone(t, r2)
	t.Logf("two copies of task 3 done in %s", time.Since(began).Round(time.Second))
	// The copy that comes second waits for the first (a run of the same
	// manifest whose cells overlap waits for the directory: README, "Two
	// runs at once") and then finds the shard done, so between them the
	// copies computed the shard's 12 cells once each.
	computed := 0
	for _, id := range []string{r1, r2} {
		log := taskLog(t, work, "slurmtest", id, 3, ".out")
		ran := regexp.MustCompile(`(\d+) ran`).FindStringSubmatch(log)
		if ran == nil {
			t.Fatalf("task %s_3 printed %q; want the count of cells it ran", id, log)
		}
		n, _ := strconv.Atoi(ran[1])
		computed += n
	}
	if computed != 12 {
		t.Fatalf("the two copies of task 3 computed %d cells in all; want the shard's 12, each once (the second waits for the first)", computed)
	}
	t.Logf("the two copies of task 3 computed %d cells for the shard's 12", computed)

	// A local run on 2 cores is the reference, bit for bit.
	began = time.Now()
	reference := filepath.Join(work, "reference")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", filepath.Join(work, "slurm.yaml"), "-j", "2", "--out", reference}, &stdout, &stderr); code != 0 {
		t.Fatalf("local run: exit %d\n%s", code, stderr.String())
	}
	t.Logf("local run -j 2 in %s", time.Since(began).Round(time.Second))
	want := cellLines(t, m, reference, nil)
	if got := cellLines(t, m, results, nil); !equalLines(t, "array results", got, want) {
		t.Error("the array's cells differ from the local run's")
	}
	wantJobs := jobDigests(t, reference)
	if got := jobDigests(t, results); !equalDigests(t, "array jobs", got, wantJobs) {
		t.Error("the array's job rows differ from the local run's")
	}
	shard3 := inShard(3)
	if got := cellLines(t, m, filepath.Join(work, "race"), nil); !equalLines(t, "race results", got, cellLines(t, m, reference, shard3)) {
		t.Error("two copies of shard 3 left other cells than one run would")
	}
	raceJobs := jobDigests(t, filepath.Join(work, "race"))
	for id := range wantJobs {
		if !shard3[id] {
			delete(wantJobs, id)
		}
	}
	if !equalDigests(t, "race jobs", raceJobs, wantJobs) {
		t.Error("two copies of shard 3 left other job rows than one run would")
	}

	// Failed cells fail their task.
	failing := slurmScript(t, work, binary, "slurm-failing.yaml", "--shards", "2")
	f := sbatch(t, work, failing)
	waitGone(t, f)
	for i := 1; i <= 2; i++ {
		if state, code := taskState(t, fmt.Sprintf("%s_%d", f, i)); state != "FAILED" || code != "1:0" {
			t.Errorf("failing task %d: state %s exit %s, want FAILED 1:0", i, state, code)
		}
		if log := taskLog(t, work, "slurmfail", f, i, ".err"); !strings.Contains(log, "1 of 1 cells failed") {
			t.Errorf("failing task %d's error file: %q", i, log)
		}
	}
}

// startSlurm starts a one-node Slurm for the test and stops it at the end;
// clients find it through SLURM_CONF.
func startSlurm(t *testing.T) {
	t.Helper()
	dir, err := os.MkdirTemp("", "slurm-local-")
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../scripts/slurm-local")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_LOCAL_DIR="+dir)
	began := time.Now()
	cmd := exec.Command(script, "start")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		t.Skipf("SKIP: Slurm could not start on this machine (%v):\n%s", err, out)
	}
	t.Logf("Slurm started in %s", time.Since(began).Round(100*time.Millisecond))
	t.Setenv("SLURM_CONF", filepath.Join(dir, "etc", "slurm.conf"))
	t.Cleanup(func() {
		stop := exec.Command(script, "stop")
		stop.Env = env
		if out, err := stop.CombinedOutput(); err != nil {
			t.Errorf("stopping Slurm: %v\n%s", err, out)
		}
		os.RemoveAll(dir)
	})
}

// sweepStatus runs `sweep status results`.
func sweepStatus(t *testing.T, binary, results string) string {
	t.Helper()
	out, err := exec.Command(binary, "status", results).CombinedOutput()
	if err != nil {
		t.Fatalf("sweep status: %v\n%s", err, out)
	}
	return string(out)
}

// slurmScript writes the script that `sweep slurm M args...` prints, run
// in dir, and returns its path.
func slurmScript(t *testing.T, dir, binary, manifest string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"slurm", manifest, "--binary", binary}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sweep slurm: %v", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("submit-%d.sh", time.Now().UnixNano()))
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// slurmCmd runs a Slurm client in dir and returns its standard output.
func slurmCmd(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// sbatch submits script from dir and returns the job id.
func sbatch(t *testing.T, dir, script string, args ...string) string {
	t.Helper()
	out := slurmCmd(t, dir, "sbatch", append(append([]string{"--parsable"}, args...), script)...)
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	return id
}

// waitGone waits until squeue lists no task of the array job id.
func waitGone(t *testing.T, id string) {
	t.Helper()
	waitFor(t, "job "+id+" to leave the queue", func() bool {
		for _, line := range strings.Fields(slurmCmd(t, "", "squeue", "--noheader", "--format=%F")) {
			if line == id {
				return false
			}
		}
		return true
	})
}

func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(slurmWait)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %s for %s\nsqueue:\n%s", slurmWait, what, slurmCmd(t, "", "squeue"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var (
	jobStateField = regexp.MustCompile(`\bJobState=(\S+)`)
	exitCodeField = regexp.MustCompile(`\bExitCode=(\S+)`)
)

// taskState returns an array task's state and exit code ("1:0": status 1,
// no signal) from scontrol, which keeps finished jobs for MinJobAge.
func taskState(t *testing.T, task string) (state, exit string) {
	t.Helper()
	out := slurmCmd(t, "", "scontrol", "show", "job", task)
	s, e := jobStateField.FindStringSubmatch(out), exitCodeField.FindStringSubmatch(out)
	if s == nil || e == nil {
		t.Fatalf("scontrol show job %s: no JobState or ExitCode in\n%s", task, out)
	}
	return s[1], e[1]
}

// taskLog reads the output or error file of one array task, named as the
// script names them.
func taskLog(t *testing.T, dir, experiment, job string, task int, suffix string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("sweep-%s-%s_%d%s", experiment, job, task, suffix)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// countParts counts the published cells parts of one shard.
func countParts(t *testing.T, results, label string) int {
	t.Helper()
	parts, _, err := parquet.ListParts(results, "cells")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range parts {
		if strings.HasPrefix(filepath.Base(p.Path), "part-"+label+"-") {
			n++
		}
	}
	return n
}

// doneCells returns the ids of the cells with an ok row.
func doneCells(t *testing.T, results string) map[string]bool {
	t.Helper()
	set, problems, err := parquet.ReadColumns(results, "cells", []string{"cell_id", "status"})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	done := map[string]bool{}
	for i, id := range set.Column("cell_id").Strings {
		if set.Column("status").Strings[i] == table.StatusOK {
			done[id] = true
		}
	}
	return done
}

// cellLines renders every cells row (of the cells in only, when given) but
// its wall_ms as a line, floats as their bits, sorted; a cell twice fails
// the test.
func cellLines(t *testing.T, m *sweep.Manifest, results string, only map[string]bool) []string {
	t.Helper()
	var names []string
	for _, c := range m.CellsSchema().Columns {
		if c.Name != "wall_ms" {
			names = append(names, c.Name)
		}
	}
	set, problems, err := parquet.ReadColumns(results, "cells", names)
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	seen := map[string]bool{}
	var lines []string
	for i := range set.Rows {
		id := set.Column("cell_id").Strings[i]
		if only != nil && !only[id] {
			continue
		}
		if seen[id] {
			t.Fatalf("%s: cell %s has two rows", results, id)
		}
		seen[id] = true
		lines = append(lines, rowText(set, i))
	}
	sort.Strings(lines)
	return lines
}

func rowText(set *parquet.ColumnSet, i int) string {
	var fields []string
	for _, c := range set.Columns {
		switch {
		case c.IsNull(i):
			fields = append(fields, "null")
		case c.Type == store.TypeString:
			fields = append(fields, c.Strings[i])
		case c.Type == store.TypeInt64:
			fields = append(fields, fmt.Sprint(c.Int64s[i]))
		default:
			fields = append(fields, fmt.Sprintf("%x", math.Float64bits(c.Float64s[i])))
		}
	}
	return strings.Join(fields, " ")
}

// jobDigests hashes each cell's job rows in job order; a cell whose jobs
// appear twice gets a different digest than one whose jobs appear once.
func jobDigests(t *testing.T, results string) map[string]string {
	t.Helper()
	schema := table.JobsSchema()
	names := make([]string, len(schema.Columns))
	for i, c := range schema.Columns {
		names[i] = c.Name
	}
	set, problems, err := parquet.ReadColumns(results, "jobs", names)
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	byCell := map[string][]int{}
	ids, jobs := set.Column("cell_id").Strings, set.Column("job").Int64s
	for i, id := range ids {
		byCell[id] = append(byCell[id], i)
	}
	digests := map[string]string{}
	for id, rows := range byCell {
		sort.SliceStable(rows, func(a, b int) bool { return jobs[rows[a]] < jobs[rows[b]] })
		h := sha256.New()
		for _, r := range rows {
			fmt.Fprintln(h, rowText(set, r))
		}
		digests[id] = fmt.Sprintf("%d rows %x", len(rows), h.Sum(nil))
	}
	return digests
}

func equalLines(t *testing.T, what string, got, want []string) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Logf("%s: %d rows, want %d", what, len(got), len(want))
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			t.Logf("%s: row %d\n got %s\nwant %s", what, i, got[i], want[i])
			return false
		}
	}
	return true
}

func equalDigests(t *testing.T, what string, got, want map[string]string) bool {
	t.Helper()
	ok := len(got) == len(want)
	for id, d := range want {
		if got[id] != d {
			t.Logf("%s: cell %s: %s, want %s", what, id, got[id], d)
			ok = false
		}
	}
	if !ok {
		t.Logf("%s: %d cells, want %d", what, len(got), len(want))
	}
	return ok
}
