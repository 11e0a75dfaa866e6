package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"testing"
)

func gzipped(data []byte) []byte {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	return gz.Bytes()
}

// optionsFromBits lets the fuzzer explore every combination of the rule
// switches and a window.
func optionsFromBits(bits uint8) Options {
	opts := Options{
		Strict:            bits&1 != 0,
		KeepZeroRun:       bits&2 != 0,
		DropCancelled:     bits&4 != 0,
		DropFailed:        bits&8 != 0,
		ClampRunToRequest: bits&16 != 0,
	}
	if bits&32 != 0 {
		opts.Window = LogWindow(0, 1000)
	}
	if bits&64 != 0 {
		opts.ExcludeUsers = []int64{1}
	}
	return opts
}

// FuzzReader seeds from our synthetic log (always there), the head of the
// shared LPC-EGEE log when it is present, and hand-made lines; the corpus
// in testdata/fuzz/FuzzReader runs either way.
func FuzzReader(f *testing.F) {
	tiny, err := os.ReadFile("testdata/tiny.swf.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny, uint8(0))
	f.Add(gzipped(tiny), uint8(2))
	if _, err := os.Stat(lpcTrace); err == nil {
		head, err := traceHead(f)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(head[:4000], uint8(0))
		f.Add(gzipped(head[:4000]), uint8(2))
	}
	f.Add([]byte(base+"\n"+withField(5, "-1")+"\n"+withField(4, "300")), uint8(16))
	f.Add([]byte("; MaxProcs: 4\n\n1 10 0 5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1\n3 8 0 5 1 0.5 -1 1 10 -1 5 2 1 -1 -1 -1 -1 -1\r\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, bits uint8) {
		opts := optionsFromBits(bits)
		r, err := NewReader(bytes.NewReader(data), opts)
		if err != nil {
			return // not gzip after the magic bytes, or a line too long
		}
		from, to := r.WindowSeconds()
		var jobs []Job
		for {
			j, err := r.Next()
			if err == io.EOF {
				break
			}
			var issue Issue
			if errors.As(err, &issue) {
				if !opts.Strict || issue.Reason.Action() != Dropped || issue.Line < 1 {
					t.Fatalf("issue %v returned with options %+v", issue, opts)
				}
				continue
			}
			if err != nil {
				break // a broken gzip stream
			}
			jobs = append(jobs, j)
		}
		rep := r.Report()
		if got := rep.Jobs + rep.Dropped() + rep.Filtered() + rep.CommentLines + rep.BlankLines; got != rep.Lines {
			t.Fatalf("%d lines but jobs+dropped+filtered+comments+blank = %d\n%s", rep.Lines, got, rep.String())
		}
		if rep.Jobs != len(jobs) {
			t.Fatalf("report says %d jobs, Next gave %d", rep.Jobs, len(jobs))
		}
		for _, j := range jobs {
			checkJob(t, j, opts, from, to, rep.Lines)
		}
	})
}

func checkJob(t *testing.T, j Job, opts Options, from, to int64, lines int) {
	t.Helper()
	minRun := int64(1)
	if opts.KeepZeroRun {
		minRun = 0
	}
	switch {
	case j.Line < 1 || j.Line > lines:
		t.Fatalf("job line %d outside 1..%d", j.Line, lines)
	case j.SubmitSeconds < from || j.SubmitSeconds >= to || j.SubmitSeconds < 0:
		t.Fatalf("submit %d outside [%d, %d)", j.SubmitSeconds, from, to)
	case j.RunSeconds < minRun || j.AllocatedProcs < 1:
		t.Fatalf("run %d, processors %d kept", j.RunSeconds, j.AllocatedProcs)
	case opts.ClampRunToRequest && j.RequestedSeconds > 0 && j.RunSeconds > j.RequestedSeconds:
		t.Fatalf("run %d above request %d with ClampRunToRequest", j.RunSeconds, j.RequestedSeconds)
	case opts.DropCancelled && j.Status == StatusCancelled, opts.DropFailed && j.Status == StatusFailed:
		t.Fatalf("status %d kept with options %+v", j.Status, opts)
	case math.IsNaN(j.AverageCPUSeconds) || math.IsInf(j.AverageCPUSeconds, 0) || j.AverageCPUSeconds < -1:
		t.Fatalf("average CPU time %v", j.AverageCPUSeconds)
	}
	for i, p := range j.intFields() {
		if p != nil && *p < -1 {
			t.Fatalf("field %d = %d below -1", i+1, *p)
		}
	}
	// The job's own SWF line must read back to the same 18 fields.
	back, reason, detail := parseJobLine(j.AppendSWF(nil))
	if detail != "" {
		t.Fatalf("reading back %q: %s: %s", j.String(), reason, detail)
	}
	back.Line, back.Notes, back.LoggedRunSeconds = j.Line, j.Notes, j.LoggedRunSeconds
	if back != j {
		t.Fatalf("round trip of %q gave %+v, want %+v", j.String(), back, j)
	}
}
