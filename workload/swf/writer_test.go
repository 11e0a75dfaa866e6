package swf

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestWriteGolden writes a header and two jobs and compares the text with
// the log written by hand from the format's definition (swf.html): the
// header keys in the definition's order (Version, Computer, MaxJobs,
// MaxRecords, UnixStartTime, TimeZoneString, MaxNodes, MaxProcs, Queue),
// keys the definition does not list after them, notes last; 18 fields per
// job, -1 for unknown.
func TestWriteGolden(t *testing.T) {
	h := NewHeader()
	h.Version, h.MaxJobs, h.MaxRecords, h.MaxProcs, h.MaxNodes = "2.2", 2, 2, 128, 128
	h.UnixStartTime, h.TimeZoneString = 0, "UTC"
	h.Fields = map[string][]string{
		"Note":     {"first note", "second note"},
		"Computer": {"none (a model)"},
		"Queue":    {"0 interactive"},
		"Zebra":    {"a key of our own"},
		"MaxProcs": {"64"}, // the typed MaxProcs wins
	}
	jobs := []Job{
		{Number: 1, SubmitSeconds: 13, WaitSeconds: -1, RunSeconds: 40, AllocatedProcs: 4, AverageCPUSeconds: -1, UsedMemoryKB: -1,
			RequestedProcs: 4, RequestedSeconds: 300, RequestedMemoryKB: -1, Status: StatusCompleted, User: 1, Group: -1,
			Executable: -1, Queue: 0, Partition: -1, PrecedingJob: -1, ThinkTimeSeconds: -1},
		{Number: 2, SubmitSeconds: 20, WaitSeconds: -1, RunSeconds: 3600, AllocatedProcs: 1, AverageCPUSeconds: 2.5, UsedMemoryKB: -1,
			RequestedProcs: 1, RequestedSeconds: 36000, RequestedMemoryKB: -1, Status: StatusCompleted, User: 1, Group: -1,
			Executable: -1, Queue: 1, Partition: -1, PrecedingJob: -1, ThinkTimeSeconds: -1},
	}
	want := `; Version: 2.2
; Computer: none (a model)
; MaxJobs: 2
; MaxRecords: 2
; UnixStartTime: 0
; TimeZoneString: UTC
; MaxNodes: 128
; MaxProcs: 128
; Queue: 0 interactive
; Zebra: a key of our own
; Note: first note
; Note: second note
1 13 -1 40 4 -1 -1 4 300 -1 1 1 -1 -1 0 -1 -1 -1
2 20 -1 3600 1 2.5 -1 1 36000 -1 1 1 -1 -1 1 -1 -1 -1
`
	var buf bytes.Buffer
	if err := Write(&buf, h, jobs); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteReadBack reads the test log, writes what it read and reads that
// again: the same typed header keys and fields, and the same jobs field for
// field (the repaired ones as repaired).
func TestWriteReadBack(t *testing.T) {
	f, err := os.Open("testdata/tiny.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, r.Header(), jobs); err != nil {
		t.Fatal(err)
	}
	back, err := NewReader(bytes.NewReader(buf.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Header(), r.Header()) {
		t.Errorf("header read back %+v, first read %+v", back.Header(), r.Header())
	}
	if len(again) != len(jobs) || len(jobs) == 0 {
		t.Fatalf("read back %d jobs, wrote %d", len(again), len(jobs))
	}
	for i := range jobs {
		a, b := jobs[i], again[i]
		a.Line, a.Notes, b.Line, b.Notes = 0, 0, 0, 0
		if a != b {
			t.Errorf("job %d: wrote %+v, read back %+v", i, a, b)
		}
	}
}

// TestWriteRefuses checks the two things a reader could not read back.
func TestWriteRefuses(t *testing.T) {
	h := NewHeader()
	h.Fields = map[string][]string{"Note": {"two\nlines"}}
	if err := Write(&bytes.Buffer{}, h, nil); err == nil || !strings.Contains(err.Error(), "header Note") {
		t.Errorf("a note on two lines: error %v; want one naming header Note", err)
	}
	job := Job{Number: 7, SubmitSeconds: 0, RunSeconds: -2}
	err := Write(&bytes.Buffer{}, NewHeader(), []Job{job})
	if err == nil || !strings.Contains(err.Error(), "field 4 (run time) = -2") {
		t.Errorf("run time -2: error %v; want one naming field 4", err)
	}
}
