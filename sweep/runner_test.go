package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/model/grid"

	"github.com/sweep-sched/sweep/analysis"
	agrid "github.com/sweep-sched/sweep/analysis/grid"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

func loadSmall(t *testing.T) *Manifest { return loadTestManifest(t, "testdata/small.yaml") }

// loadTestManifest loads a test manifest, failing the test on an error.
func loadTestManifest(t *testing.T, path string) *Manifest {
	t.Helper()
	m, err := LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustRun(t *testing.T, m *Manifest, opts RunOptions) *Summary {
	t.Helper()
	sum, err := Run(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// tableRows reads every column of a results table except wall_ms (a
// measurement, not a result) as one text line per row, sorted, with floats
// written bit-exactly. It fails on a duplicate row key.
func tableRows(t *testing.T, dir, name string, key func(row []string) string) []string {
	t.Helper()
	return tableOf(t, loadSmall(t), dir, name, key)
}

func tableOf(t *testing.T, m *Manifest, dir, name string, key func(row []string) string) []string {
	t.Helper()
	schema := m.CellsSchema()
	switch name {
	case table.Jobs:
		schema = table.JobsSchema()
	case table.Users:
		schema = table.UsersSchema()
	}
	var names []string
	for _, c := range schema.Columns {
		if c.Name != "wall_ms" {
			names = append(names, c.Name)
		}
	}
	set, problems, err := parquet.ReadColumns(dir, name, names)
	if err != nil || len(problems) > 0 {
		t.Fatalf("reading %s: %v %v", name, err, problems)
	}
	rows := make([]string, set.Rows)
	seen := map[string]bool{}
	for i := 0; i < set.Rows; i++ {
		var fields []string
		for _, c := range set.Columns {
			switch {
			case c.IsNull(i):
				fields = append(fields, "null")
			case c.Strings != nil:
				fields = append(fields, c.Strings[i])
			case c.Int64s != nil:
				fields = append(fields, fmt.Sprint(c.Int64s[i]))
			default:
				fields = append(fields, fmt.Sprintf("%x", math.Float64bits(c.Float64s[i])))
			}
		}
		k := key(fields)
		if seen[k] {
			t.Fatalf("%s: row %s appears twice", name, k)
		}
		seen[k] = true
		rows[i] = strings.Join(fields, " ")
	}
	sort.Strings(rows)
	return rows
}

func cellKey(row []string) string { return row[0] }
func jobKey(row []string) string  { return row[0] + "/" + row[1] }

func sameTables(t *testing.T, want, got string) {
	t.Helper()
	for _, name := range []string{"cells", "jobs"} {
		key := cellKey
		if name == "jobs" {
			key = jobKey
		}
		a, b := tableRows(t, want, name, key), tableRows(t, got, name, key)
		if len(a) != len(b) {
			t.Fatalf("%s: %d rows vs %d", name, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s row %d differs:\n%s\n%s", name, i, a[i], b[i])
			}
		}
	}
}

// TestSameNumbersWhateverTheCores runs the small manifest with -j 1, -j 2
// and as three shards into one directory: every column but wall_ms must be
// identical, bit for bit, with no cell twice.
func TestSameNumbersWhateverTheCores(t *testing.T) {
	m := loadSmall(t)
	one, two, shards := t.TempDir(), t.TempDir(), t.TempDir()
	if s := mustRun(t, m, RunOptions{Out: one, Jobs: 1}); s.Ran != 24 || s.Failed != 0 {
		t.Fatalf("-j 1 ran %d cells, %d failed; want 24, 0", s.Ran, s.Failed)
	}
	mustRun(t, m, RunOptions{Out: two, Jobs: 2})
	total := 0
	for i := 1; i <= 3; i++ {
		s := mustRun(t, m, RunOptions{Out: shards, Jobs: 2, Shard: Shard{i, 3}})
		total += s.Ran
	}
	if total != 24 {
		t.Fatalf("3 shards ran %d cells, want 24", total)
	}
	sameTables(t, one, two)
	sameTables(t, one, shards)
	if rows := tableRows(t, one, "cells", cellKey); len(rows) != 24 {
		t.Fatalf("%d cells rows, want 24", len(rows))
	}
}

// TestResumeSkipsDone: a second run of the same manifest runs nothing; an
// added load runs only its new cells.
func TestResumeSkipsDone(t *testing.T) {
	m := loadSmall(t)
	out := t.TempDir()
	mustRun(t, m, RunOptions{Out: out, Jobs: 2})
	if s := mustRun(t, m, RunOptions{Out: out, Jobs: 2}); s.Ran != 0 || s.AlreadyDone != 24 {
		t.Fatalf("rerun ran %d, already done %d; want 0, 24", s.Ran, s.AlreadyDone)
	}
	data, _ := os.ReadFile("testdata/small.yaml")
	grown, err := ParseManifest([]byte(strings.Replace(string(data), "loads: [0.9, 1.2]", "loads: [0.9, 1.0, 1.2]", 1)), "grown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	grown.path = "testdata/small.yaml"
	if s := mustRun(t, grown, RunOptions{Out: out, Jobs: 2}); s.Ran != 12 || s.AlreadyDone != 24 {
		t.Fatalf("added load: ran %d, already done %d; want 12, 24", s.Ran, s.AlreadyDone)
	}
	changedText := strings.Replace(string(data), "total: 20000000", "total: 30000000", 1)
	changed, err := ParseManifest([]byte(changedText), "changed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	changed.path = filepath.Join(t.TempDir(), "changed.yaml")
	if err := os.WriteFile(changed.path, []byte(changedText), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = changed.Plan(out, Shard{}, false)
	var ce *ChangedError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "already holds cell fan-chain/i000/L0.9/burkimsher2013/pslr computed with other settings") {
		t.Fatalf("changed manifest: %v", err)
	}
	// The one setting that changed, named by its path in the manifest.
	if want := []string{"workloads[0].set.total: was 20000000, now 30000000"}; !slices.Equal(ce.Differences, want) {
		t.Errorf("changed manifest: differences %q, want %q", ce.Differences, want)
	}
}

// TestFailedCellsAreRecorded makes one cell panic: it is recorded failed
// with its error, the other 23 run, and the summary is an error. A rerun
// leaves it failed unless asked to retry it.
func TestFailedCellsAreRecorded(t *testing.T) {
	m := loadSmall(t)
	out := t.TempDir()
	victim := m.Cells()[5]
	boom := func(c Cell) {
		if c.ID == victim.ID {
			panic("injected fault")
		}
	}
	s := mustRun(t, m, RunOptions{Out: out, Jobs: 2, beforeCell: boom})
	if s.Ran != 24 || s.Failed != 1 || s.Err() == nil {
		t.Fatalf("ran %d, failed %d, err %v; want 24, 1, an error", s.Ran, s.Failed, s.Err())
	}
	set, _, err := parquet.ReadColumns(out, "cells", []string{"cell_id", "status", "error", "slr_max"})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for i, id := range set.Column("cell_id").Strings {
		if set.Column("status").Strings[i] == table.StatusFailed {
			failed++
			if id != victim.ID || !strings.Contains(set.Column("error").Strings[i], "panic: injected fault") || !set.Column("slr_max").IsNull(i) {
				t.Errorf("failed row %s: error %q, slr_max null %v", id, set.Column("error").Strings[i], set.Column("slr_max").IsNull(i))
			}
		} else if set.Column("error").IsNull(i) != true {
			t.Errorf("ok row %s has an error", id)
		}
	}
	if failed != 1 {
		t.Fatalf("%d failed rows, want 1", failed)
	}
	if p, _ := m.Plan(out, Shard{}, false); p.Failed != 1 || len(p.ToRun) != 0 || p.Done != 23 {
		t.Fatalf("plan after failure: done %d failed %d to run %d; want 23, 1, 0", p.Done, p.Failed, len(p.ToRun))
	}
	if s := mustRun(t, m, RunOptions{Out: out, Jobs: 2, RetryFailed: true}); s.Ran != 1 || s.Failed != 0 {
		t.Fatalf("retry ran %d, failed %d; want 1, 0", s.Ran, s.Failed)
	}
	if p, _ := m.Plan(out, Shard{}, false); p.Done != 24 {
		t.Fatalf("after retry %d done, want 24", p.Done)
	}
	ff := t.TempDir()
	s, err = Run(context.Background(), m, RunOptions{Out: ff, Jobs: 1, FailFast: true, beforeCell: boom})
	if err == nil || !strings.Contains(err.Error(), "--fail-fast") || s.Ran != 6 {
		t.Fatalf("fail-fast: ran %d, err %v; want 6 cells (the 6th fails) and an error", s.Ran, err)
	}
}

// TestKillAndResume kills a run with SIGKILL midway (in a child process,
// flushing every 2 cells), resumes it, and compares with an uninterrupted
// run: same numbers, no cell or job row twice.
func TestKillAndResume(t *testing.T) {
	if os.Getenv("SWEEP_KILL_CHILD") != "" {
		return
	}
	m := loadSmall(t)
	ref := t.TempDir()
	mustRun(t, m, RunOptions{Out: ref, Jobs: 2})

	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=TestKillChild")
	cmd.Env = append(os.Environ(), "SWEEP_KILL_CHILD="+out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		parts, _, _ := parquet.ListParts(out, "cells")
		if len(parts) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child wrote no results in 20 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	p, err := m.Plan(out, Shard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Done == 0 || p.Done == 24 {
		t.Fatalf("killed run finished %d cells; want some but not all", p.Done)
	}
	t.Logf("killed after %d of 24 cells", p.Done)
	s := mustRun(t, m, RunOptions{Out: out, Jobs: 2})
	if s.Ran != 24-p.Done {
		t.Fatalf("resume ran %d cells, want %d", s.Ran, 24-p.Done)
	}
	sameTables(t, ref, out)
}

// TestKillChild is the process TestKillAndResume kills: it runs the small
// manifest slowly, one cell at a time, flushing every 2 cells.
func TestKillChild(t *testing.T) {
	out := os.Getenv("SWEEP_KILL_CHILD")
	if out == "" {
		t.Skip("only run as TestKillAndResume's child")
	}
	m := loadSmall(t)
	slow := func(Cell) { time.Sleep(50 * time.Millisecond) }
	Run(context.Background(), m, RunOptions{Out: out, Jobs: 1, Flush: parquet.FlushPolicy{Cells: 2}, beforeCell: slow})
}

func TestBadManifests(t *testing.T) {
	base, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edits := []manifestEdit{
		{"unknown key", "record: {jobs: true}", "record: {jobs: true}\ncolour: blue", "bad.yaml: line 16: colour: unknown key; valid top-level keys: experiment, seed,"},
		{"unknown policy", "[pslr, random, fairshare]", "[pslr, edf]", `bad.yaml: line 14: policies: unknown policy "edf"; valid policies: random, fifo-task, fifo-job, fairshare, lrtf, srtf, pslr`},
		{"unknown preset", "burkimsher2013/fan-chain", "burkimsher2013/fan-out", `bad.yaml: line 6: workloads[0]: generator "burkimsher2013/fan-out": unknown; valid generators: burkimsher2013/uniform-independent`},
		{"load zero", "[0.9, 1.2]", "[0.9, 0]", "bad.yaml: line 13: loads: 0; every load ratio must be > 0"},
		{"negative load", "[0.9, 1.2]", "[-1]", "bad.yaml: line 13: loads: -1; every load ratio must be > 0"},
		{"zero instances", "instances: 2\n    set: {jobs: 40", "instances: 0\n    set: {jobs: 40", "bad.yaml: line 6: workloads[0]: instances 0; want a whole number >= 1"},
		// Both workloads fail, their sources made at once: the first in the
		// manifest's order is reported, whichever goroutine failed first.
		{"two bad workloads", "instances: 2\n    set: {jobs: 40, total: 20000000}\n  - generator: burkimsher2013/log-independent\n    label: logind\n    instances: 2",
			"instances: 0\n    set: {jobs: 40, total: 20000000}\n  - generator: burkimsher2013/log-independent\n    label: logind\n    instances: 0",
			"bad.yaml: line 6: workloads[0]: instances 0; want a whole number >= 1"},
		{"unreadable platform", "platform: burkimsher2013", "platform: nowhere/grid.yaml", `bad.yaml: line 4: platform: platform "nowhere/grid.yaml": not a preset (burkimsher2013, single:N) and no such file`},
		{"unknown set key", "jobs: 40,", "jobz: 40,", `bad.yaml: line 6: workloads[0]: set:`},
		{"unknown workload key", "    instances: 2\n    set: {jobs: 40", "    instances: 2\n    sets: {jobs: 40", `bad.yaml: line 8: workloads[0]: unknown key "sets" (did you mean set?); valid keys: label, generator, instances, set, trace`},
	}
	checkManifestEdits(t, base, "bad.yaml", edits)
}

func TestSlurmScript(t *testing.T) {
	m := loadSmall(t)
	var b strings.Builder
	if err := m.WriteSlurm(&b, SlurmOptions{Shards: 3, Out: "/scratch/small", CPUsPerTask: 8, Binary: "/opt/sweep", ManifestPath: "small.yaml"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=1-3\n", "#SBATCH --cpus-per-task=8\n",
		`exec '/opt/sweep' run 'small.yaml' --out '/scratch/small' -j "${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-1}}" --shard "${SLURM_ARRAY_TASK_ID}/3"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, b.String())
		}
	}
	// Shards partition the cells, whole workload instances at a time.
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		for _, c := range m.Cells() {
			if (Shard{i, 3}).contains(c) {
				seen[c.ID]++
			}
		}
	}
	if len(seen) != 24 {
		t.Fatalf("shards cover %d cells, want 24", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("cell %s in %d shards", id, n)
		}
	}
}

func TestParseShard(t *testing.T) {
	if sh, err := ParseShard("2/8"); err != nil || sh != (Shard{2, 8}) {
		t.Fatalf("2/8: %v %v", sh, err)
	}
	for _, bad := range []string{"0/3", "4/3", "1/0", "x", "1/2/3", "1 /2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestDefaultWorkersFollowGOMAXPROCS: with Jobs 0 a run uses
// runtime.GOMAXPROCS(0) workers, which follows a container's CPU quota,
// not runtime.NumCPU.
func TestDefaultWorkersFollowGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	m := loadSmall(t)
	m.Policies = m.Policies[:1]
	if s := mustRun(t, m, RunOptions{Out: t.TempDir()}); s.Workers != 1 {
		t.Errorf("%d workers under GOMAXPROCS=1; want 1", s.Workers)
	}
}

// TestPathsRelativeToManifest: platform files and traces are found
// relative to the manifest's folder, whatever the working directory; a
// file beside the working directory with the same name does not count
// (it used to be taken when the manifest's folder had none).
func TestPathsRelativeToManifest(t *testing.T) {
	root := t.TempDir()
	grid := "name: g\nchildren:\n  - {cluster: c1, cores: 4, kind: Kind1}\n"
	manifest := "experiment: paths\nseed: 1\nplatform: grid.yaml\nworkloads:\n  - generator: burkimsher2013/log-independent\n    instances: 1\n    set: {jobs: 10, kind2-prob: \"0\", cores: \"1\"}\nloads: [1.0]\npolicies: [fifo-task]\n"
	for path, text := range map[string]string{"cwd/grid.yaml": grid, "exp/m.yaml": manifest, "ok/m.yaml": manifest, "ok/grid.yaml": grid} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(root, "cwd"))
	_, err := LoadManifest("../exp/m.yaml")
	if want := `platform "../exp/grid.yaml": not a preset`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("platform file beside the working directory only: %v; want an error containing %q", err, want)
	}
	m, err := LoadManifest("../ok/m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p := m.platform["grid.yaml"]; p == nil || p.TotalCores() != 4 {
		t.Errorf("platform grid.yaml beside the manifest: %+v", p)
	}
}

// TestVolumeDecilesMatchJobRows: Fig. 7's deciles read from the small
// table the runner writes per cell equal, bit for bit, those computed from
// the job rows (the analysis's fallback for runs written before the
// table), so the analysis no longer needs the jobs table.
func TestVolumeDecilesMatchJobRows(t *testing.T) {
	m := loadSmall(t)
	dir := t.TempDir()
	mustRun(t, m, RunOptions{Out: dir, Jobs: 2})
	data, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	settings, _, err := analysis.ParseManifestSections(data, "testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	compared, err := analysis.Analyze(dir, settings, analysis.MeasuresOf(m.Models().Models()...))
	if err != nil {
		t.Fatal(err)
	}
	fromTable, err := agrid.Analyze(dir, compared)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, table.VolumeDeciles)); err != nil {
		t.Fatal(err)
	}
	fromJobs, err := agrid.Analyze(dir, compared)
	if err != nil {
		t.Fatal(err)
	}
	a, b := fromTable.Deciles, fromJobs.Deciles
	if a == nil || b == nil || len(a.Rows) != 2*3*grid.DecileCount {
		t.Fatalf("deciles from the table %v, from job rows %v; want 60 rows each (2 loads x 3 policies x 10)", a, b)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("deciles differ:\n table %+v\n jobs  %+v", a, b)
	}
}

// A manifestEdit turns a valid test manifest into a bad one: the first
// from becomes to, and parsing must fail with an error containing want.
type manifestEdit struct{ name, from, to, want string }

// checkManifestEdits applies each edit to base and parses the result as
// the manifest at path (which relative paths are taken from).
func checkManifestEdits(t *testing.T, base []byte, path string, edits []manifestEdit) {
	t.Helper()
	for _, e := range edits {
		text := strings.Replace(string(base), e.from, e.to, 1)
		if text == string(base) {
			t.Fatalf("%s: the substitution did not apply", e.name)
		}
		_, err := ParseManifest([]byte(text), path)
		if err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%s:\n got %v\nwant %q", e.name, err, e.want)
		}
	}
}
