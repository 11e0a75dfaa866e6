package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSimulateGantt draws Graham's example (9 tasks; the layout is tested
// in model/grid and report/gantt) and checks the file has one bar per task.
func TestSimulateGantt(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.svg")
	var stdout, stderr bytes.Buffer
	args := []string{"simulate", "--platform", "single:3", "--workload", "../engine/grid/testdata/graham.json",
		"--policy", "fifo-task", "--gantt", out, "--gantt-window", "0:12"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), `class="task"`); n != 9 {
		t.Errorf("%d task bars; want 9", n)
	}
	if want := "gantt: wrote " + out + ": 9 of 9 tasks in ticks 0-12 drawn"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q; want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), `"makespan": 12`) {
		t.Errorf("stdout lacks the metrics: %s", stdout.String())
	}

	for _, bad := range [][]string{{"--gantt-window", "5:5", "--gantt", out}, {"--gantt-window", "0:10"}} {
		stderr.Reset()
		args := append([]string{"simulate", "--platform", "single:3", "--workload", "../engine/grid/testdata/graham.json", "--policy", "fifo-task"}, bad...)
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--gantt-window") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming --gantt-window", bad, code, stderr.String())
		}
	}
}

// TestSimulateEveryModel: sweep simulate runs a workload file of every
// model and gives the measures a manifest run stores for the same cell:
// the campaign generator's instance 1 under ostrich, a moldable instance
// under Gang (DEMT's shuffles draw from the cell's seed), and a trace
// month under fcfs-easy. Both paths prepare and measure through the seam,
// but simulate reads the workload from the file gen wrote.
func TestSimulateEveryModel(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		manifest, cell string
		gen            []string // sweep gen arguments; nil for a trace
		simulate       []string
	}{
		{"../sweep/testdata/campaigns.yaml", "synth/i001/L-/single:8/ostrich",
			[]string{"--preset", "ostrich2013/profiles", "--seed", "11", "--instance", "1", "--set", "jobs=400", "--set", "users=4", "--set", "short-users=2"},
			[]string{"--platform", "single:8", "--policy", "ostrich"}},
		{"../sweep/testdata/moldable.yaml", "cb-n20/i001/L-/single:16/Gang",
			[]string{"--preset", "dutot2004/cirne-berman", "--seed", "2004", "--instance", "1", "--set", "tasks=20", "--set", "processors=16"},
			[]string{"--platform", "single:16", "--policy", "Gang", "--with", "anchor=cmax", "--with", "shuffles=3"}},
		{"../sweep/testdata/fairshare-tiny.yaml", "tiny-T/1970-01/single:4/fcfs-easy", nil,
			[]string{"--platform", "single:4", "--policy", "fcfs-easy", "--workload", "../sweep/testdata/norequest.swf.txt", "--option", "month=1970-01"}},
	}
	for _, tt := range tests {
		out := filepath.Join(dir, filepath.Base(tt.manifest))
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", tt.manifest, "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("run %s: exit %d: %s", tt.manifest, code, stderr.String())
		}
		stdout.Reset()
		if code := run(context.Background(), []string{"show", out, tt.cell}, &stdout, &stderr); code != 0 {
			t.Fatalf("show %s: exit %d: %s", tt.cell, code, stderr.String())
		}
		var stored showOutput
		if err := json.Unmarshal(stdout.Bytes(), &stored); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"simulate"}, tt.simulate...)
		if tt.gen != nil {
			file := filepath.Join(dir, "w.json")
			if code := run(context.Background(), append(append([]string{"gen"}, tt.gen...), "-o", file), &stdout, &stderr); code != 0 {
				t.Fatalf("gen %v: exit %d: %s", tt.gen, code, stderr.String())
			}
			args = append(args, "--workload", file)
		}
		stdout.Reset()
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("simulate %v: exit %d: %s", args, code, stderr.String())
		}
		var got struct {
			Model   string   `json:"model"`
			Metrics measures `json:"metrics"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Model != stored.Model || !slices.Equal(got.Metrics.names, stored.Metrics.names) {
			t.Fatalf("%s: simulate gave model %s measures %v; the run %s %v", tt.cell, got.Model, got.Metrics.names, stored.Model, stored.Metrics.names)
		}
		for i, name := range got.Metrics.names {
			if name != "run_seconds" && !got.Metrics.values[i].Equal(stored.Metrics.values[i]) {
				t.Errorf("%s: %s = %v by simulate, %v in the run", tt.cell, name, got.Metrics.values[i], stored.Metrics.values[i])
			}
		}
	}
}

// TestSimulateRigidGantt: `sweep simulate` of the trace of
// contiguityManifest under fcfs-easy draws the chart of
// TestShowRigidGantt (job 5 on processors 1 and 3 from 2 s to 7 s) and
// lists its bars with --schedule: jobs, no tasks.
func TestSimulateRigidGantt(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rigid.svg")
	var stdout, stderr bytes.Buffer
	args := []string{"simulate", "--platform", "single:4", "--workload", "../sweep/testdata/contiguity.swf.txt", "--option", "month=1970-01",
		"--policy", "fcfs-easy", "--gantt", out, "--schedule"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := `d="M440.0 74.00h600.0v18.00h-600.0zM440.0 110.00h600.0v18.00h-600.0z"><title>job 5: 2 processors on c1, ticks 2-7</title>`; !strings.Contains(string(data), want) {
		t.Errorf("the chart lacks job 5 on processors 1 and 3: %s", data)
	}
	var got simulateOutput
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if n := len(got.Tasks); n != 5 || got.Tasks[4] != (scheduledTask{Job: "5", Cluster: "c1", Start: 2, Finish: 7}) {
		t.Errorf("schedule %+v; want 5 jobs, job 5 on c1 from 2 to 7", got.Tasks)
	}
}

// fcfs is the campaign and the rigid model's policy: simulate asks which,
// and the rigid one (EASY by default) gives fcfs-easy's schedule of
// TestSimulateRigidGantt, job 5 from 2 s to 7 s.
func TestSimulateSharedPolicyName(t *testing.T) {
	base := []string{"simulate", "--platform", "single:4", "--workload", "../sweep/testdata/contiguity.swf.txt", "--option", "month=1970-01", "--schedule", "--policy", "fcfs"}
	for _, tt := range []struct {
		model, wantErr string
	}{
		{"", "--policy fcfs is a policy of the models campaign and rigid; say which with --model"},
		{"grid", `--model "grid": want one of the models offering --policy fcfs: campaign, rigid`},
		{"rigid", ""},
	} {
		args := base
		if tt.model != "" {
			args = append(slices.Clone(base), "--model", tt.model)
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if tt.wantErr != "" {
			if code != 2 || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("--model %q: exit %d, %s; want 2 and %q", tt.model, code, stderr.String(), tt.wantErr)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("--model rigid: exit %d: %s", code, stderr.String())
		}
		var got simulateOutput
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Model != "rigid" || len(got.Tasks) != 5 || got.Tasks[4] != (scheduledTask{Job: "5", Cluster: "c1", Start: 2, Finish: 7}) {
			t.Errorf("--model rigid: model %s, schedule %+v; want rigid, job 5 on c1 from 2 to 7", got.Model, got.Tasks)
		}
	}
}
