package swf

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// headerOrder is the order of the header comments in the format's
// definition (swf.html, "The Header Comments"); Write writes the keys it
// knows in this order and any others after them, sorted, before the notes.
var headerOrder = []string{
	"Version", "Computer", "Installation", "Acknowledge", "Information", "Conversion",
	"MaxJobs", "MaxRecords", "Preemption", "UnixStartTime", "TimeZone", "TimeZoneString",
	"StartTime", "EndTime", "MaxNodes", "MaxProcs", "MaxRuntime", "MaxMemory", "AllowOveruse",
	"MaxQueues", "Queues", "Queue", "MaxPartitions", "Partitions", "Partition",
}

// Write writes an SWF log: h's header comments, then jobs, one line each,
// in the order given (SWF wants them sorted by submit time; the caller
// owns that). The typed keys of h (Version, MaxJobs, MaxRecords,
// UnixStartTime, TimeZone, TimeZoneString, MaxNodes, MaxProcs) are written
// when known (>= 0, or not empty) and take the place of the same keys in
// h.Fields; every other key of h.Fields is written with each of its
// values, Note last. A value holding a line break, or a job field below
// -1 (SWF reserves -1 for unknown), is an error naming it: the reader
// could not read the log back.
func Write(out io.Writer, h Header, jobs []Job) error {
	lines, err := headerLines(h)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	line := make([]byte, 0, 128)
	for i := range jobs {
		if err := checkFields(&jobs[i]); err != nil {
			return fmt.Errorf("writing SWF: job %d (number %d): %w", i, jobs[i].Number, err)
		}
		line = append(jobs[i].AppendSWF(line[:0]), '\n')
		if _, err := w.Write(line); err != nil {
			return fmt.Errorf("writing SWF: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing SWF: %w", err)
	}
	return nil
}

// headerLines renders the header as "; Key: value" lines.
func headerLines(h Header) ([]string, error) {
	typed := map[string]string{"Version": h.Version, "TimeZoneString": h.TimeZoneString}
	for key, v := range map[string]int64{"MaxJobs": h.MaxJobs, "MaxRecords": h.MaxRecords, "UnixStartTime": h.UnixStartTime,
		"MaxNodes": h.MaxNodes, "MaxProcs": h.MaxProcs} {
		if v >= 0 {
			typed[key] = strconv.FormatInt(v, 10)
		}
	}
	if h.HasTimeZoneOffset {
		typed["TimeZone"] = strconv.FormatInt(h.TimeZoneOffsetSeconds, 10)
	}
	var extra []string
	for key := range h.Fields {
		if !slices.Contains(headerOrder, key) && key != "Note" {
			extra = append(extra, key)
		}
	}
	slices.Sort(extra)
	var lines []string
	for _, key := range append(append(slices.Clone(headerOrder), extra...), "Note") {
		values := h.Fields[key]
		if v, ok := typed[key]; ok {
			values = nil
			if v != "" {
				values = []string{v}
			}
		}
		for _, v := range values {
			if _, _, ok := splitHeaderKey(key + ": x"); !ok || strings.ContainsAny(v, "\r\n") {
				return nil, fmt.Errorf("writing SWF: header %s: %q: want a key of letters, digits and _ and a value on one line", key, v)
			}
			lines = append(lines, strings.TrimRight("; "+key+": "+v, " "))
		}
	}
	return lines, nil
}

// checkFields refuses a field the reader would take as malformed.
func checkFields(j *Job) error {
	for i, f := range j.intFields() {
		if f != nil && *f < -1 {
			return fmt.Errorf("field %d (%s) = %d: want >= -1 (-1: unknown)", i+1, fieldNames[i], *f)
		}
	}
	if j.AverageCPUSeconds < -1 {
		return fmt.Errorf("field %d (%s) = %v: want >= -1 (-1: unknown)", averageCPUField+1, fieldNames[averageCPUField], j.AverageCPUSeconds)
	}
	return nil
}
