package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// tinyGrid is a 4-cell grid manifest (one workload of 2 instances, one
// load, 2 policies) that runs in well under a second.
const tinyGrid = "experiment: tiny\nseed: 5\nplatform: burkimsher2013\nworkloads:\n" +
	"  - {generator: burkimsher2013/fan, instances: 2, set: {jobs: 5, total: \"50000000\"}}\n" +
	"loads: [1.0]\npolicies: [pslr, srtf]\n"

// runTiny writes manifest as DIR/m.yaml, runs it into DIR/results and
// returns both paths.
func runTiny(t *testing.T, manifest string) (path, out string) {
	t.Helper()
	dir := t.TempDir()
	path, out = filepath.Join(dir, "m.yaml"), filepath.Join(dir, "results")
	if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"run", path, "--out", out, "-j", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("sweep run: exit %d: %s", code, stderr.String())
	}
	return path, out
}

// TestResultsModesFollowUmask: the manifest copy, the analysis directory
// and its tables, and the report get the modes of any new file under the
// umask (0644 and 0755 under 022), not os.CreateTemp's 0600 and
// os.MkdirTemp's 0700, which colleagues on a shared file system cannot
// read.
func TestResultsModesFollowUmask(t *testing.T) {
	for _, tt := range []struct {
		umask           int
		file, directory os.FileMode
	}{{0o022, 0o644, 0o755}, {0o027, 0o640, 0o750}} {
		old := syscall.Umask(tt.umask)
		_, out := runTiny(t, tinyGrid)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"analyze", out}, &stdout, &stderr)
		if code == 0 {
			code = run(context.Background(), []string{"report", out, "--gantt=false"}, &stdout, &stderr)
		}
		syscall.Umask(old)
		if code != 0 {
			t.Fatalf("umask %03o: exit %d: %s", tt.umask, code, stderr.String())
		}
		for path, want := range map[string]os.FileMode{
			filepath.Join(out, "manifest.yaml"):                                              tt.file,
			filepath.Join(out, "analysis"):                                                   tt.directory,
			filepath.Join(out, "analysis", "ttest.parquet"):                                  tt.file,
			filepath.Join(out, "report", "index.html"):                                       tt.file,
			filepath.Join(out, "report", "figures"):                                          tt.directory,
			filepath.Join(out, "report", "figures", "fig09-mean-worst-case-slr-by-load.pdf"): tt.file,
		} {
			info, err := os.Stat(path)
			if err != nil {
				t.Errorf("umask %03o: %v", tt.umask, err)
				continue
			}
			if got := info.Mode().Perm(); got != want {
				t.Errorf("umask %03o: %s has mode %04o, want %04o", tt.umask, path, got, want)
			}
		}
	}
}

// TestUnfinishedRun: a run whose manifest plans cells it has not done
// (here a second workload added to its copy, as a run interrupted before
// that workload's cells leaves it) is refused by analyze and report with
// exit 1, naming the cells done and planned per workload; with --partial
// both work and say partial in the text, the tables' metadata and the
// page.
func TestUnfinishedRun(t *testing.T) {
	_, out := runTiny(t, tinyGrid)
	copyPath := filepath.Join(out, "manifest.yaml")
	data, err := os.ReadFile(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	grown := strings.Replace(string(data), "\nloads:", "\n  - {generator: burkimsher2013/fan-chain, label: chain, instances: 2, set: {jobs: 5, total: \"50000000\"}}\nloads:", 1)
	if err := os.WriteFile(copyPath, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"analyze", "report"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{command, out}, &stdout, &stderr)
		// fan: 2 instances x 1 load x 2 policies, all done; chain: the
		// same 4 planned, none done.
		for _, want := range []string{"is unfinished: 4 of 8 cells done (0 failed)", "  fan: 4 of 4 cells done\n", "  chain: 0 of 4 cells done (incomplete)", "--partial"} {
			if code != 1 || !strings.Contains(stderr.String(), want) {
				t.Errorf("sweep %s on an unfinished run: exit %d, %q; want exit 1 and %q", command, code, stderr.String(), want)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"analyze", out, "--partial"}, &stdout, &stderr); code != 0 {
		t.Fatalf("analyze --partial: exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"PARTIAL ANALYSIS of an unfinished run: incomplete workloads chain 0 of 4 cells\n",
		"completeness:                     PARTIAL: incomplete workloads chain\n",
		"cells planned:                    8\n",
		"cells by workload (done/planned): fan 4/4, chain 0/4\n",
		"root seed:                        5\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("analyze --partial prints no %q:\n%s", want, stdout.String())
		}
	}
	pf, err := file.OpenParquetFile(filepath.Join(out, "analysis", "dominance.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	metadata := map[string]string{}
	kv := pf.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		metadata[k] = kv.Values()[i]
	}
	pf.Close()
	for key, want := range map[string]string{
		"provenance.partial": "true", "provenance.incomplete_workloads": "chain",
		"provenance.cells_done": "4", "provenance.cells_planned": "8", "provenance.experiment": "tiny",
		"provenance.root_seed": "5", "analysis.reference": "pslr",
	} {
		if got := metadata[key]; got != want {
			t.Errorf("dominance.parquet metadata %s = %q, want %q", key, got, want)
		}
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"report", out, "--partial", "--gantt=false"}, &stdout, &stderr); code != 0 {
		t.Fatalf("report --partial: exit %d: %s", code, stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "<b>Partial analysis</b> of an unfinished run: incomplete workloads chain 0 of 4 cells.") {
		t.Errorf("the report of a partial analysis has no banner")
	}
}

// TestVersionAndHelp: `sweep version` and `sweep --version` print the
// version and exit 0; help asked for goes to stdout, for sweep and for a
// command; no command at all is an error on stderr.
func TestVersionAndHelp(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		code       int
		stdout     string // a regular expression
		emptyOther bool   // nothing on stderr
	}{
		{[]string{"version"}, 0, `^sweep (dev|devel\+[0-9a-f]+(-dirty)?|v\S+)\n$`, true},
		{[]string{"--version"}, 0, `^sweep (dev|devel\+[0-9a-f]+(-dirty)?|v\S+)\n$`, true},
		{[]string{"--help"}, 0, `(?s)^usage: sweep COMMAND.*\n  version   print sweep's version`, true},
		{[]string{"help"}, 0, `^usage: sweep COMMAND`, true},
		{[]string{"run", "-h"}, 0, `(?s)-retry-failed`, true},
		{[]string{"analyze", "--help"}, 0, `(?s)usage: sweep analyze DIR.*-partial`, true},
		{nil, 2, `^$`, false},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		if code != tt.code || !regexp.MustCompile(tt.stdout).MatchString(stdout.String()) || (tt.emptyOther && stderr.Len() > 0) {
			t.Errorf("sweep %q: exit %d, stdout %q, stderr %q; want exit %d, stdout matching %s", tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout)
		}
	}
}

// TestChangedManifestNamesTheSetting: a rerun into a results directory
// with the manifest's generator parameter changed exits 2 and names that
// setting with both values.
func TestChangedManifestNamesTheSetting(t *testing.T) {
	path, out := runTiny(t, tinyGrid)
	if err := os.WriteFile(path, []byte(strings.Replace(tinyGrid, "jobs: 5", "jobs: 6", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", path, "--out", out}, &stdout, &stderr)
	want := "the manifest changed: workloads[0].set.jobs: was 5, now 6"
	if code != 2 || !strings.Contains(stderr.String(), want) {
		t.Errorf("rerun with a changed manifest: exit %d, %q; want exit 2 and %q", code, stderr.String(), want)
	}
}

// TestTypedCommand: the resume hint repeats the command as typed, binary
// path included, quoted where a shell would split it.
func TestTypedCommand(t *testing.T) {
	got := typedCommand("bin/sweep", "run", []string{"experiments/a b.yaml", "-j", "2", "--out=it's"})
	want := `bin/sweep run 'experiments/a b.yaml' -j 2 '--out=it'\''s'`
	if got != want {
		t.Errorf("typedCommand = %s, want %s", got, want)
	}
}
