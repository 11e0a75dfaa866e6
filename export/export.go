// Package export writes simulated schedules in the formats of the field's
// tools: the Standard Workload Format (SWF 2.2, Parallel Workloads
// Archive), whose 18 fields carry the simulated wait, run time and
// allocated processors so any SWF reader takes it as a trace, and Batsim's
// jobs.csv, the table evalys (github.com/oar-team/evalys) reads and draws
// as a Gantt chart.
//
// The input is a plain Schedule, one Job per job, that any model fills
// from its own simulation: times are whole seconds (a tick-based model
// writes one tick as one second). It is a leaf: it imports no simulator.
package export

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A Schedule is what a simulation decided for a set of jobs.
type Schedule struct {
	// Name says where the jobs come from: the SWF header's Installation
	// note and Batsim's workload_name.
	Name string
	// Procs is the platform's processors (SWF MaxProcs); resource ids run
	// from 0 to Procs-1.
	Procs int
	// UnixStartSeconds is the Unix time of second 0, written as the SWF
	// header's UnixStartTime when > 0.
	UnixStartSeconds int64
	Jobs             []Job
}

// A Job is one scheduled job.
type Job struct {
	// ID is Batsim's job_id; empty means the job's SWF number.
	ID string
	// Number is the SWF job number, >= 1; 0 means the job's position + 1.
	Number                                     int64
	SubmitSeconds, StartSeconds, FinishSeconds int64
	Procs                                      int
	// RequestedSeconds is the requested time (the user's estimate); -1
	// when unknown.
	RequestedSeconds int64
	// User is the SWF user id; -1 when unknown.
	User int64
	// Allocated lists the resource ids the job ran on (len Procs), or is
	// nil when the model does not name them (see AssignResources).
	Allocated []int
}

// number returns the job's SWF number.
func (s *Schedule) number(i int) int64 {
	if n := s.Jobs[i].Number; n != 0 {
		return n
	}
	return int64(i + 1)
}

// id returns the job's Batsim id.
func (s *Schedule) id(i int) string {
	if id := s.Jobs[i].ID; id != "" {
		return id
	}
	return strconv.FormatInt(s.number(i), 10)
}

// Validate checks what both formats need: at least 1 processor, and per
// job a number >= 0, submit >= 0, submit <= start <= finish, 1 <= procs
// <= Procs, allocations (when given) of Procs distinct ids in range, and
// unique numbers.
func (s *Schedule) Validate() error {
	if s.Procs < 1 {
		return fmt.Errorf("schedule %s: %d processors; want >= 1", s.Name, s.Procs)
	}
	numbers := make(map[int64]int, len(s.Jobs))
	for i := range s.Jobs {
		j := &s.Jobs[i]
		fail := func(field string, format string, args ...any) error {
			return fmt.Errorf("schedule %s: job %d (number %d) field %s: %s", s.Name, i, s.number(i), field, fmt.Sprintf(format, args...))
		}
		switch {
		case j.Number < 0:
			return fail("number", "%d; want >= 1, or 0 for the position", j.Number)
		case j.SubmitSeconds < 0:
			return fail("submit", "%d; want seconds >= 0", j.SubmitSeconds)
		case j.StartSeconds < j.SubmitSeconds:
			return fail("start", "%d is before the submit time %d", j.StartSeconds, j.SubmitSeconds)
		case j.FinishSeconds < j.StartSeconds:
			return fail("finish", "%d is before the start time %d", j.FinishSeconds, j.StartSeconds)
		case j.Procs < 1 || j.Procs > s.Procs:
			return fail("procs", "%d; want 1..%d (the platform)", j.Procs, s.Procs)
		case j.Allocated != nil && len(j.Allocated) != j.Procs:
			return fail("allocated", "%d resources for a job of %d processors", len(j.Allocated), j.Procs)
		}
		for _, r := range j.Allocated {
			if r < 0 || r >= s.Procs {
				return fail("allocated", "resource %d; want ids 0..%d", r, s.Procs-1)
			}
		}
		if j.Allocated != nil {
			sorted := slices.Sorted(slices.Values(j.Allocated))
			if len(slices.Compact(sorted)) != len(j.Allocated) {
				return fail("allocated", "a resource is listed twice")
			}
		}
		if prev, dup := numbers[s.number(i)]; dup {
			return fail("number", "duplicate of job %d", prev)
		}
		numbers[s.number(i)] = i
	}
	return nil
}

// WriteSWF writes the schedule as an SWF 2.2 log: a header comment block,
// then one line per job in the given order with its number, submit time,
// simulated wait (start - submit), simulated run time (finish - start),
// allocated and requested processors (both the job's), requested time,
// status 1 (completed) and user; the fields a simulation does not know
// (CPU time, memory, group, executable, queue, partition, preceding job,
// think time) are -1.
func WriteSWF(out io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "; Version: 2.2\n")
	fmt.Fprintf(w, "; Computer: sweep simulation\n")
	fmt.Fprintf(w, "; Installation: %s\n", oneLine(s.Name))
	fmt.Fprintf(w, "; Note: a simulated schedule written by sweep: wait time, run time and allocated processors are the simulation's, not a log's\n")
	fmt.Fprintf(w, "; MaxJobs: %d\n", len(s.Jobs))
	fmt.Fprintf(w, "; MaxRecords: %d\n", len(s.Jobs))
	if s.UnixStartSeconds > 0 {
		fmt.Fprintf(w, "; UnixStartTime: %d\n", s.UnixStartSeconds)
	}
	fmt.Fprintf(w, "; MaxProcs: %d\n", s.Procs)
	line := make([]byte, 0, 128)
	for i := range s.Jobs {
		j := &s.Jobs[i]
		fields := [18]int64{
			s.number(i), j.SubmitSeconds, j.StartSeconds - j.SubmitSeconds, j.FinishSeconds - j.StartSeconds,
			int64(j.Procs), -1, -1, int64(j.Procs), j.RequestedSeconds, -1,
			1, j.User, -1, -1, -1, -1, -1, -1,
		}
		line = line[:0]
		for k, f := range fields {
			if k > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, f, 10)
		}
		line = append(line, '\n')
		w.Write(line)
	}
	return w.Flush()
}

// oneLine keeps a header value on its line.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// BatsimColumns are the columns of Batsim's jobs.csv (docs/output-jobs.rst),
// in Batsim's order; evalys's JobSet reads them by name.
var BatsimColumns = []string{
	"job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
	"requested_time", "success", "final_state", "starting_time", "execution_time", "finish_time",
	"waiting_time", "turnaround_time", "stretch", "allocated_resources", "consumed_energy", "metadata",
}

// WriteBatsimCSV writes the schedule as Batsim's jobs.csv: every job
// completed successfully (success 1, final_state COMPLETED_SUCCESSFULLY),
// requested_time -1 when unknown, stretch = turnaround / execution time
// (empty for a job of no execution time), allocated_resources as an
// interval set ("0-3 8"), consumed_energy -1 (no energy model), profile
// and metadata empty. Jobs without Allocated get resources by
// AssignResources first; without any, evalys cannot draw them.
func WriteBatsimCSV(out io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	alloc, err := AssignResources(s)
	if err != nil {
		return err
	}
	w := csv.NewWriter(out)
	if err := w.Write(BatsimColumns); err != nil {
		return err
	}
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	for i := range s.Jobs {
		j := &s.Jobs[i]
		exec, turnaround := j.FinishSeconds-j.StartSeconds, j.FinishSeconds-j.SubmitSeconds
		stretch := ""
		if exec > 0 {
			stretch = strconv.FormatFloat(float64(turnaround)/float64(exec), 'g', -1, 64)
		}
		record := []string{
			s.id(i), s.Name, "", itoa(j.SubmitSeconds), strconv.Itoa(j.Procs),
			itoa(j.RequestedSeconds), "1", "COMPLETED_SUCCESSFULLY", itoa(j.StartSeconds), itoa(exec), itoa(j.FinishSeconds),
			itoa(j.StartSeconds - j.SubmitSeconds), itoa(turnaround), stretch, IntervalSet(alloc[i]), "-1", "",
		}
		if err := w.Write(record); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// IntervalSet writes resource ids as Batsim's interval set: sorted, runs
// of consecutive ids as "a-b", separated by spaces ("0-3 8").
func IntervalSet(ids []int) string {
	sorted := slices.Sorted(slices.Values(ids))
	var b strings.Builder
	for k := 0; k < len(sorted); {
		end := k
		for end+1 < len(sorted) && sorted[end+1] == sorted[end]+1 {
			end++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(sorted[k]))
		if end > k {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(sorted[end]))
		}
		k = end + 1
	}
	return b.String()
}

// AssignResources returns each job's resource ids: its own Allocated when
// set, otherwise the lowest ids free at its start, jobs taken by start
// time then position, a job finishing at t freeing its resources for a
// job starting at t. The models count free processors without naming
// them, so this is one valid placement, not the simulator's. It fails when
// the jobs running at some instant need more than Procs processors.
func AssignResources(s *Schedule) ([][]int, error) {
	alloc := make([][]int, len(s.Jobs))
	order := make([]int, len(s.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(s.Jobs[a].StartSeconds, s.Jobs[b].StartSeconds)
	})
	busy := make([]bool, s.Procs)
	var running endHeap
	for _, i := range order {
		j := &s.Jobs[i]
		for len(running) > 0 && running[0].finish <= j.StartSeconds {
			done := heap.Pop(&running).(ending)
			for _, r := range alloc[done.job] {
				busy[r] = false
			}
		}
		if j.Allocated != nil {
			alloc[i] = j.Allocated
		} else {
			alloc[i] = make([]int, 0, j.Procs)
			for r := 0; r < s.Procs && len(alloc[i]) < j.Procs; r++ {
				if !busy[r] {
					alloc[i] = append(alloc[i], r)
				}
			}
			if len(alloc[i]) < j.Procs {
				return nil, fmt.Errorf("schedule %s: job %d (number %d) starts at %d s on %d processors, but only %d of %d are free then", s.Name, i, s.number(i), j.StartSeconds, j.Procs, len(alloc[i]), s.Procs)
			}
		}
		for _, r := range alloc[i] {
			if busy[r] {
				return nil, fmt.Errorf("schedule %s: job %d (number %d) is allocated resource %d at %d s, which another job holds", s.Name, i, s.number(i), r, j.StartSeconds)
			}
			busy[r] = true
		}
		if j.FinishSeconds > j.StartSeconds {
			heap.Push(&running, ending{j.FinishSeconds, i})
		} else {
			for _, r := range alloc[i] {
				busy[r] = false
			}
		}
	}
	return alloc, nil
}

type ending struct {
	finish int64
	job    int
}

type endHeap []ending

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(a, b int) bool {
	return cmp.Or(cmp.Compare(h[a].finish, h[b].finish), cmp.Compare(h[a].job, h[b].job)) < 0
}
func (h endHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(ending)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
