package jobcsv

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// testdata/jobs.csv by hand: job 1 two CPU nodes of 4 cores and 4 GiB;
// job 2 a GPU node, no estimate (its run time); job 3 6 pooled cores of
// 1 GiB each, its run 900 s clamped to its estimate 600 s; job 4 any
// partition (*).
func TestRead(t *testing.T) {
	f, err := os.Open("testdata/jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	js, err := Read(f, "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	any := rigid.AnyPartition
	wantJobs := []rigid.Job{
		{Number: 1, User: 10, SubmitSeconds: 0, Procs: 8, RunSeconds: 3600, RequestedSeconds: 7200},
		{Number: 2, User: 11, SubmitSeconds: 60, Procs: 8, RunSeconds: 600, RequestedSeconds: 600},
		{Number: 3, User: 10, SubmitSeconds: 30, Procs: 6, RunSeconds: 600, RequestedSeconds: 600, LoggedRunSeconds: 900},
		{Number: 4, User: 12, SubmitSeconds: 90, Procs: 1, RunSeconds: 100, RequestedSeconds: 200},
	}
	wantReqs := []rigid.Request{
		{Nodes: 2, CoresPerNode: 4, MemoryPerNodeMiB: 4096, Partition: any},
		{Nodes: 1, CoresPerNode: 8, MemoryPerNodeMiB: 32768, GPUsPerNode: 4, Partition: any},
		{MemoryPerCoreMiB: 1024, Partition: any},
		{Nodes: 1, CoresPerNode: 1, Partition: any},
	}
	if !reflect.DeepEqual(js.Jobs, wantJobs) || !reflect.DeepEqual(js.Requests, wantReqs) ||
		!reflect.DeepEqual(js.Partitions, []string{"cpu", "gpu", "", ""}) {
		t.Fatalf("got\n%+v\n%+v\n%q", js.Jobs, js.Requests, js.Partitions)
	}
	if js.Report != (Report{EstimateFromRun: 1, RunClamped: 1}) {
		t.Errorf("report %+v", js.Report)
	}
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192}, {Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	w, err := js.Workload("jobs.csv", m)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := []int{w.Requests[0].Partition, w.Requests[1].Partition, w.Requests[2].Partition}; !reflect.DeepEqual(got, []int{0, any, 1}) {
		t.Errorf("partitions in submit order %v, want [0 -1 1] (jobs 1, 3, 2)", got)
	}
	m.Partitions[1].Name = "accel"
	if _, err := js.Workload("jobs.csv", m); err == nil || !strings.Contains(err.Error(), `job 2: partition "gpu": the platform has cpu, accel`) {
		t.Errorf("unknown partition: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	head := "id,submit,run,estimate,nodes,cores,memory,gpus,partition,user\n"
	for _, tt := range []struct {
		csv     string
		columns map[string]string
		want    string
	}{
		{"id,submit,run,nodes\n1,0,1,1\n", nil, `f.csv: line 1: no column "cores" for field cores; the header has id, submit, run, nodes (map other names with columns: {cores: NAME})`},
		{head + "1,0,1,1,1,4,8GiB,0,cpu,1\n", nil, `f.csv: line 2: column memory: "8GiB": want a whole number from 0 to`},
		{head + "1,0,0,1,1,4,0,0,cpu,1\n", nil, `line 2: column run: "0": want a whole number from 1`},
		{head + "1,0,1,1,0,4,0,2,cpu,1\n", nil, `line 2: column gpus: 2 with nodes 0 (pooled cores)`},
		{head + "1,0,1,1,1,4,0,0,cpu,1\n1,5,1,1,1,4,0,0,cpu,1\n", nil, `line 3: column id: 1 is the id of line 2 too`},
		{head, nil, `f.csv: no jobs`},
		{"", nil, `f.csv: empty`},
		{head, map[string]string{"mem": "ReqMem"}, `columns: field "mem": want one of id, submit`},
	} {
		_, err := Read(strings.NewReader(tt.csv), "f.csv", tt.columns)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.csv, err, tt.want)
		}
	}
}

// Columns maps other names: a sacct-like export.
func TestColumns(t *testing.T) {
	csv := "JobID,Submit,Elapsed,Timelimit,NNodes,NCPUS,ReqMem,GPUs,Partition,UID,Excl\n7,10,100,300,2,16,2048,1,gpu,5,true\n"
	js, err := Read(strings.NewReader(csv), "sacct.csv", map[string]string{"id": "JobID", "submit": "Submit", "run": "Elapsed",
		"estimate": "Timelimit", "nodes": "NNodes", "cores": "NCPUS", "memory": "ReqMem", "gpus": "GPUs", "partition": "Partition", "user": "UID", "exclusive": "Excl"})
	if err != nil {
		t.Fatal(err)
	}
	want := rigid.Request{Nodes: 2, CoresPerNode: 16, MemoryPerNodeMiB: 2048, GPUsPerNode: 1, Partition: rigid.AnyPartition, Exclusive: true}
	if js.Requests[0] != want || js.Jobs[0].Procs != 32 || js.Jobs[0].User != 5 || js.Partitions[0] != "gpu" {
		t.Errorf("got %+v %+v %q", js.Jobs[0], js.Requests[0], js.Partitions[0])
	}
}
