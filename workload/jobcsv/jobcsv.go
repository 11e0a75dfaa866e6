// Package jobcsv reads a CSV job list as rigid jobs on nodes (issue 34):
// a header row, then one job per row, with the columns
//
//	id, submit, run, estimate, nodes, cores, memory, gpus, partition, user
//
// id is the job's number (a whole number); submit, run and estimate are
// whole seconds (submit from any origin, the earliest becoming 0 is not
// done: the times are kept); nodes is the nodes asked, and cores, memory
// (MiB) and gpus are per node; partition is a partition's name, or empty
// (or *) for any; user a whole number. Optional columns: exclusive (true
// or false, 1 or 0: the job holds its nodes whole). Extra columns are
// ignored, so a Slurm sacct export or a GPU cluster's log can be read
// once its columns are named (Columns maps a field to another column
// name). nodes 0 asks for cores pooled wherever they are, memory then
// per core.
//
// Repairs, counted in the Report: an estimate that is empty, 0 or
// negative becomes the run time; a run longer than the estimate is
// clamped to it, the job killed at its request, its logged run kept (as
// the SWF reader does); an empty memory or gpus is 0. Anything else
// that is not valid is an error naming the file, line and column.
//
// It is a leaf: it imports only the rigid workload contract.
package jobcsv

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// Fields are the fields of a job, in the default column order; each is
// also its default column name.
var Fields = []string{"id", "submit", "run", "estimate", "nodes", "cores", "memory", "gpus", "partition", "user"}

// optionalFields may be absent from a file.
var optionalFields = []string{"estimate", "memory", "gpus", "partition", "user", "exclusive"}

// maxSeconds bounds every time so that sums of them stay far from int64
// overflow.
const maxSeconds = 1 << 53

// Jobs is a job list read: its jobs and their requests (Partition left
// AnyPartition: a machine's partitions are not known here) and, per job,
// the partition it names ("" for any).
type Jobs struct {
	Jobs       []rigid.Job
	Requests   []rigid.Request
	Partitions []string
	Report     Report
}

// Report counts the repairs of a read.
type Report struct {
	EstimateFromRun int // estimates empty, 0 or negative: the run time
	RunClamped      int // runs longer than their estimate
}

// Read reads a job list from r; name is the file, for messages. columns
// maps fields to the file's column names where they differ from the
// fields' own (Fields, and exclusive).
func Read(r io.Reader, name string, columns map[string]string) (*Jobs, error) {
	for _, f := range slices.Sorted(maps.Keys(columns)) {
		if !slices.Contains(Fields, f) && f != "exclusive" {
			return nil, fmt.Errorf("%s: columns: field %q: want one of %s, exclusive", name, f, strings.Join(Fields, ", "))
		}
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty: want a header row naming the columns %s", name, strings.Join(Fields, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	at, err := locate(header, name, columns)
	if err != nil {
		return nil, err
	}
	out := &Jobs{}
	seen := map[int64]int{} // id: line
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if err := out.add(rec, at, fmt.Sprintf("%s: line %d", name, line)); err != nil {
			return nil, err
		}
		id := out.Jobs[len(out.Jobs)-1].Number
		if first, ok := seen[id]; ok {
			return nil, fmt.Errorf("%s: line %d: column id: %d is the id of line %d too: want one id per job", name, line, id, first)
		}
		seen[id] = line
	}
	if len(out.Jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs: want a row per job after the header", name)
	}
	return out, nil
}

// locate returns each field's column index in the header, -1 for an
// optional field absent.
func locate(header []string, name string, columns map[string]string) (map[string]int, error) {
	at := map[string]int{}
	for _, f := range append(slices.Clone(Fields), "exclusive") {
		col := f
		if c, ok := columns[f]; ok {
			col = c
		}
		i := slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == col })
		if i < 0 && !slices.Contains(optionalFields, f) {
			return nil, fmt.Errorf("%s: line 1: no column %q for field %s; the header has %s (map other names with columns: {%s: NAME})",
				name, col, f, strings.Join(header, ", "), f)
		}
		at[f] = i
	}
	return at, nil
}

// add reads one row.
func (js *Jobs) add(rec []string, at map[string]int, where string) error {
	cell := func(f string) string {
		if i := at[f]; i >= 0 && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var bad error
	num := func(f string, lo, hi int64, optional bool) int64 {
		s := cell(f)
		if s == "" && optional {
			return 0
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if (err != nil || v < lo || v > hi) && bad == nil {
			bad = fmt.Errorf("%s: column %s: %q: want a whole number from %d to %d", where, f, s, lo, hi)
		}
		return v
	}
	var j rigid.Job
	var r rigid.Request
	j.Number = num("id", -maxSeconds, maxSeconds, false)
	j.SubmitSeconds = num("submit", 0, maxSeconds, false)
	j.RunSeconds = num("run", 1, maxSeconds, false)
	est := num("estimate", -maxSeconds, maxSeconds, true)
	r.Nodes = int(num("nodes", 0, 1<<20, false))
	cores := int(num("cores", 1, 1<<20, false))
	mem := num("memory", 0, 1<<40, true)
	r.GPUsPerNode = int(num("gpus", 0, 1<<10, true))
	j.User = num("user", -maxSeconds, maxSeconds, true)
	r.Exclusive = parseBool(cell("exclusive"), where, &bad)
	if bad != nil {
		return bad
	}
	if r.Pooled() {
		if r.GPUsPerNode != 0 {
			return fmt.Errorf("%s: column gpus: %d with nodes 0 (pooled cores): want nodes >= 1 for GPUs", where, r.GPUsPerNode)
		}
		j.Procs, r.MemoryPerCoreMiB = cores, mem
	} else {
		r.CoresPerNode, r.MemoryPerNodeMiB = cores, mem
		j.Procs = r.Nodes * cores
	}
	r.Partition = rigid.AnyPartition
	if est <= 0 {
		est = j.RunSeconds
		js.Report.EstimateFromRun++
	}
	j.RequestedSeconds = est
	if j.RunSeconds > est {
		j.LoggedRunSeconds, j.RunSeconds = j.RunSeconds, est
		js.Report.RunClamped++
	}
	part := cell("partition")
	if part == "*" {
		part = ""
	}
	js.Jobs = append(js.Jobs, j)
	js.Requests = append(js.Requests, r)
	js.Partitions = append(js.Partitions, part)
	return nil
}

func parseBool(s, where string, bad *error) bool {
	switch strings.ToLower(s) {
	case "", "0", "false", "no":
		return false
	case "1", "true", "yes":
		return true
	}
	if *bad == nil {
		*bad = fmt.Errorf("%s: column exclusive: %q: want true or false (1 or 0)", where, s)
	}
	return false
}

// Workload returns the jobs on machine m, sorted by submit time then
// number, each job's partition resolved to its index in m; a partition
// m does not have is an error naming it and m's partitions.
func (js *Jobs) Workload(name string, m *rigid.Machine) (*rigid.Workload, error) {
	w := &rigid.Workload{Name: name, Procs: m.Cores(), Machine: m,
		Jobs: slices.Clone(js.Jobs), Requests: slices.Clone(js.Requests)}
	for i, p := range js.Partitions {
		if p == "" {
			continue
		}
		k := m.PartitionIndex(p)
		if k < 0 {
			var names []string
			for _, q := range m.Partitions {
				names = append(names, q.Name)
			}
			return nil, fmt.Errorf("%s: job %d: partition %q: the platform has %s (or leave it empty for any)", name, js.Jobs[i].Number, p, strings.Join(names, ", "))
		}
		w.Requests[i].Partition = k
	}
	w.SortJobs()
	return w, nil
}
