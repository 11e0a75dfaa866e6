package wfcommons

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/workload/dag"
	"github.com/sweep-sched/sweep/workload/wfformat"
)

const sharedWorkflows = "../../../shared/workflows"

func params(t *testing.T, settings ...string) Params {
	t.Helper()
	p := Defaults()
	if err := p.SetAll(settings); err != nil {
		t.Fatal(err)
	}
	return p
}

func diamond(t *testing.T) *wfformat.Instance {
	t.Helper()
	in, err := wfformat.Load("testdata/diamond-1.5.json")
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// summary writes a job as "name:exec:cores:kind:delay" per task (name
// the id without its _ID suffix), delay "-"
// when the task has none of its own.
func summary(j dag.Job) string {
	var parts []string
	for _, t := range j.Tasks {
		d := "-"
		if t.DelayTicks != nil {
			d = fmt.Sprint(*t.DelayTicks)
		}
		name, _, _ := strings.Cut(t.ID, "_ID")
		parts = append(parts, fmt.Sprintf("%s:%d:%d:%s:%s", name, t.ExecTicks, t.Cores, t.Kind, d))
	}
	return strings.Join(parts, " ")
}

// TestDiamondMapping converts the diamond fixture (run times 1.2, 10,
// 7.25, 0.004 s; coreCount -, 4, 2, -; split sends 3 MB to the first
// worker and 1 MB to the second, the workers send 0.25 MB and 0.5 MB to
// merge). Each row is computed by hand from those numbers.
func TestDiamondMapping(t *testing.T) {
	for _, tc := range []struct {
		settings []string
		want     string
	}{
		// ceil(1.2) = 2, 10, ceil(7.25) = 8, ceil(0.004) = 1 (>= 1 tick).
		{nil, "split:2:1:Kind1:- work:10:4:Kind1:- work:8:2:Kind1:- merge:1:1:Kind1:-"},
		{[]string{"ticks-per-second=1000"}, "split:1200:1:Kind1:- work:10000:4:Kind1:- work:7250:2:Kind1:- merge:4:1:Kind1:-"},
		{[]string{"default-cores=3"}, "split:2:3:Kind1:- work:10:4:Kind1:- work:8:2:Kind1:- merge:1:3:Kind1:-"},
		// 3e6 B at 1e6 B/s = 3 ticks (the heavier of split's two edges);
		// ceil(0.25) = 1; ceil(0.5) = 1; merge has no edge out.
		{[]string{"delays=files", "bandwidth=1e6"}, "split:2:1:Kind1:3 work:10:4:Kind1:1 work:8:2:Kind1:1 merge:1:1:Kind1:0"},
		// At 10 ticks per second: 30, ceil(2.5) = 3, 5.
		{[]string{"delays=files", "bandwidth=1000000", "ticks-per-second=10"}, "split:12:1:Kind1:30 work:100:4:Kind1:3 work:73:2:Kind1:5 merge:1:1:Kind1:0"},
		{[]string{"kinds=program"}, "split:2:1:split:- work:10:4:work:- work:8:2:work:- merge:1:1:merge:-"},
		{[]string{"kinds=category", "kind-map=work=Kind2,*=Kind1"}, "split:2:1:Kind1:- work:10:4:Kind2:- work:8:2:Kind2:- merge:1:1:Kind1:-"},
		{[]string{"kinds=category", "kind-map=merge=Kind2"}, "split:2:1:split:- work:10:4:work:- work:8:2:work:- merge:1:1:Kind2:-"},
		{[]string{"kind=Kind2"}, "split:2:1:Kind2:- work:10:4:Kind2:- work:8:2:Kind2:- merge:1:1:Kind2:-"},
	} {
		j, err := Job(diamond(t), params(t, tc.settings...), "J1")
		if err != nil {
			t.Fatalf("%v: %v", tc.settings, err)
		}
		if got := summary(j); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.settings, got, tc.want)
		}
		if got := fmt.Sprint(j.Tasks[3].After); got != "[work_ID0000002 work_ID0000003]" {
			t.Errorf("merge after %s; want both workers", got)
		}
	}
}

func TestParams(t *testing.T) {
	a, b := params(t, "ticks-per-second=1e3", "kind-map=b=K2,a=K1", "kinds=program"), params(t, "kinds=program", "ticks-per-second=1000", "kind-map=a=K1, b=K2")
	if a.Canonical() != b.Canonical() {
		t.Errorf("the same parameters written two ways:\n%s\n%s", a.Canonical(), b.Canonical())
	}
	want := "wfcommons/instances bandwidth=125000000 default-cores=1 delays=ccr draw=uniform jobs=100 kind=Kind1 kind-map= kinds=one ticks-per-second=1"
	if got := Defaults().Canonical(); got != want {
		t.Errorf("defaults %s, want %s", got, want)
	}
	if got, _ := params(t, "ticks-per-second=0.25").Get("ticks-per-second"); got != "0.25" {
		t.Errorf("ticks-per-second 0.25 reads back as %s", got)
	}
	for _, bad := range []struct{ setting, want string }{
		{"ticks-per-second=0", "want a decimal number > 0"},
		{"delays=fastgridsim", "want one of ccr, files"},
		{"kind-map=mProject", `pair "mProject": want name=Kind`},
		{"frobs=1", `unknown parameter "frobs"; valid parameters: bandwidth, default-cores`},
		{"jobs=0", "want an integer in [1, 1000000]"},
	} {
		p := Defaults()
		if err := p.SetAll([]string{bad.setting}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error containing %q", bad.setting, err, bad.want)
		}
	}
	if err := params(t, "kind-map=a=Kind2").Validate(); err == nil || !strings.Contains(err.Error(), "kinds=one") {
		t.Errorf("kind-map under kinds=one: %v", err)
	}
}

// TestStream draws from the diamond (volume 2 + 40 + 16 + 1 = 59
// core-ticks) and the chain (3 + 5 x 2 = 13). Under draw=cycle the jobs
// alternate; load 1 on single:4 spaces them by ceil(59/4) = 15 and
// ceil(13/4) = 4 ticks: arrivals 0, 15, 19.
func TestStream(t *testing.T) {
	src, err := LoadSource("testdata/diamond-1.5.json", "testdata/chain-1.5.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Generate(params(t, "jobs=3", "draw=cycle"), src, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := gridgen.SetArrivals(w, 4, 1); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range w.Jobs {
		got = append(got, fmt.Sprintf("%s:%d:%d", j.ID, len(j.Tasks), *j.Arrival))
	}
	if want := "J1:4:0 J2:2:15 J3:4:19"; strings.Join(got, " ") != want {
		t.Errorf("stream %s, want %s", strings.Join(got, " "), want)
	}

	// draw=uniform: the same seed gives the same stream, each job one of
	// the two workflows; another instance number draws another stream.
	p := params(t, "jobs=200")
	a, err := Generate(p, src, 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(p, src, 7, 0)
	c, _ := Generate(p, src, 7, 1)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed drew two streams")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("instances 0 and 1 drew the same 200 workflows")
	}
	diamonds := 0
	for _, j := range a.Jobs {
		switch len(j.Tasks) {
		case 4:
			diamonds++
		case 2:
		default:
			t.Fatalf("job %s has %d tasks", j.ID, len(j.Tasks))
		}
	}
	if diamonds < 70 || diamonds > 130 { // binomial(200, 1/2): sd 7
		t.Errorf("%d diamonds of 200 uniform draws", diamonds)
	}
}

// TestBadSource: a malformed file in a folder is refused naming the file,
// the task and the field; kinds=program without programs too.
func TestBadSource(t *testing.T) {
	dir := t.TempDir()
	text := strings.Replace(string(mustRead(t, "testdata/chain-1.5.json")), `"runtimeInSeconds": 5`, `"runtimeInSeconds": -5`, 1)
	if err := os.WriteFile(dir+"/bad.json", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadSource(dir)
	if err == nil || !strings.Contains(err.Error(), `bad.json: task 1 ("b_ID02") field "runtimeInSeconds": -5`) {
		t.Errorf("negative run time: %v", err)
	}
	text = strings.Replace(string(mustRead(t, "testdata/chain-1.5.json")), `, "command": {"program": "b"}`, ``, 1)
	in, err := wfformat.Decode(strings.NewReader(text), "noprog.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Job(in, params(t, "kinds=program"), "J1")
	if err == nil || !strings.Contains(err.Error(), `noprog.json: task 1 ("b_ID02") field "command.program": missing`) {
		t.Errorf("kinds=program without a program: %v", err)
	}
	if _, err := LoadSource(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no *.json files") {
		t.Errorf("empty folder: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSharedInstances converts the five WfInstances executions (task
// counts from ../shared/workflows/README.md, in file-name order);
// model/grid's TestWfCommonsSchedules runs a stream of them.
func TestSharedInstances(t *testing.T) {
	if _, err := os.Stat(sharedWorkflows); err != nil {
		t.Skipf("the WfInstances files are not here (%v); the fixtures cover the converter", err)
	}
	src, err := LoadSource(sharedWorkflows)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Generate(params(t, "jobs=5", "draw=cycle"), src, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, j := range w.Jobs {
		counts = append(counts, len(j.Tasks))
	}
	if fmt.Sprint(counts) != "[52 43 41 58 22]" {
		t.Errorf("task counts %v, want [52 43 41 58 22]", counts)
	}
	// Montage's first task ran 534.058 s.
	if e := w.Jobs[3].Tasks[0].ExecTicks; e != 535 {
		t.Errorf("montage mProject_ID0000001 exec %d, want ceil(534.058) = 535", e)
	}
}

// FuzzConvert: every instance the reader accepts converts, under the
// default mapping and under delays from files, into a job that passes
// dag.Validate (exec >= 1, a DAG, delays in range) unless its sums
// pass the 64-bit bounds.
func FuzzConvert(f *testing.F) {
	for _, name := range []string{"testdata/diamond-1.5.json", "testdata/chain-1.5.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, tpsExp uint8) {
		in, err := wfformat.Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			return
		}
		p := Defaults()
		for _, s := range []string{"delays=files", "bandwidth=1", fmt.Sprintf("ticks-per-second=1e%d", tpsExp%7)} {
			if err := p.SetAll([]string{s}); err != nil {
				t.Fatal(err)
			}
		}
		j, err := Job(in, p, "J1")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json: task ") {
				t.Fatalf("error %q does not name the file and task", err)
			}
			return
		}
		w := dag.Workload{Jobs: []dag.Job{j}}
		// Only the 64-bit bounds on sums may refuse a converted job.
		if err := w.Validate(); err != nil && !strings.Contains(err.Error(), "passes") && !strings.Contains(err.Error(), "overflows") {
			t.Fatalf("converted a valid instance into an invalid job: %v", err)
		}
	})
}
