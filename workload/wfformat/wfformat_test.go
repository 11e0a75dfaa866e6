package wfformat

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sharedWorkflows holds the WfInstances executions of ../shared/workflows
// (never committed); tests that need them skip when it is absent.
const sharedWorkflows = "../../../shared/workflows"

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDiamondBothLayouts reads our hand-written diamond in both layouts;
// the expected values are the fixture's own numbers.
func TestDiamondBothLayouts(t *testing.T) {
	want := []Task{
		{ID: "split_ID0000001", Name: "split_ID0000001", Category: "split", Program: "split", RuntimeSeconds: 1.2,
			InputFiles: []string{"in.dat"}, OutputFiles: []string{"a.part", "b.part"}},
		{ID: "work_ID0000002", Name: "work_ID0000002", Category: "work", Program: "work", RuntimeSeconds: 10, CoreCount: 4,
			Parents: []int{0}, InputFiles: []string{"a.part"}, OutputFiles: []string{"a.out"}},
		{ID: "work_ID0000003", Name: "work_ID0000003", Category: "work", Program: "work", RuntimeSeconds: 7.25, CoreCount: 2,
			Parents: []int{0}, InputFiles: []string{"b.part"}, OutputFiles: []string{"b.out"}},
		{ID: "merge_ID0000004", Name: "merge_ID0000004", Category: "merge", Program: "merge", RuntimeSeconds: 0.004,
			Parents: []int{1, 2}, InputFiles: []string{"a.out", "b.out"}, OutputFiles: []string{"result.dat"}},
	}
	for _, tc := range []struct{ file, version string }{
		{"testdata/diamond-1.5.json", Version15},
		{"testdata/diamond-1.4.json", Version14},
	} {
		in, err := Load(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if in.SchemaVersion != tc.version || in.Name != "diamond" || in.MakespanSeconds != 20.5 {
			t.Errorf("%s: version %q name %q makespan %v; want %s diamond 20.5", tc.file, in.SchemaVersion, in.Name, in.MakespanSeconds, tc.version)
		}
		if !reflect.DeepEqual(in.Tasks, want) {
			t.Errorf("%s: tasks\n got %+v\nwant %+v", tc.file, in.Tasks, want)
		}
		if in.FileBytes["a.part"] != 3_000_000 || in.FileBytes["result.dat"] != 600_000 || len(in.FileBytes) != 6 {
			t.Errorf("%s: file sizes %v; want the fixture's six files (a.part 3000000 B)", tc.file, in.FileBytes)
		}
	}
}

// TestSharedInstances reads the five WfInstances executions; task counts
// and makespans are those of ../shared/workflows/README.md.
func TestSharedInstances(t *testing.T) {
	if _, err := os.Stat(sharedWorkflows); err != nil {
		t.Skipf("the WfInstances files are not here (%v); the diamond fixtures cover the reader", err)
	}
	for _, tc := range []struct {
		file     string
		tasks    int
		makespan float64
	}{
		{"1000genome-chameleon-2ch-100k-001.json", 52, 776.0},
		{"blast-chameleon-small-002.json", 43, 1001.4},
		{"epigenomics-chameleon-hep-1seq-100k-001.json", 41, 594.0},
		{"montage-chameleon-dss-05d-001.json", 58, 870.0},
		{"srasearch-chameleon-10a-001.json", 22, 3488.0},
	} {
		in, err := Load(filepath.Join(sharedWorkflows, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Tasks) != tc.tasks || in.MakespanSeconds != tc.makespan || in.SchemaVersion != Version15 {
			t.Errorf("%s: %d tasks, makespan %v, version %s; want %d, %v, 1.5", tc.file, len(in.Tasks), in.MakespanSeconds, in.SchemaVersion, tc.tasks, tc.makespan)
		}
	}
	// Montage's first task, as the file gives it.
	in, err := Load(filepath.Join(sharedWorkflows, "montage-chameleon-dss-05d-001.json"))
	if err != nil {
		t.Fatal(err)
	}
	first := in.Tasks[0]
	if first.ID != "mProject_ID0000001" || first.RuntimeSeconds != 534.058 || first.Category != "mProject" || first.Program != "mProject" || len(first.Parents) != 0 {
		t.Errorf("montage task 0 = %+v; want mProject_ID0000001, 534.058 s, category and program mProject, no parents", first)
	}
}

// TestBadInstances edits the diamond into each kind of malformed instance;
// every error must name the file, the task and the field.
func TestBadInstances(t *testing.T) {
	good15 := string(mustRead(t, "testdata/diamond-1.5.json"))
	good14 := string(mustRead(t, "testdata/diamond-1.4.json"))
	for _, tc := range []struct {
		name, base, old, new string
		want                 []string // substrings of the error
	}{
		{"cycle", good15, `"id": "split_ID0000001", "parents": []`, `"id": "split_ID0000001", "parents": ["merge_ID0000004"]`,
			[]string{`task 0 ("split_ID0000001")`, `field "parents"`, "cycle"}},
		{"missing parent", good15, `"parents": ["split_ID0000001"], "children": ["merge_ID0000004"],
         "inputFiles": ["a.part"]`, `"parents": ["nope"], "children": ["merge_ID0000004"],
         "inputFiles": ["a.part"]`,
			[]string{`task 1 ("work_ID0000002")`, `field "parents"`, `"nope"`}},
		{"missing child", good15, `"children": ["work_ID0000002", "work_ID0000003"]`, `"children": ["work_ID0000002", "ghost"]`,
			[]string{`task 0 ("split_ID0000001")`, `field "children"`, `"ghost"`}},
		{"negative run time", good15, `"runtimeInSeconds": 7.25`, `"runtimeInSeconds": -7.25`,
			[]string{`task 2 ("work_ID0000003")`, `field "runtimeInSeconds"`, "-7.25"}},
		{"missing run time", good15, `"runtimeInSeconds": 10, `, ``,
			[]string{`task 1 ("work_ID0000002")`, `field "runtimeInSeconds"`, "missing"}},
		{"no execution record", good15, `,
        {"id": "merge_ID0000004", "runtimeInSeconds": 0.004, "command": {"program": "merge"}}`, ``,
			[]string{`task 3 ("merge_ID0000004")`, `field "runtimeInSeconds"`, "no record in workflow.execution.tasks"}},
		{"execution record twice", good15, `{"id": "merge_ID0000004", "runtimeInSeconds": 0.004, "command": {"program": "merge"}}`, `{"id": "work_ID0000002", "runtimeInSeconds": 1}`,
			[]string{`task 1 ("work_ID0000002")`, "listed twice"}},
		{"fractional cores", good15, `"coreCount": 4`, `"coreCount": 2.5`,
			[]string{`task 1 ("work_ID0000002")`, `field "coreCount"`, "2.5"}},
		{"unknown file", good15, `"inputFiles": ["a.out", "b.out"]`, `"inputFiles": ["a.out", "c.out"]`,
			[]string{`task 3 ("merge_ID0000004")`, `field "inputFiles"`, `"c.out"`}},
		{"negative file size", good15, `"sizeInBytes": 250000`, `"sizeInBytes": -1`,
			[]string{`field "workflow.specification.files[3].sizeInBytes"`, `"a.out"`}},
		{"duplicate id", good15, `"name": "work_ID0000003", "id": "work_ID0000003"`, `"name": "work_ID0000003", "id": "work_ID0000002"`,
			[]string{`task 2 ("work_ID0000002")`, `field "id"`, "duplicate of task 1"}},
		{"old version", good14, `"schemaVersion": "1.4"`, `"schemaVersion": "1.3"`,
			[]string{`field "schemaVersion"`, `"1.3"`, "wfcommons-migrate-instance.py"}},
		{"1.4 negative run time", good14, `"runtimeInSeconds": 0.004`, `"runtimeInSeconds": -1`,
			[]string{`task 3 ("merge_ID0000004")`, `field "runtimeInSeconds"`}},
		{"1.4 missing parent", good14, `"parents": ["work_ID0000002", "work_ID0000003"]`, `"parents": ["work_ID0000002", "work_ID0000009"]`,
			[]string{`task 3 ("merge_ID0000004")`, `field "parents"`, `"work_ID0000009"`}},
		{"1.4 bad link", good14, `{"link": "output", "name": "a.out"`, `{"link": "both", "name": "a.out"`,
			[]string{`task 1 ("work_ID0000002")`, `field "files[1].link"`, `"both"`}},
		{"malformed JSON", good15, `"schemaVersion": "1.5",`, `"schemaVersion": "1.5"`,
			[]string{"malformed JSON at byte"}},
		{"wrong type", good15, `"runtimeInSeconds": 1.2`, `"runtimeInSeconds": "1.2"`,
			[]string{`"workflow.execution.tasks.runtimeInSeconds"`, "want float64"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tc.base, tc.old) {
				t.Fatalf("the fixture lacks %q", tc.old)
			}
			text := strings.Replace(tc.base, tc.old, tc.new, 1)
			_, err := Decode(strings.NewReader(text), "bad.json")
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, w := range append(tc.want, "bad.json: ") {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			var e *Error
			if strings.Contains(msg, "field") && !strings.Contains(msg, "JSON") && !errors.As(err, &e) {
				t.Errorf("error %q is not a *wfformat.Error", msg)
			}
		})
	}
}

// FuzzDecode checks that any input either fails with an error or gives an
// instance whose tasks form a DAG over valid positions with run times
// >= 0, and that decoding is deterministic.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"testdata/diamond-1.5.json", "testdata/diamond-1.4.json"} {
		f.Add(mustRead(f, name))
	}
	f.Add([]byte(`{"schemaVersion": "1.5", "workflow": {"specification": {"tasks": [{"id": "a", "parents": ["a"]}]}, "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1}]}}}`))
	f.Add([]byte(`{"schemaVersion": "1.4", "workflow": {"tasks": [{"name": "a", "parents": ["b"], "runtimeInSeconds": 1}, {"name": "b", "parents": ["a"], "runtimeInSeconds": 1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if in.SchemaVersion != Version15 && in.SchemaVersion != Version14 {
			t.Fatalf("read version %q", in.SchemaVersion)
		}
		done := make([]bool, len(in.Tasks))
		for round := 0; round <= len(in.Tasks); round++ {
			for i := range in.Tasks {
				ready := true
				for _, p := range in.Tasks[i].Parents {
					if p < 0 || p >= len(in.Tasks) || p == i {
						t.Fatalf("task %d has parent %d", i, p)
					}
					ready = ready && done[p]
				}
				if ready {
					done[i] = true
				}
			}
		}
		for i, ok := range done {
			if !ok {
				t.Fatalf("task %d lies on a cycle the reader accepted", i)
			}
			if r := in.Tasks[i].RuntimeSeconds; !(r >= 0) {
				t.Fatalf("task %d run time %v", i, r)
			}
		}
		again, err := Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil || !reflect.DeepEqual(in, again) {
			t.Fatalf("decoding twice differs: %v", err)
		}
	})
}
