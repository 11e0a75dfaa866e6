package rigidtrace

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// DefaultWarmUpSeconds is the warm-up of a trace month: the jobs of the
// week before it (Vasupongayya's "one-week warm up").
const DefaultWarmUpSeconds = 7 * 24 * 3600

// Options chooses the cluster a log is replayed on.
type Options struct {
	// Procs is N, the cluster's processors; 0 takes the header's MaxProcs.
	Procs int
	// WarmUpSeconds is how long before a month its simulation starts; 0
	// means DefaultWarmUpSeconds.
	WarmUpSeconds int64
}

// Trace is a whole SWF log read as the rigid model's jobs (design note
// fairshare.md, sections 1-2): every job with a run
// time above 0 whatever its status, processors repaired from the request,
// the run time clamped to the requested time, a missing request replaced
// by the run time, and jobs wider than the cluster dropped. Read it once
// and cut as many months from it as needed.
type Trace struct {
	Source string
	Header swf.Header
	Procs  int
	// WarmUpSeconds is the resolved warm-up of every month.
	WarmUpSeconds int64
	// Jobs holds every kept job sorted by submit time, then job number.
	Jobs []rigid.Job
	// Lines holds the SWF line of each job of Jobs.
	Lines []int
	// NoRequest tells, per job of Jobs, that its requested time was
	// missing or 0 and is its run time: a job the system never killed.
	NoRequest []bool
	// MemoryKB and Partitions hold each job's requested memory per
	// processor (SWF field 10, -1 when missing) and partition number
	// (field 16, -1 when missing); Machine and Requests, set by
	// ForMachine, the machine of nodes the jobs are replayed on and what
	// each asks of it (nodes.go).
	MemoryKB, Partitions []int64
	Machine              *rigid.Machine
	Requests             []rigid.Request
	Report               Report
}

// Report accounts for a Trace: the SWF reader's report plus the two
// rules of the rigid model, each with its count and first lines.
type Report struct {
	Read swf.Report
	// ProcsAboveCluster counts jobs dropped because they ask for more
	// processors than the cluster has: they could never run.
	ProcsAboveCluster      int
	ProcsAboveClusterLines []int
	// RequestFromRun counts jobs whose requested time was missing or 0
	// and was set to their run time.
	RequestFromRun      int
	RequestFromRunLines []int
	// On a machine of nodes (ForMachine): the jobs dropped because no
	// partition can hold them (in ProcsAboveCluster too), by reason, and
	// the jobs whose missing memory was repaired.
	Unfit         map[string]int
	MemoryDefault int
}

// Jobs returns the number of jobs kept.
func (r Report) Jobs() int { return r.Read.Jobs - r.ProcsAboveCluster }

// String prints the reader's report followed by the rigid rules that
// applied.
func (r Report) String() string {
	var b strings.Builder
	b.WriteString(r.Read.String())
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	rules := []struct {
		count  int
		action swf.Action
		text   string
		lines  []int
	}{
		{r.ProcsAboveCluster, swf.Dropped, "processors above the cluster's", r.ProcsAboveClusterLines},
		{r.RequestFromRun, swf.Repaired, "requested time -1 or 0: run time used", r.RequestFromRunLines},
	}
	for _, rule := range rules {
		if rule.count == 0 {
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", rule.count, rule.action, rule.text, firstLines(rule.lines, rule.count))
	}
	tw.Flush()
	fmt.Fprintf(&b, "%d rigid jobs kept\n", r.Jobs())
	return b.String()
}

func firstLines(lines []int, count int) string {
	s := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		s = append(s, strconv.Itoa(l))
	}
	if count > len(lines) {
		s = append(s, "...")
	}
	return strings.Join(s, " ")
}

// readerOptions are the SWF reader's rules under the rigid model: the
// run time clamped to the requested time, everything else the defaults.
var readerOptions = swf.Options{ClampRunToRequest: true}

// Load reads the SWF log at path as rigid jobs.
func Load(path string, opts Options) (*Trace, error) {
	r, err := swf.Open(path, readerOptions)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return read(r, path, opts)
}

// Read reads an SWF log from src as rigid jobs; source names it in
// messages.
func Read(src io.Reader, source string, opts Options) (*Trace, error) {
	r, err := swf.NewNamedReader(src, source, readerOptions)
	if err != nil {
		return nil, err
	}
	return read(r, source, opts)
}

func read(r *swf.Reader, source string, opts Options) (*Trace, error) {
	t := &Trace{Source: source, Header: r.Header(), Procs: opts.Procs, WarmUpSeconds: opts.WarmUpSeconds}
	if t.Procs == 0 {
		if t.Header.MaxProcs <= 0 {
			return nil, fmt.Errorf("%s: header has no MaxProcs: give the cluster's processors (option procs)", source)
		}
		t.Procs = int(t.Header.MaxProcs)
	}
	if t.Procs < 0 {
		return nil, fmt.Errorf("%s: cluster processors %d: want at least 1", source, t.Procs)
	}
	if t.WarmUpSeconds == 0 {
		t.WarmUpSeconds = DefaultWarmUpSeconds
	}
	if t.WarmUpSeconds < 0 {
		return nil, fmt.Errorf("%s: warm-up %d s: want at least 0", source, t.WarmUpSeconds)
	}
	swfJobs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("reading rigid jobs: %w", err)
	}
	rep := &t.Report
	rep.Read = r.Report()
	t.Jobs, t.Lines, t.NoRequest = make([]rigid.Job, 0, len(swfJobs)), make([]int, 0, len(swfJobs)), make([]bool, 0, len(swfJobs))
	t.MemoryKB, t.Partitions = make([]int64, 0, len(swfJobs)), make([]int64, 0, len(swfJobs))
	for _, sj := range swfJobs {
		if sj.AllocatedProcs > int64(t.Procs) {
			rep.ProcsAboveCluster++
			if len(rep.ProcsAboveClusterLines) < swf.IssuesKeptPerReason {
				rep.ProcsAboveClusterLines = append(rep.ProcsAboveClusterLines, sj.Line)
			}
			continue
		}
		j := rigid.Job{
			Number:           sj.Number,
			User:             sj.User,
			SubmitSeconds:    sj.SubmitSeconds,
			Procs:            int(sj.AllocatedProcs),
			RunSeconds:       sj.RunSeconds,
			RequestedSeconds: sj.RequestedSeconds,
			LoggedRunSeconds: sj.LoggedRunSeconds, // run by kill: never
		}
		noRequest := j.RequestedSeconds <= 0
		if noRequest {
			rep.RequestFromRun++
			if len(rep.RequestFromRunLines) < swf.IssuesKeptPerReason {
				rep.RequestFromRunLines = append(rep.RequestFromRunLines, sj.Line)
			}
			j.RequestedSeconds = j.RunSeconds
		}
		t.Jobs = append(t.Jobs, j)
		t.Lines = append(t.Lines, sj.Line)
		t.NoRequest = append(t.NoRequest, noRequest)
		t.MemoryKB = append(t.MemoryKB, sj.RequestedMemoryKB)
		t.Partitions = append(t.Partitions, sj.Partition)
	}
	// ReadAll sorts by submit time only; the simulator also needs the job
	// number among equal submits.
	order := make([]int, len(t.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ja, jb := &t.Jobs[a], &t.Jobs[b]
		return cmp.Or(cmp.Compare(ja.SubmitSeconds, jb.SubmitSeconds), cmp.Compare(ja.Number, jb.Number))
	})
	jobs := make([]rigid.Job, len(order))
	lines := make([]int, len(order))
	noRequest := make([]bool, len(order))
	mem, parts := make([]int64, len(order)), make([]int64, len(order))
	for i, o := range order {
		jobs[i], lines[i], noRequest[i] = t.Jobs[o], t.Lines[o], t.NoRequest[o]
		mem[i], parts[i] = t.MemoryKB[o], t.Partitions[o]
	}
	t.Jobs, t.Lines, t.NoRequest, t.MemoryKB, t.Partitions = jobs, lines, noRequest, mem, parts
	for i := 1; i < len(jobs); i++ {
		if jobs[i].SubmitSeconds == jobs[i-1].SubmitSeconds && jobs[i].Number == jobs[i-1].Number {
			return nil, fmt.Errorf("%s:%d: field 1 (job number) %d repeats line %d at the same submit time: job numbers must tell jobs apart", source, lines[i], jobs[i].Number, lines[i-1])
		}
	}
	return t, nil
}

// Month is a calendar month in UTC.
type Month struct {
	Year  int
	Month time.Month
}

// ParseMonth reads a month written YYYY-MM.
func ParseMonth(s string) (Month, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return Month{}, fmt.Errorf("month %q: want YYYY-MM, e.g. 1996-10", s)
	}
	return Month{t.Year(), t.Month()}, nil
}

// String writes the month as YYYY-MM.
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year, int(m.Month)) }

// Start returns midnight UTC of the month's first day.
func (m Month) Start() time.Time { return time.Date(m.Year, m.Month, 1, 0, 0, 0, 0, time.UTC) }

// End returns midnight UTC of the next month's first day.
func (m Month) End() time.Time { return m.Start().AddDate(0, 1, 0) }

// MonthWorkload is one trace month ready to simulate: its Workload starts
// with the warm-up jobs and runs on with every later job of the log (the
// cool-down), and measures the jobs submitted in the month.
type MonthWorkload struct {
	Month    Month
	Workload rigid.Workload
	// WarmUpJobs, MeasuredJobs and CoolDownJobs split Workload.Jobs.
	WarmUpJobs, MeasuredJobs, CoolDownJobs int
	// NoRequest tells, per job of Workload.Jobs, that its requested time
	// is its run time for want of one in the log (Trace.NoRequest).
	NoRequest []bool
}

// errNoHeaderStart is returned for a log without UnixStartTime.
var errNoHeaderStart = errors.New("header has no UnixStartTime, so calendar months cannot be placed")

// Month cuts month m out of the trace. The workload shares the trace's
// jobs (do not modify them). A month in which the log has no job is an
// error naming the span the log covers.
func (t *Trace) Month(m Month) (MonthWorkload, error) {
	if t.Header.UnixStartTime < 0 {
		return MonthWorkload{}, fmt.Errorf("%s: month %s: %w", t.Source, m, errNoHeaderStart)
	}
	from, _ := t.Header.LogSeconds(m.Start())
	to, _ := t.Header.LogSeconds(m.End())
	lo, hi := lowerBound(t.Jobs, from), lowerBound(t.Jobs, to)
	if lo == hi {
		return MonthWorkload{}, fmt.Errorf("%s: month %s is outside the trace (%s)", t.Source, m, t.span())
	}
	c := t.cut(fmt.Sprintf("month %s", m), lo, hi, from, to)
	return MonthWorkload{Month: m, Workload: c.Workload, WarmUpJobs: c.WarmUpJobs, MeasuredJobs: c.MeasuredJobs,
		CoolDownJobs: c.CoolDownJobs, NoRequest: c.NoRequest}, nil
}

// span names the dates the log's jobs were submitted, for messages.
func (t *Trace) span() string {
	n := len(t.Jobs)
	if n == 0 {
		return "no jobs"
	}
	a, _ := t.Header.Time(t.Jobs[0].SubmitSeconds)
	b, _ := t.Header.Time(t.Jobs[n-1].SubmitSeconds)
	return fmt.Sprintf("jobs submitted %s to %s UTC", a.UTC().Format(time.DateOnly), b.UTC().Format(time.DateOnly))
}

// A Cut is a piece of the trace ready to simulate, with the month's
// rules: its Workload starts with the warm-up (the jobs of WarmUpSeconds
// before the first measured submit), measures the jobs [WarmUpJobs,
// WarmUpJobs+MeasuredJobs) of its Jobs and runs on with every later job
// of the log (the cool-down). It shares the trace's jobs.
type Cut struct {
	Workload rigid.Workload
	// WarmUpJobs, MeasuredJobs and CoolDownJobs split Workload.Jobs.
	WarmUpJobs, MeasuredJobs, CoolDownJobs int
	// NoRequest tells, per job of Workload.Jobs, that its requested time
	// is its run time for want of one in the log (Trace.NoRequest).
	NoRequest []bool
}

// cut measures jobs [lo, hi) over the seconds [from, to).
func (t *Trace) cut(name string, lo, hi int, from, to int64) Cut {
	first := lowerBound(t.Jobs, from-t.WarmUpSeconds)
	return Cut{
		Workload: rigid.Workload{
			Name:               fmt.Sprintf("%s %s", t.Source, name),
			Procs:              t.Procs,
			Jobs:               t.Jobs[first:],
			MeasureFromSeconds: from,
			MeasureToSeconds:   to,
			UnixStartSeconds:   t.Header.UnixStartTime,
			Machine:            t.Machine,
			Requests:           t.requestsFrom(first),
		},
		WarmUpJobs:   lo - first,
		MeasuredJobs: hi - lo,
		CoolDownJobs: len(t.Jobs) - hi,
		NoRequest:    t.NoRequest[first:],
	}
}

// Whole returns the whole log, every job measured.
func (t *Trace) Whole() (Cut, error) {
	if len(t.Jobs) == 0 {
		return Cut{}, fmt.Errorf("%s: no job to simulate", t.Source)
	}
	return t.JobRange(0, len(t.Jobs))
}

// Dates cuts the jobs submitted in [from, to) (UTC), with the month's
// warm-up and cool-down.
func (t *Trace) Dates(from, to time.Time) (Cut, error) {
	if t.Header.UnixStartTime < 0 {
		return Cut{}, fmt.Errorf("%s: window %s..%s: %w", t.Source, from.Format(time.DateOnly), to.Format(time.DateOnly), errNoHeaderStart)
	}
	a, _ := t.Header.LogSeconds(from)
	b, _ := t.Header.LogSeconds(to)
	lo, hi := lowerBound(t.Jobs, a), lowerBound(t.Jobs, b)
	if lo == hi {
		return Cut{}, fmt.Errorf("%s: window %s..%s has no job: want dates within the trace (%s)", t.Source, from.Format(time.RFC3339), to.Format(time.RFC3339), t.span())
	}
	return t.cut(fmt.Sprintf("window %s..%s", from.Format(time.RFC3339), to.Format(time.RFC3339)), lo, hi, a, b), nil
}

// JobRange cuts the jobs of indices [from, to) of Jobs (sorted by submit
// time, on the cluster: as learned-scheduler papers sample sequences),
// with the month's warm-up and cool-down.
func (t *Trace) JobRange(from, to int) (Cut, error) {
	if from < 0 || to > len(t.Jobs) || from >= to {
		return Cut{}, fmt.Errorf("%s: window of jobs [%d, %d): want 0 <= from < to <= %d (%s)", t.Source, from, to, len(t.Jobs), t.span())
	}
	// The seconds window covers the measured jobs; the simulator measures
	// them by index, as jobs tied at the ends may belong either side.
	c := t.cut(fmt.Sprintf("jobs %d..%d", from, to), from, to, t.Jobs[from].SubmitSeconds, t.Jobs[to-1].SubmitSeconds+1)
	c.Workload.MeasureFromJob, c.Workload.MeasureToJob = c.WarmUpJobs, c.WarmUpJobs+c.MeasuredJobs
	return c, nil
}

// lowerBound returns the index of the first job submitted at or after
// seconds.
func lowerBound(jobs []rigid.Job, seconds int64) int {
	i, _ := slices.BinarySearchFunc(jobs, seconds, func(j rigid.Job, s int64) int {
		return cmp.Compare(j.SubmitSeconds, s)
	})
	return i
}

// CheckRequestedTimes returns an error when variant R is asked of a log
// in which no job has a requested time: every estimate would silently be
// the run time.
func (t *Trace) CheckRequestedTimes() error {
	if len(t.Jobs) > 0 && t.Report.RequestFromRun == len(t.Jobs) {
		return fmt.Errorf("%s: no job has a requested time (field 9 is -1 or 0 on every line): variant R needs them; use variant T", t.Source)
	}
	return nil
}

// ForCluster returns the trace replayed on a cluster of procs processors:
// the jobs wider than it are dropped and counted in ProcsAboveCluster, the
// others are shared with t (do not modify them).
func (t *Trace) ForCluster(procs int) (*Trace, error) {
	if procs <= 0 {
		return nil, fmt.Errorf("%s: cluster processors %d: want at least 1", t.Source, procs)
	}
	out := *t
	out.Procs = procs
	out.Jobs = make([]rigid.Job, 0, len(t.Jobs))
	out.Lines = make([]int, 0, len(t.Lines))
	out.NoRequest = make([]bool, 0, len(t.NoRequest))
	out.MemoryKB, out.Partitions = make([]int64, 0, len(t.Jobs)), make([]int64, 0, len(t.Jobs))
	out.Report.ProcsAboveClusterLines = slices.Clone(t.Report.ProcsAboveClusterLines)
	for i, j := range t.Jobs {
		if j.Procs > procs {
			out.Report.ProcsAboveCluster++
			if len(out.Report.ProcsAboveClusterLines) < swf.IssuesKeptPerReason {
				out.Report.ProcsAboveClusterLines = append(out.Report.ProcsAboveClusterLines, t.Lines[i])
			}
			continue
		}
		out.Jobs = append(out.Jobs, j)
		out.Lines = append(out.Lines, t.Lines[i])
		out.NoRequest = append(out.NoRequest, t.NoRequest[i])
		out.MemoryKB, out.Partitions = append(out.MemoryKB, t.MemoryKB[i]), append(out.Partitions, t.Partitions[i])
	}
	return &out, nil
}
