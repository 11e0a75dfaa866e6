package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// externalManifest writes a manifest with the tiny trace and a policy
// script into a new folder and loads it.
func externalManifest(t *testing.T, policies, script string) (*Manifest, error) {
	t.Helper()
	dir := t.TempDir()
	trace, err := os.ReadFile("testdata/norequest.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "policies"), 0o755)
	os.WriteFile(filepath.Join(dir, "norequest.swf.txt"), trace, 0o644)
	os.WriteFile(filepath.Join(dir, "policies", "mine.py"), []byte(script), 0o644)
	text := `experiment: ext
seed: 1
platform: single:4
workloads:
  - trace: norequest.swf.txt
    label: tiny
    months: {from: 1970-01, to: 1970-01}
    estimates: [T]
policies: ` + policies + "\n"
	path := filepath.Join(dir, "m.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	return LoadManifest(path)
}

// cellIDs maps a manifest's cell names to their ids.
func cellIDs(t *testing.T, m *Manifest) map[string]string {
	ids := map[string]string{}
	for _, c := range m.Cells() {
		ids[c.Policy] = c.ID
	}
	return ids
}

// An external policy's command, params and script content are its
// identity; built-in policies keep their ids, and moving the folder
// keeps every id.
func TestExternalPolicyIdentity(t *testing.T) {
	load := func(policies, script string) map[string]string {
		m, err := externalManifest(t, policies, script)
		if err != nil {
			t.Fatal(err)
		}
		return cellIDs(t, m)
	}
	const mine = `[fcfs-easy, {name: mine, command: [python3, policies/mine.py], params: {k: "1"}}]`
	base := load(`[fcfs-easy]`, "")
	a := load(mine, "print(1)\n")
	if a["fcfs-easy"] != base["fcfs-easy"] {
		t.Errorf("an external entry changed fcfs-easy's id")
	}
	if again := load(mine, "print(1)\n"); again["mine"] != a["mine"] {
		t.Errorf("the same manifest in another folder changed the policy's id")
	}
	for what, ids := range map[string]map[string]string{
		"script": load(mine, "print(2)\n"),
		"params": load(strings.Replace(mine, `"1"`, `"2"`, 1), "print(1)\n"),
		"argv":   load(strings.Replace(mine, "python3", "python3.12", 1), "print(1)\n"),
	} {
		if ids["mine"] == a["mine"] {
			t.Errorf("a changed %s kept the policy's id", what)
		}
		if ids["fcfs-easy"] != base["fcfs-easy"] {
			t.Errorf("a changed %s changed fcfs-easy's id", what)
		}
	}
	m, err := externalManifest(t, mine, "print(1)\n")
	if err != nil {
		t.Fatal(err)
	}
	e := m.entries["mine"]
	if !filepath.IsAbs(e.Argv[1]) || e.Argv[0] != "python3" || e.FileSHA256[1] == "" || e.FileSHA256[0] != "" {
		t.Errorf("argv %q, hashes %q: want python3 from PATH and the script resolved and hashed", e.Argv, e.FileSHA256)
	}
	// The Parquet metadata's form; the hash of "print(1)\n" by sha256sum.
	want := "param \"k\"=\"1\"\ncommand \"python3\" \"policies/mine.py\"@sha256:cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213\n"
	if got := m.PolicyEntries()["mine"]; got != want {
		t.Errorf("metadata %q, want %q", got, want)
	}
}

func TestExternalPolicyErrors(t *testing.T) {
	tests := []struct{ policies, want string }{
		{`[{name: x, command: [a], batsim: [b]}]`, "give command (sweep's pipe protocol) or batsim (a Batsim scheduler), not both"},
		{`[{name: x, command: []}]`, "empty command"},
		{`[{name: fcfs-easy, command: [a]}]`, `policy "fcfs-easy": the name is model rigid's built-in policy`},
		{`[{name: x, command: [a], model: nope}]`, `model "nope": unknown; valid models: grid, campaign, moldable, rigid`},
		{`[{name: x, command: [a], model: campaign}]`, "model campaign runs no command policies"},
		{`[{name: x, command: [a], timeout: soon}]`, `timeout "soon": want a positive Go duration`},
		{`[{name: x, batsim: [a], params: {k: v}}]`, "a Batsim scheduler takes its options in its argv"},
		{`[{name: fcfs-easy, timeout: 5s}]`, "model and timeout apply to external policies"},
		{`[{name: x, commands: [a]}]`, `unknown key "commands" (did you mean command?); valid keys: name, policy, params, command, batsim, model, timeout`},
		{`[{name: x, command: [a], model: grid}]`, `workload "tiny" is a rigid workload, and policy "x" is a grid policy`},
	}
	for _, tt := range tests {
		_, err := externalManifest(t, tt.policies, "")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.policies, err, tt.want)
		}
	}
}

// externalRun writes a manifest of one rigid trace month under policies
// into a new folder (scripts beside it) and runs it.
func externalRun(t *testing.T, trace, month, policies string, scripts map[string]string, opts ...Option) (*Manifest, string, *Summary) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range scripts {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	text := `experiment: ext
seed: 1
platform: single:` + map[bool]string{true: "100", false: "4"}[strings.Contains(trace, "KTH")] + `
workloads:
  - trace: ` + trace + `
    label: t
    months: {from: ` + month + `, to: ` + month + `}
    estimates: ` + map[bool]string{true: "[T, R]", false: "[T]"}[strings.Contains(trace, "KTH")] + `
policies: ` + policies + "\n"
	path := filepath.Join(dir, "m.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	m, err := LoadManifest(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sum, err := Run(context.Background(), m, RunOptions{Out: out, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return m, out, sum
}

// measuresByPolicy reads every cell's status, error and measures, keyed
// by workload and then policy.
func measuresByPolicy(t *testing.T, m *Manifest, out string) map[string]map[string]string {
	t.Helper()
	names := []string{table.Workload, table.Policy, table.Status, table.Error}
	for _, ms := range m.models.Lookup("rigid").Measures() {
		names = append(names, ms.Name)
	}
	cols, _, err := parquet.ReadColumns(out, table.Cells, names)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]string{}
	for i := range cols.Rows {
		w := cols.Column(table.Workload).Strings[i]
		if got[w] == nil {
			got[w] = map[string]string{}
		}
		var row []string
		for _, c := range cols.Columns[2:] {
			row = append(row, fmt.Sprint(c.Value(i)))
		}
		got[w][cols.Column(table.Policy).Strings[i]] = strings.Join(row, " ")
	}
	return got
}

// The Python EASY example through the runner gives fcfs-easy's cells,
// every measure equal, on KTH-SP2 1996-10 (the hand-made fixture when the
// trace is absent); a Batsim scheduler's cells are measured by the same
// Outcome (on the fixture, where pybatsim's easyBackfill and fcfs-easy
// coincide).
func TestExternalPoliciesInTheRunner(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the Python example cannot run")
	}
	python, _ := filepath.Abs("../python")
	t.Setenv("PYTHONPATH", python)
	easy := filepath.Join(python, "examples", "easy.py")
	trace, _ := filepath.Abs("testdata/norequest.swf.txt")
	month := "1970-01"
	if abs, _ := filepath.Abs(kthTrace); fileExists(abs) && !testing.Short() {
		trace, month = abs, "1996-10"
	} else {
		t.Logf("%s is absent: the hand-made fixture only", kthTrace)
	}
	m, out, sum := externalRun(t, trace, month, `[fcfs-easy, {name: py-easy, command: [python3, `+easy+`]}]`, nil)
	if sum.Failed != 0 || sum.Ran != len(m.Cells()) {
		t.Fatalf("ran %d, failed %d: want %d, 0", sum.Ran, sum.Failed, len(m.Cells()))
	}
	for w, byPolicy := range measuresByPolicy(t, m, out) {
		if !strings.HasPrefix(byPolicy["fcfs-easy"], "ok") || byPolicy["py-easy"] != byPolicy["fcfs-easy"] {
			t.Errorf("%s: py-easy %q\nfcfs-easy %q", w, byPolicy["py-easy"], byPolicy["fcfs-easy"])
		}
	}
	// The Parquet metadata records the policy with its script's hash.
	script, err := os.ReadFile(easy)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("command \"python3\" %q@sha256:%x\n", easy, sha256.Sum256(script))
	parts, _, err := parquet.ListParts(out, table.Cells)
	if err != nil || len(parts) == 0 {
		t.Fatalf("parts %v: %v", parts, err)
	}
	for _, p := range parts {
		if got := p.Metadata["sweep.policy.py-easy"]; got != want {
			t.Errorf("%s: sweep.policy.py-easy %q, want %q", p.Path, got, want)
		}
	}
	pyb := os.Getenv("SWEEP_PYBATSIM")
	if venv, err := filepath.Abs("../.venv-batsim/bin/pybatsim"); pyb == "" && err == nil {
		if _, err := os.Stat(venv); err == nil {
			pyb = venv // make pybatsim's virtual environment
		}
	}
	if pyb == "" {
		t.Log("pybatsim is not installed (make pybatsim, or SWEEP_PYBATSIM): the Batsim cell is not run")
		return
	}
	fixture, _ := filepath.Abs("testdata/norequest.swf.txt")
	m, out, sum = externalRun(t, fixture, "1970-01", `[fcfs-easy, {name: pyb-easy, batsim: [`+pyb+`, -v, warning, easyBackfill]}]`, nil)
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	for w, byPolicy := range measuresByPolicy(t, m, out) {
		if byPolicy["pyb-easy"] != byPolicy["fcfs-easy"] {
			t.Errorf("%s: pyb-easy %q\nfcfs-easy %q", w, byPolicy["pyb-easy"], byPolicy["fcfs-easy"])
		}
	}
}

// A policy that crashes after its hello fails its cells with its stderr;
// the built-in's cells go on; --retry-failed runs the failed cells again.
func TestExternalPolicyFaultFailsItsCellsOnly(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	fixture, _ := filepath.Abs("testdata/norequest.swf.txt")
	// It runs from the manifest's folder: it reads a file beside it.
	crash := "import sys\nsys.stdin.readline()\nprint('{\"type\":\"hello\",\"protocol\":1}', flush=True)\nsys.stdin.readline()\n" +
		"sys.stderr.write(open('note.txt').read())\nsys.exit(3)\n"
	m, out, sum := externalRun(t, fixture, "1970-01", `[fcfs-easy, {name: crash, command: [python3, crash.py]}]`, map[string]string{"crash.py": crash, "note.txt": "my policy is broken\n"})
	if sum.Ran != 2 || sum.Failed != 1 {
		t.Fatalf("ran %d, failed %d: want 2, 1", sum.Ran, sum.Failed)
	}
	want := "decision 2 (decide: 1 submitted, 0 finished, 4 free) at 100 s: the decision process exited with status 3"
	for w, byPolicy := range measuresByPolicy(t, m, out) {
		if !strings.HasPrefix(byPolicy["fcfs-easy"], "ok") {
			t.Errorf("%s: fcfs-easy %q", w, byPolicy["fcfs-easy"])
		}
		if !strings.Contains(byPolicy["crash"], want) || !strings.Contains(byPolicy["crash"], "my policy is broken") {
			t.Errorf("%s: crash %q, want %q and its stderr", w, byPolicy["crash"], want)
		}
	}
	// The run's summary keeps the failed cell's whole error, stderr
	// included, for the end of `sweep run` (issue 35: the reason was
	// only in the cells table).
	if len(sum.FirstFailures) != 1 || !strings.Contains(sum.FirstFailures[0].Error, "my policy is broken") ||
		!strings.HasSuffix(sum.FirstFailures[0].Name, "/crash") {
		t.Errorf("first failures %+v; want the crash cell with its stderr", sum.FirstFailures)
	}
	again, err := Run(context.Background(), m, RunOptions{Out: out, Jobs: 2, RetryFailed: true})
	if err != nil || again.Ran != 1 || again.Failed != 1 {
		t.Fatalf("retry: ran %d, failed %d (%v): want the failed cell run again", again.Ran, again.Failed, err)
	}
}

// A policy whose command cannot say hello (its client installed in
// another interpreter: a ModuleNotFoundError) is refused before any cell
// runs, once, naming the policy, the command and its stderr; nothing is
// written (issue 35: it failed every cell at run time, the reason hidden).
func TestExternalPolicyProbedBeforeTheRun(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	fixture, _ := filepath.Abs("testdata/norequest.swf.txt")
	// Each start appends to starts.txt: the probe starts the command once
	// for two policies of the same command.
	broken := "open('starts.txt', 'a').write('x')\nimport no_such_client_module\n"
	dir := t.TempDir()
	for name, text := range map[string]string{"mine.py": broken} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest := fmt.Sprintf(`experiment: probe
seed: 1
platform: single:4
workloads:
  - trace: %s
    months: {from: 1970-01, to: 1970-01}
    estimates: [T]
policies: [fcfs-easy, {name: mine, command: [python3, mine.py]}, {name: mine2, command: [python3, mine.py], params: {a: "1"}}]
`, fixture)
	path := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	_, err = Run(context.Background(), m, RunOptions{Out: out, Jobs: 2})
	var probe *ProbeError
	if !errors.As(err, &probe) || probe.Policy != "mine" {
		t.Fatalf("got %v; want a ProbeError of policy mine", err)
	}
	for _, want := range []string{`policy "mine": python3 ` + filepath.Join(dir, "mine.py"), "decision 1 (hello)",
		"ModuleNotFoundError: No module named 'no_such_client_module'", "the interpreter the policy's client is installed in"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if fileExists(out) {
		t.Errorf("%s was created: a refused run writes nothing", out)
	}
	if starts, _ := os.ReadFile(filepath.Join(dir, "starts.txt")); string(starts) != "x" {
		t.Errorf("the command started %d times; want once", len(starts))
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// goEasy is FCFS-EASY as a researcher's Go policy: backfill's EASY
// helper over the waiting jobs in submit order.
type goEasy struct{}

func (goEasy) Decide(st *backfill.State) ([]int, error) { return st.EASY(st.Waiting), nil }

// A Go policy registered on the rigid model runs like a built-in: its
// cells equal fcfs-easy's measure for measure; its params reach New with
// defaults filled in and enter the cell id.
func TestOwnGoPolicyInTheRunner(t *testing.T) {
	var got []map[string]string
	own := rigid.Policy{Name: "go-easy", Params: []model.Param{{Name: "note", Default: "none"}},
		New: func(params map[string]string) (backfill.Decider, error) {
			got = append(got, params)
			return goEasy{}, nil
		}}
	reg := builtin.Registry(rigid.Model{Own: []rigid.Policy{own}})
	trace, _ := filepath.Abs("testdata/norequest.swf.txt")
	month := "1970-01"
	if abs, _ := filepath.Abs(kthTrace); fileExists(abs) && !testing.Short() {
		trace, month = abs, "1996-10"
	}
	m, out, sum := externalRun(t, trace, month, `[fcfs-easy, go-easy]`, nil, WithModels(reg))
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	for w, byPolicy := range measuresByPolicy(t, m, out) {
		if byPolicy["go-easy"] != byPolicy["fcfs-easy"] {
			t.Errorf("%s: go-easy %q\nfcfs-easy %q", w, byPolicy["go-easy"], byPolicy["fcfs-easy"])
		}
	}
	if len(got) == 0 || got[0]["note"] != "none" {
		t.Errorf("params given to New: %v, want the default note=none", got)
	}
	plain := cellIDs(t, m)["go-easy"]
	m2, _, _ := externalRun(t, trace, month, `[fcfs-easy, {name: go-easy, params: {note: x}}]`, nil, WithModels(reg))
	if cellIDs(t, m2)["go-easy"] == plain {
		t.Error("params did not change the cell id")
	}
	if _, err := externalManifest(t, `[{name: go-easy, params: {nope: x}}]`, ""); err == nil {
		t.Error("the built-in registry knows go-easy")
	}
}

// The EASY policies' modelling options are parameters of the built-in
// policy: a manifest sets them, they change its cells' ids (their
// defaults written out do not), the cells run, and a bad value or one
// the policy cannot take is refused naming what would do.
func TestEASYModellingParams(t *testing.T) {
	ids := func(policies string) map[string]string {
		m, err := externalManifest(t, policies, "")
		if err != nil {
			t.Fatal(err)
		}
		return cellIDs(t, m)
	}
	plain := ids(`[fcfs-easy, relshare]`)
	if got := ids(`[{name: fcfs-easy, params: {placement: processors, pass: per-instant}}, relshare]`); got["fcfs-easy"] != plain["fcfs-easy"] {
		t.Errorf("fcfs-easy with its defaults written out has another cell id")
	}
	const options = `[{name: fcfs-easy, params: {placement: contiguous, pass: per-event}}, {name: relshare, params: {pass: per-event}}]`
	changed := ids(options)
	for _, p := range []string{"fcfs-easy", "relshare"} {
		if changed[p] == plain[p] {
			t.Errorf("%s with modelling options keeps the plain policy's cell id", p)
		}
	}
	m, err := externalManifest(t, options, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := mustRun(t, m, RunOptions{Out: t.TempDir(), Jobs: 1}); s.Ran != 2 || s.Failed != 0 {
		t.Errorf("ran %d, failed %d; want 2, 0", s.Ran, s.Failed)
	}
	for policies, want := range map[string]string{
		`[{name: fcfs-easy, params: {placement: scattered}}]`:    `policy "fcfs-easy": placement "scattered": want processors`,
		`[{name: fcfs-easy, params: {pass: per-second}}]`:        `pass "per-second": want per-instant`,
		`[{name: tradeoff-fs, params: {placement: contiguous}}]`: `policy "tradeoff-fs" takes no parameters`,
		`[{name: fcfs-easy, params: {placment: contiguous}}]`:    `takes no parameter "placment"; valid parameters: placement, pass`,
	} {
		if _, err := externalManifest(t, policies, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", policies, err, want)
		}
	}
}

// A named variant runs a policy with parameters under its own name, so a
// manifest compares the policy with its variants on the same cells: on
// the hand-made trace of contiguity, fcfs-easy starts job 5 at once
// (wait 0) and its variant with contiguous placement at 10 s (wait 8 s).
func TestNamedPolicyVariants(t *testing.T) {
	dir := t.TempDir()
	trace, err := os.ReadFile("testdata/contiguity.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "contiguity.swf.txt"), trace, 0o644)
	load := func(policies string) (*Manifest, error) {
		path := filepath.Join(dir, "m.yaml")
		os.WriteFile(path, []byte(`experiment: variants
seed: 1
platform: single:4
workloads:
  - {trace: contiguity.swf.txt, label: contiguity, months: {from: 1970-01, to: 1970-01}, estimates: [R]}
policies: `+policies+"\n"), 0o644)
		return LoadManifest(path)
	}
	const variants = `[fcfs-easy, {name: easy-contiguous, policy: fcfs-easy, params: {placement: contiguous, pass: per-event}}]`
	m, err := load(variants)
	if err != nil {
		t.Fatal(err)
	}
	ids := cellIDs(t, m)
	if len(ids) != 2 || ids["fcfs-easy"] == ids["easy-contiguous"] {
		t.Fatalf("cell ids %v; want two distinct ones", ids)
	}
	out := t.TempDir()
	if s := mustRun(t, m, RunOptions{Out: out, Jobs: 1}); s.Ran != 2 || s.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 2, 0", s.Ran, s.Failed)
	}
	cells, _, err := parquet.ReadColumns(out, table.Cells, []string{table.Policy, table.FairWaitMaxHours})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"fcfs-easy": 0, "easy-contiguous": 8.0 / 3600}
	for r := range cells.Rows {
		policy, wait := cells.Columns[0].Strings[r], cells.Columns[1].Float64s[r]
		if wait != want[policy] {
			t.Errorf("%s: max wait %v h, want %v", policy, wait, want[policy])
		}
	}

	for policies, want := range map[string]string{
		`[{name: fcfs-easy, policy: relshare, params: {pass: per-event}}]`:        `the name is model rigid's policy; give the variant of relshare another name`,
		`[{name: mine, policy: nosuch, params: {pass: per-event}}]`:               `unknown policy "nosuch"`,
		`[{name: mine, policy: tradeoff-fs}]`:                                     `tradeoff-fs takes no parameters, so a variant of it would run the same cells`,
		`[{name: mine, policy: fcfs-easy, params: {placement: scattered}}]`:       `placement "scattered": want processors`,
		`[{name: mine, policy: fcfs-easy, command: [python3, policies/mine.py]}]`: `a command or batsim entry is a policy of its own`,
	} {
		if _, err := load(policies); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", policies, err, want)
		}
	}
}

// A run records the CPU time of its child processes: issue 35 found a
// Python policy's CPU counted nowhere. This policy burns at least 0.4 s of
// CPU (a busy loop timed by the process's own CPU clock) before each
// answer, then starts the waiting jobs that fit; the run's summary and
// its recorded session (table.CPUDir) count it among the children.
func TestRunRecordsChildCPU(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	fixture, _ := filepath.Abs("testdata/norequest.swf.txt")
	burn := `import json, sys, time
waiting = []
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "end":
        break
    t0 = time.process_time()
    while time.process_time() - t0 < 0.4:
        pass
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1}), flush=True)
        continue
    waiting += msg["submitted"]
    free, start = msg["free"], []
    for j in list(waiting):
        if j["procs"] <= free:
            free -= j["procs"]
            start.append(j["id"])
            waiting.remove(j)
    print(json.dumps({"start": start}), flush=True)
`
	_, out, sum := externalRun(t, fixture, "1970-01", `[{name: burn, command: [python3, burn.py]}]`, map[string]string{"burn.py": burn})
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	// The probe's hello and the cell's hello and first decision: >= 1.2 s.
	if sum.ChildrenCPU < 1200*time.Millisecond {
		t.Errorf("children's CPU %v; want >= 1.2 s (three exchanges of 0.4 s)", sum.ChildrenCPU)
	}
	paths, _ := filepath.Glob(filepath.Join(out, table.CPUDir, "*-all.json"))
	if len(paths) != 1 {
		t.Fatalf("recorded sessions %v; want one", paths)
	}
	data, _ := os.ReadFile(paths[0])
	var s table.SessionCPU
	if err := json.Unmarshal(data, &s); err != nil || s.ChildrenSeconds < 1.2 || s.Shard != "all" {
		t.Errorf("recorded %+v (%v); want >= 1.2 s of children's CPU, shard all", s, err)
	}
}
