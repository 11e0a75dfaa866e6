package moldable

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestReadEX1(t *testing.T) {
	f, err := os.Open("testdata/ex1.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	// EX1 of shared/golden/moldable-examples.json: T0 = (8, 4, 3, 5/2), w = 1.
	if w.Processors != 4 || len(w.Tasks) != 5 {
		t.Fatalf("got %d processors, %d tasks; want 4, 5", w.Processors, len(w.Tasks))
	}
	if got := w.Tasks[0].Time(4); got != 2.5 {
		t.Errorf("T0 time on 4 = %v, want 2.5", got)
	}
	if got := w.Tasks[0].Work(4); got != 10 {
		t.Errorf("T0 work on 4 = %v, want 10", got)
	}
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if again.Tasks[4].Times[1] != 2.5 || again.Tasks[3].Weight != 5 || again.Tasks[2].Name != "T2" {
		t.Errorf("round trip changed the workload: %+v", again.Tasks)
	}
}

func TestValidate(t *testing.T) {
	task := func(w float64, p ...float64) Task { return Task{Weight: w, Times: p} }
	tests := []struct {
		name  string
		w     Workload
		error string // substring; empty: valid
	}{
		{"valid", Workload{Processors: 3, Tasks: []Task{task(1, 6, 3, 2)}}, ""},
		{"plateau", Workload{Processors: 3, Tasks: []Task{task(1, 1, 1, 1)}}, ""},
		{"no processors", Workload{Processors: 0, Tasks: []Task{task(1)}}, "processors = 0"},
		{"no tasks", Workload{Processors: 2}, "no tasks"},
		{"zero weight", Workload{Processors: 1, Tasks: []Task{task(0, 1)}}, "task 0: weight 0"},
		{"short vector", Workload{Processors: 3, Tasks: []Task{task(1, 1, 1)}}, "task 0: 2 processing times, want one per processor count (3)"},
		{"negative time", Workload{Processors: 2, Tasks: []Task{task(1, 1, 1), task(1, 2, -1)}}, "task 1: time on 2 processors is -1"},
		{"time grows", Workload{Processors: 3, Tasks: []Task{task(1, 4, 3, 3.5)}}, "task 0: time on 3 processors 3.5 exceeds time on 2, 3"},
		{"work shrinks", Workload{Processors: 3, Tasks: []Task{task(1, 4, 2, 1)}}, "task 0: work on 3 processors 3 is below work on 2, 4"},
		{"named", Workload{Processors: 2, Tasks: []Task{{Name: "job7", Weight: 1, Times: []float64{4, 1}}}}, "task 0 (job7): work on 2 processors 2 is below work on 1, 4"},
	}
	for _, tt := range tests {
		err := tt.w.Validate()
		switch {
		case tt.error == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.error != "" && (err == nil || !strings.Contains(err.Error(), tt.error)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.error)
		}
	}
}

func TestReadRejects(t *testing.T) {
	for _, in := range []string{
		`{"processors": 2, "tasks": [{"weight": 1, "times": [1, 1]}], "extra": 1}`,
		`{"processors": 2, "tasks": [{"weight": 1, "times": [1, 2]}]}`,
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("Read(%s) accepted it", in)
		}
	}
}
