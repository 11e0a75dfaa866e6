// Package export writes simulated schedules in the formats of the field's
// tools: the Standard Workload Format (SWF 2.2, Parallel Workloads
// Archive), whose 18 fields carry the simulated wait, run time and
// allocated processors so any SWF reader takes it as a trace, and Batsim's
// jobs.csv, the table evalys (github.com/oar-team/evalys) reads and draws
// as a Gantt chart.
//
// The input is a plain Schedule, one Job per job, that any model fills
// from its own simulation: times are whole seconds (a tick-based model
// writes one tick as one second). It imports no simulator: only
// engine/placement's rule for naming counted resources (Fit) and
// workload/swf's job line.
package export

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/workload/swf"
)

// A Schedule is what a simulation decided for a set of jobs.
type Schedule struct {
	// Name says where the jobs come from: the SWF header's Installation
	// note.
	Name string
	// BatsimWorkload is the workload's name as Batsim writes it in
	// jobs.csv's workload_name: Batsim names the workload files of its
	// command line w0, w1, ... (src/cli.cpp), and policy/batsim sends a
	// rigid workload to a scheduler under the same name. Empty means Name.
	BatsimWorkload string
	// Procs is the platform's processors (SWF MaxProcs); resource ids run
	// from 0 to Procs-1.
	Procs int
	// UnixStartSeconds is the Unix time of second 0, written as the SWF
	// header's UnixStartTime when > 0.
	UnixStartSeconds int64
	// Nodes, when > 0, says the platform is that many nodes (ids 0 to
	// Nodes-1, numbered across partitions) and each job names its nodes
	// (Job.NodeIDs): Batsim's resources are then the nodes (its hosts),
	// not the processors. A node may hold several jobs at once (shared
	// nodes), which Batsim's own platforms do not.
	// The JSON export leaves Nodes and NodeIDs out on processors, as
	// before them.
	Nodes int `json:",omitempty"`
	Jobs  []Job
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
	// Allocated lists the resource ids the job ran on (len Procs), as the
	// simulation chose them, or is nil when the model only counted
	// processors (see AssignResources).
	Allocated []int
	// ReachedRequest says the job ran until its requested time and was
	// killed there: Batsim's COMPLETED_WALLTIME_REACHED, SWF status 0.
	ReachedRequest bool
	// NodeIDs are the nodes the job ran on, ascending, on a schedule of
	// nodes (Schedule.Nodes > 0).
	NodeIDs []int `json:",omitempty"`
	// RequestedMemoryKB (per processor, SWF field 10) and Partition (SWF
	// field 16, from 1) are what a job on a platform of nodes asked and
	// where it ran; 0 means unknown (written -1).
	RequestedMemoryKB, Partition int64
	// Phase is the job's part of a windowed simulation (PhaseWarmUp,
	// PhaseMeasured, PhaseCoolDown), or "" when the model measures every
	// job.
	Phase string
}

// The phases of a windowed simulation (a trace month): jobs submitted
// before the measured window warm the system up, those after it keep it
// loaded until the window's jobs have started; only the measured ones
// count in the measures.
const (
	PhaseWarmUp   = "warm-up"
	PhaseMeasured = "measured"
	PhaseCoolDown = "cool-down"
)

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
		case s.Nodes > 0 && len(j.NodeIDs) == 0:
			return fail("nodes", "none; want the nodes the job ran on, on a schedule of %d nodes", s.Nodes)
		}
		for k, n := range j.NodeIDs {
			if n < 0 || n >= s.Nodes || k > 0 && n <= j.NodeIDs[k-1] {
				return fail("nodes", "%v; want distinct ids 0..%d, ascending", j.NodeIDs, s.Nodes-1)
			}
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
// status and user; the fields a simulation does not know (CPU time,
// memory, group, executable, queue, partition, preceding job, think time)
// are -1. The status is 1 (completed), or 0 (failed) for a job killed at
// its requested time: SWF has no status of its own for a time limit, and
// the archive's logs count a job the system killed as failed, keeping 5
// (cancelled) for jobs their user cancelled. With phases, a header note
// counts the warm-up, measured and cool-down jobs, in submit order.
func WriteSWF(out io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "; Version: 2.2\n")
	fmt.Fprintf(w, "; Computer: sweep simulation\n")
	fmt.Fprintf(w, "; Installation: %s\n", oneLine(s.Name))
	fmt.Fprintf(w, "; Note: a simulated schedule written by sweep: wait time, run time and allocated processors are the simulation's, not a log's\n")
	if n := s.phaseCounts(); n != nil {
		fmt.Fprintf(w, "; Note: %d warm-up jobs, %d measured jobs, %d cool-down jobs (only the measured ones count in the measures)\n",
			n[PhaseWarmUp], n[PhaseMeasured], n[PhaseCoolDown])
	}
	fmt.Fprintf(w, "; MaxJobs: %d\n", len(s.Jobs))
	fmt.Fprintf(w, "; MaxRecords: %d\n", len(s.Jobs))
	if s.UnixStartSeconds > 0 {
		fmt.Fprintf(w, "; UnixStartTime: %d\n", s.UnixStartSeconds)
	}
	fmt.Fprintf(w, "; MaxProcs: %d\n", s.Procs)
	line := make([]byte, 0, 128)
	for i := range s.Jobs {
		j := &s.Jobs[i]
		status := swf.StatusCompleted
		if j.ReachedRequest {
			status = swf.StatusFailed
		}
		rec := swf.Job{
			Number: s.number(i), SubmitSeconds: j.SubmitSeconds, WaitSeconds: j.StartSeconds - j.SubmitSeconds, RunSeconds: j.FinishSeconds - j.StartSeconds,
			AllocatedProcs: int64(j.Procs), AverageCPUSeconds: -1, UsedMemoryKB: -1, RequestedProcs: int64(j.Procs), RequestedSeconds: j.RequestedSeconds, RequestedMemoryKB: orUnknown(j.RequestedMemoryKB),
			Status: status, User: j.User, Group: -1, Executable: -1, Queue: -1, Partition: orUnknown(j.Partition), PrecedingJob: -1, ThinkTimeSeconds: -1,
		}
		line = append(rec.AppendSWF(line[:0]), '\n')
		w.Write(line)
	}
	return w.Flush()
}

// phaseCounts counts the jobs of each phase, or returns nil when no job
// has one.
func (s *Schedule) phaseCounts() map[string]int {
	var n map[string]int
	for i := range s.Jobs {
		if p := s.Jobs[i].Phase; p != "" {
			if n == nil {
				n = map[string]int{}
			}
			n[p]++
		}
	}
	return n
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

// PhaseColumn is the column WriteBatsimCSV adds after Batsim's own when
// jobs have phases: warm-up, measured or cool-down.
const PhaseColumn = "phase"

// WriteBatsimCSV writes the schedule as Batsim's jobs.csv:
// workload_name is BatsimWorkload (else Name); a job killed at its
// requested time has success 0 and final_state COMPLETED_WALLTIME_REACHED
// (as Batsim says of a delay job that reaches its walltime), every other
// success 1 and COMPLETED_SUCCESSFULLY; requested_time is -1 when unknown,
// stretch = turnaround / execution time (empty for a job of no execution
// time), allocated_resources an interval set ("0-3 8"): the resources the
// simulation chose, or for a model that only counted processors those of
// AssignResources; on a schedule of nodes, requested_number_of_resources
// is the job's nodes and allocated_resources their ids, as Batsim counts
// hosts; consumed_energy -1 (no energy model), profile and
// metadata empty. When jobs have phases, a last column (PhaseColumn) says
// which; evalys reads columns by name and ignores it.
func WriteBatsimCSV(out io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	alloc, err := s.batsimResources()
	if err != nil {
		return err
	}
	phases := s.phaseCounts() != nil
	w := csv.NewWriter(out)
	header := BatsimColumns
	if phases {
		header = append(slices.Clip(header), PhaseColumn)
	}
	if err := w.Write(header); err != nil {
		return err
	}
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	workload := cmp.Or(s.BatsimWorkload, s.Name)
	for i := range s.Jobs {
		j := &s.Jobs[i]
		exec, turnaround := j.FinishSeconds-j.StartSeconds, j.FinishSeconds-j.SubmitSeconds
		stretch := ""
		if exec > 0 {
			stretch = strconv.FormatFloat(float64(turnaround)/float64(exec), 'g', -1, 64)
		}
		success, state := "1", "COMPLETED_SUCCESSFULLY"
		if j.ReachedRequest {
			success, state = "0", "COMPLETED_WALLTIME_REACHED"
		}
		record := []string{
			s.id(i), workload, "", itoa(j.SubmitSeconds), strconv.Itoa(len(alloc[i])),
			itoa(j.RequestedSeconds), success, state, itoa(j.StartSeconds), itoa(exec), itoa(j.FinishSeconds),
			itoa(j.StartSeconds - j.SubmitSeconds), itoa(turnaround), stretch, IntervalSet(alloc[i]), "-1", "",
		}
		if phases {
			record = append(record, j.Phase)
		}
		if err := w.Write(record); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// batsimResources returns each job's Batsim resources: its nodes on a
// schedule of nodes, else its processors (AssignResources).
func (s *Schedule) batsimResources() ([][]int, error) {
	if s.Nodes == 0 {
		return AssignResources(s)
	}
	alloc := make([][]int, len(s.Jobs))
	for i := range s.Jobs {
		alloc[i] = s.Jobs[i].NodeIDs
	}
	return alloc, nil
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

// AssignResources returns each job's resource ids: its own Allocated
// when set (the simulation's choice, checked free), otherwise ids named
// by engine/placement.Fit at its start (best fit: the narrowest run of
// consecutive free ids wide enough, the lowest on a tie, else the lowest
// free ids), the rule the Gantt chart uses, so that a chart and an export
// of one cell agree. Jobs are taken by start time, then position; a job
// finishing at t frees its resources for a job starting at t. Ids so
// named are one valid placement, not a simulator's. It fails when the
// jobs running at some instant need more than Procs processors, or a
// named resource is held by another job.
func AssignResources(s *Schedule) ([][]int, error) {
	alloc := make([][]int, len(s.Jobs))
	order := make([]int, len(s.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(s.Jobs[a].StartSeconds, s.Jobs[b].StartSeconds)
	})
	freeAt := make([]int64, s.Procs)
	for _, i := range order {
		j := &s.Jobs[i]
		if j.Allocated == nil {
			if alloc[i] = placement.Fit(freeAt, j.StartSeconds, j.FinishSeconds, j.Procs); alloc[i] == nil {
				free := 0
				for _, at := range freeAt {
					if at <= j.StartSeconds {
						free++
					}
				}
				return nil, fmt.Errorf("schedule %s: job %d (number %d) starts at %d s on %d processors, but only %d of %d are free then", s.Name, i, s.number(i), j.StartSeconds, j.Procs, free, s.Procs)
			}
			continue
		}
		for _, r := range j.Allocated {
			if freeAt[r] > j.StartSeconds {
				return nil, fmt.Errorf("schedule %s: job %d (number %d) is allocated resource %d at %d s, which another job holds until %d s", s.Name, i, s.number(i), r, j.StartSeconds, freeAt[r])
			}
			freeAt[r] = j.FinishSeconds
		}
		alloc[i] = j.Allocated
	}
	return alloc, nil
}

// Placed returns a copy of the schedule in which every job names its
// resources (AssignResources), so that a part of it (Measured) keeps the
// places the whole schedule gave.
func (s *Schedule) Placed() (*Schedule, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	alloc, err := AssignResources(s)
	if err != nil {
		return nil, err
	}
	out := *s
	out.Jobs = slices.Clone(s.Jobs)
	for i := range out.Jobs {
		out.Jobs[i].Allocated = alloc[i]
	}
	return &out, nil
}

// Measured returns the schedule's measured jobs only, numbered as they
// were; resources a model only counted should be placed first (Placed),
// for the warm-up jobs hold some. It fails when no job has a phase (the
// model measures every job: there is nothing to leave out).
func (s *Schedule) Measured() (*Schedule, error) {
	if s.phaseCounts() == nil {
		return nil, fmt.Errorf("schedule %s: its jobs have no warm-up or cool-down: every job is measured", s.Name)
	}
	out := *s
	out.Jobs = nil
	for i := range s.Jobs {
		if s.Jobs[i].Phase == PhaseMeasured {
			j := s.Jobs[i]
			j.Number = s.number(i)
			out.Jobs = append(out.Jobs, j)
		}
	}
	if len(out.Jobs) == 0 {
		return nil, fmt.Errorf("schedule %s: no measured job started", s.Name)
	}
	return &out, nil
}

// orUnknown writes 0, a field the model does not know, as SWF's -1.
func orUnknown(v int64) int64 {
	if v == 0 {
		return -1
	}
	return v
}
