package batsim

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/sweep-sched/sweep/engine/placement"
	"github.com/sweep-sched/sweep/internal/pqueue"
	"github.com/sweep-sched/sweep/policy/child"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// DefaultWorkloadName is the Batsim workload id that prefixes job ids
// ("w0!12").
const DefaultWorkloadName = "w0"

// endGrace is how long a scheduler may take to exit by itself after
// acknowledging SIMULATION_ENDS before it is killed.
const endGrace = 5 * time.Second

// Options configures one simulation.
type Options struct {
	// Command is the scheduler's command line, e.g. [pybatsim,
	// easyBackfill]. An argument containing SocketPlaceholder gets the
	// endpoint; otherwise "--socket-endpoint=ENDPOINT" is appended.
	Command []string
	// Dir is the scheduler's working directory. "" means the
	// simulation's private directory, removed afterwards, so that files
	// a scheduler writes (pybatsim's out_events.csv) do not litter; give
	// absolute paths in Command then.
	Dir string
	// Env is the scheduler's environment; nil inherits sweep's.
	Env []string
	// DecisionTimeout bounds each exchange (0: child's default, 30 s). A
	// fault limit: schedules never depend on it.
	DecisionTimeout time.Duration
	// StderrLines is how many of the scheduler's last stderr lines a
	// fault quotes (0: child's default).
	StderrLines int
	// WalltimeIsRunTime tells the scheduler each job's run time as its
	// walltime (variant T) instead of its requested time (variant R,
	// Batsim's meaning, the default). Jobs end at their run time either
	// way.
	WalltimeIsRunTime bool
	// TCP connects over loopback TCP instead of an ipc socket.
	TCP bool
	// WorkloadName is the workload id in job ids; "" means
	// DefaultWorkloadName.
	WorkloadName string
	// EpochSeconds is the protocol time of the workload's second 0; 0
	// means DefaultEpochSeconds. Schedules and messages use the
	// workload's time.
	EpochSeconds int64
}

// DefaultEpochSeconds shifts the protocol's clock so that no decision is
// asked at time 0: pybatsim's high-level API (schedFcfs,
// schedEasySjfBackfill) asserts a positive time when it allocates, and
// trace fixtures and first months submit jobs at second 0. The shift
// changes no schedule: every rule works on differences of times.
const DefaultEpochSeconds = 1

// Schedule is the outcome of one simulation.
type Schedule struct {
	// StartNanos and EndNanos index the workload's jobs; -1 for a job
	// never started (rejected, or submitted after the measured window
	// once every job that had to start did).
	StartNanos, EndNanos []int64
	// Resources are each job's resource ids, ascending; nil if never
	// started.
	Resources [][]int
	Rejected  []bool
	// Log is the runs and rejections in decision order, as validated.
	Log placement.Schedule
	// MustDecide is how many leading jobs had to be run or rejected.
	MustDecide int
	Counts     Counts
}

// Counts counts a simulation's traffic and decisions.
type Counts struct {
	Requests     int64 // messages sent, each answered by one reply
	Events       int64 // events in them
	Executed     int64 // EXECUTE_JOB decisions
	Rejected     int64 // REJECT_JOB decisions
	CallsMeLater int64 // CALL_ME_LATER decisions
	Notifies     int64 // NOTIFY decisions
}

// Jobs returns the validator's view of w's jobs.
func Jobs(w *rigid.Workload) []placement.Job {
	out := make([]placement.Job, len(w.Jobs))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		out[i] = placement.Job{SubmitNanos: j.SubmitSeconds * placement.NanosPerSecond, RunNanos: j.RunSeconds * placement.NanosPerSecond, Resources: j.Procs}
	}
	return out
}

// Simulate schedules workload w with the scheduler of opts on w.Procs
// resources numbered from 0. With a measured window it stops, like
// engine/backfill, once every job submitted before the window's end has
// been started or rejected; otherwise once every job has completed or
// been rejected. The schedule is validated (engine/placement) before it
// is returned. A scheduler's failure comes back as a *child.Fault.
func Simulate(ctx context.Context, w *rigid.Workload, opts Options) (*Schedule, error) {
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("simulating with a Batsim scheduler: %w", err)
	}
	if len(opts.Command) == 0 {
		return nil, errors.New("simulating with a Batsim scheduler: empty command")
	}
	s := newSim(w, opts)
	ep, err := newEndpoint(opts.TCP)
	if err != nil {
		return nil, err
	}
	defer ep.remove()
	s.ep = ep
	dir := opts.Dir
	if dir == "" {
		dir = ep.dir
	}
	s.proc, err = child.Start(ctx, commandWith(opts.Command, ep.address), child.Options{
		Dir: dir, Env: opts.Env, DecisionTimeout: opts.DecisionTimeout, StderrLines: opts.StderrLines})
	if err != nil {
		return nil, fmt.Errorf("simulating %s: %w", w.Name, err)
	}
	defer s.proc.Close()
	s.sock = zmq4.NewReq(context.Background(),
		zmq4.WithDialerRetry(10*time.Millisecond), zmq4.WithDialerMaxRetries(-1),
		zmq4.WithLogger(log.New(io.Discard, "", 0)))
	defer s.sock.Close()
	if err := s.run(ctx); err != nil {
		return nil, fmt.Errorf("simulating %s: %w", w.Name, err)
	}
	s.sock.Close()
	// pybatsim exits with status 1 when jobs were left unscheduled, as
	// after an early end; the schedule is complete either way.
	_ = s.proc.Wait(endGrace)
	if err := placement.Check(s.procs, Jobs(w), s.sched.MustDecide, &s.sched.Log); err != nil {
		return nil, fmt.Errorf("simulating %s: the scheduler's schedule is invalid: %w", w.Name, err)
	}
	return &s.sched, nil
}

type jobState uint8

const (
	notSubmitted jobState = iota
	waiting
	running
	completed
	rejected
)

// sim is the state of one simulation.
type sim struct {
	w        *rigid.Workload
	jobs     []rigid.Job
	procs    int
	opts     Options
	workload string
	prefix   string // workload + "!"

	ep   *endpoint
	proc *child.Process
	sock zmq4.Socket

	epochNanos int64 // protocol time of the workload's 0
	nowNanos   int64 // simulation time
	readyNanos int64 // the scheduler's last "now": no message before it
	connected  bool

	state                 []jobState
	nextSubmit            int
	holder                []int32 // job running on each resource, -1 if free
	ends                  pqueue.Queue[endEvent]
	calls                 pqueue.Queue[int64]
	decidedMust, finished int

	decision child.Decision // the exchange under way, for faults
	out      []byte         // events of the next message, comma-separated
	nOut     int
	what     []string // the first events of the next message, for faults
	sched    Schedule
	runIdx   []int // index in sched.Log.Runs per job
}

func newSim(w *rigid.Workload, opts Options) *sim {
	n := len(w.Jobs)
	s := &sim{w: w, jobs: w.Jobs, procs: w.Procs, opts: opts, workload: cmp.Or(opts.WorkloadName, DefaultWorkloadName),
		state: make([]jobState, n), holder: make([]int32, w.Procs), runIdx: make([]int, n)}
	s.prefix = s.workload + "!"
	s.epochNanos = cmp.Or(opts.EpochSeconds, DefaultEpochSeconds) * placement.NanosPerSecond
	s.ends, s.calls = pqueue.New(endsFirst), pqueue.New(earlier)
	for i := range s.holder {
		s.holder[i] = -1
	}
	s.sched = Schedule{StartNanos: make([]int64, n), EndNanos: make([]int64, n), Resources: make([][]int, n), Rejected: make([]bool, n), MustDecide: n}
	for i := range n {
		s.sched.StartNanos[i], s.sched.EndNanos[i] = -1, -1
	}
	if w.MeasureFromSeconds != 0 || w.MeasureToSeconds != 0 {
		s.sched.MustDecide, _ = slices.BinarySearchFunc(w.Jobs, w.MeasureToSeconds, func(j rigid.Job, t int64) int {
			return cmp.Compare(j.SubmitSeconds, t)
		})
	}
	return s
}

// variant is what the scheduler is told of run times.
func (s *sim) variant() rigid.Variant {
	if s.opts.WalltimeIsRunTime {
		return rigid.EstimateExact
	}
	return rigid.EstimateRequested
}

func (s *sim) windowed() bool { return s.w.MeasureFromSeconds != 0 || s.w.MeasureToSeconds != 0 }

func (s *sim) run(ctx context.Context) error {
	s.event(0, "SIMULATION_BEGINS", s.beginData())
	for {
		r, err := s.exchange(ctx)
		if err != nil {
			return err
		}
		if err := s.apply(r); err != nil {
			return err
		}
		if s.done() {
			break
		}
		t, ok := s.nextInstant()
		if !ok {
			return s.fault(s.stuck())
		}
		s.advance(t)
		s.nowNanos = t
	}
	// Alone: events still untold would let the scheduler decide after
	// the end.
	s.out, s.nOut, s.what = s.out[:0], 0, s.what[:0]
	s.nowNanos = max(s.nowNanos, s.readyNanos)
	s.event(s.nowNanos, "SIMULATION_ENDS", []byte("{}"))
	// The schedule is complete: how the scheduler answers or exits now
	// changes nothing (pybatsim exits with status 1 after an early end),
	// unless the run is cancelled.
	if _, err := s.exchange(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}

// done reports whether the simulation may end: with a measured window,
// once every job that had to be decided was; otherwise once every job
// completed or was rejected and every event was told. A pending
// CALL_ME_LATER does not hold the end (a periodic scheduler would never
// let it come).
func (s *sim) done() bool {
	if s.windowed() {
		return s.decidedMust == s.sched.MustDecide
	}
	return s.finished == len(s.jobs) && s.nOut == 0
}

// nextInstant returns the time of the next message: the next event, but
// never before the scheduler is ready; right when ready if events
// happened while it was busy.
func (s *sim) nextInstant() (int64, bool) {
	t, ok := int64(0), false
	consider := func(c int64) {
		if !ok || c < t {
			t, ok = c, true
		}
	}
	if s.nOut > 0 {
		consider(s.readyNanos)
	}
	if s.nextSubmit < len(s.jobs) {
		consider(s.jobs[s.nextSubmit].SubmitSeconds * placement.NanosPerSecond)
	}
	if s.ends.Len() > 0 {
		consider(s.ends.Peek().nanos)
	}
	if s.calls.Len() > 0 {
		consider(s.calls.Peek())
	}
	return max(t, s.readyNanos), ok
}

// stuck explains a simulation that cannot go on.
func (s *sim) stuck() error {
	waitingJobs := 0
	first := -1
	for j, st := range s.state {
		if st == waiting {
			if first < 0 {
				first = j
			}
			waitingJobs++
		}
	}
	return fmt.Errorf("%d jobs wait (the first %s, %d resources) with nothing left to happen: the scheduler never started or rejected them",
		waitingJobs, s.jobID(first), s.jobs[max(first, 0)].Procs)
}

// advance moves the world to t, queueing for the next message every
// event at or before t in time order; at one instant completions come
// first, then submissions, then requested calls.
func (s *sim) advance(t int64) {
	for {
		kind, at := 0, int64(0)
		pick := func(k int, c int64) {
			if c <= t && (kind == 0 || c < at) {
				kind, at = k, c
			}
		}
		if s.ends.Len() > 0 {
			pick(1, s.ends.Peek().nanos)
		}
		if s.nextSubmit < len(s.jobs) {
			pick(2, s.jobs[s.nextSubmit].SubmitSeconds*placement.NanosPerSecond)
		}
		if s.calls.Len() > 0 {
			pick(3, s.calls.Peek())
		}
		switch kind {
		case 0:
			return
		case 1:
			s.complete(s.ends.Pop().job, at)
		case 2:
			s.submit(s.nextSubmit, at)
			s.nextSubmit++
			if s.nextSubmit == len(s.jobs) {
				s.event(at, "NOTIFY", []byte(`{"type":"no_more_static_job_to_submit"}`))
			}
		case 3:
			s.calls.Pop()
			s.event(at, "REQUESTED_CALL", []byte("{}"))
		}
	}
}

func (s *sim) complete(j int, at int64) {
	s.state[j] = completed
	s.finished++
	for _, id := range s.sched.Resources[j] {
		s.holder[id] = -1
	}
	job := &s.jobs[j]
	// The model cuts a run at the requested time (the SWF clamp): a job
	// that used all of it reached its walltime.
	state := "COMPLETED_SUCCESSFULLY"
	if job.RunSeconds >= job.RequestedSeconds {
		state = "COMPLETED_WALLTIME_REACHED"
	}
	b := append([]byte(`{"job_id":"`), s.jobID(j)...)
	b = append(b, `","job_state":"`...)
	b = append(b, state...)
	b = append(b, `","return_code":0,"alloc":"`...)
	b = appendIntervals(b, s.sched.Resources[j])
	b = append(b, `"}`...)
	s.event(at, "JOB_COMPLETED", b)
}

func (s *sim) submit(j int, at int64) {
	s.state[j] = waiting
	job := &s.jobs[j]
	id := s.jobID(j)
	b := append([]byte(`{"job_id":"`), id...)
	b = append(b, `","job":{"id":"`...)
	b = append(b, id...)
	b = append(b, `","subtime":`...)
	b = appendSeconds(b, at+s.epochNanos)
	b = append(b, `,"walltime":`...)
	b = appendSeconds(b, job.EstimateSeconds(s.variant())*placement.NanosPerSecond)
	b = append(b, `,"res":`...)
	b = strconv.AppendInt(b, int64(job.Procs), 10)
	b = append(b, `,"profile":"`...)
	b = append(b, profileName(job.RunSeconds)...)
	b = append(b, `"}}`...)
	s.event(at, "JOB_SUBMITTED", b)
}

// profileName names the delay profile of a run time: one profile per
// distinct run time.
func profileName(runSeconds int64) string { return "delay" + strconv.FormatInt(runSeconds, 10) }

// beginData is SIMULATION_BEGINS' data with every field pybatsim 3.2.1
// reads (batsim/batsim.py, batsim/sched/scheduler.py).
func (s *sim) beginData() []byte {
	type resource struct {
		ID             int               `json:"id"`
		Name           string            `json:"name"`
		State          string            `json:"state"`
		Properties     map[string]string `json:"properties"`
		ZoneProperties map[string]string `json:"zone_properties"`
	}
	type profile struct {
		Type  string  `json:"type"`
		Delay float64 `json:"delay"`
	}
	resources := make([]resource, s.procs)
	for i := range resources {
		resources[i] = resource{ID: i, Name: "r" + strconv.Itoa(i), State: "idle", Properties: map[string]string{}, ZoneProperties: map[string]string{}}
	}
	profiles := map[string]profile{}
	for i := range s.jobs {
		r := s.jobs[i].RunSeconds
		profiles[profileName(r)] = profile{Type: "delay", Delay: float64(r)}
	}
	data := map[string]any{
		"nb_resources":          s.procs,
		"nb_compute_resources":  s.procs,
		"nb_storage_resources":  0,
		"allow_compute_sharing": false,
		"allow_storage_sharing": false,
		"config": map[string]any{
			"redis-enabled":                    false,
			"redis-hostname":                   "127.0.0.1",
			"redis-port":                       6379,
			"redis-prefix":                     "default",
			"profiles-forwarded-on-submission": false,
			"dynamic-jobs-enabled":             false,
			"dynamic-jobs-acknowledged":        false,
			"profile-reuse-enabled":            false,
			"forward-unknown-events":           false,
			"sched-config":                     "",
		},
		"compute_resources": resources,
		"storage_resources": []resource{},
		"workloads":         map[string]string{s.workload: s.w.Name},
		"profiles":          map[string]map[string]profile{s.workload: profiles},
	}
	b, err := json.Marshal(data) // maps marshal with sorted keys: deterministic
	if err != nil {
		panic(fmt.Sprintf("batsim: SIMULATION_BEGINS does not marshal: %v", err))
	}
	return b
}

func (s *sim) jobID(j int) string { return s.prefix + strconv.Itoa(j) }

// jobIndex reads a job id of this workload.
func (s *sim) jobIndex(id string) (int, error) {
	rest, ok := strings.CutPrefix(id, s.prefix)
	j, err := strconv.Atoi(rest)
	if !ok || err != nil || j < 0 || j >= len(s.jobs) || s.jobID(j) != id {
		return 0, fmt.Errorf("unknown job %q (jobs are %s0 to %s)", id, s.prefix, s.jobID(len(s.jobs)-1))
	}
	return j, nil
}

// event queues one event for the next message.
func (s *sim) event(at int64, kind string, data []byte) {
	if s.nOut > 0 {
		s.out = append(s.out, ',')
	}
	s.out = append(s.out, `{"timestamp":`...)
	s.out = appendSeconds(s.out, at+s.epochNanos)
	s.out = append(s.out, `,"type":"`...)
	s.out = append(s.out, kind...)
	s.out = append(s.out, `","data":`...)
	s.out = append(s.out, data...)
	s.out = append(s.out, '}')
	s.nOut++
	if len(s.what) < 3 {
		w := kind
		if i := strings.Index(string(data), s.prefix); kind != "NOTIFY" && i >= 0 {
			id, _, _ := strings.Cut(string(data[i:]), `"`)
			w += " " + id
		}
		s.what = append(s.what, w)
	}
}

// exchange sends the queued events at s.nowNanos and reads the reply.
func (s *sim) exchange(ctx context.Context) (reply, error) {
	msg := appendSeconds([]byte(`{"now":`), s.nowNanos+s.epochNanos)
	msg = append(msg, `,"events":[`...)
	msg = append(msg, s.out...)
	msg = append(msg, "]}"...)
	what := strings.Join(s.what, ", ")
	if s.nOut > len(s.what) {
		what += fmt.Sprintf(" and %d more", s.nOut-len(s.what))
	}
	s.sched.Counts.Requests++
	s.sched.Counts.Events += int64(s.nOut)
	s.decision = child.Decision{Number: s.sched.Counts.Requests, What: what, TimeSeconds: float64(s.nowNanos) / placement.NanosPerSecond}
	s.out, s.nOut, s.what = s.out[:0], 0, s.what[:0]
	var r reply
	err := s.proc.Exchange(ctx, s.decision, func(ctx context.Context) error {
		stop := context.AfterFunc(ctx, func() { s.sock.Close() })
		defer stop()
		if !s.connected {
			if err := s.sock.Dial(s.ep.address); err != nil {
				return fmt.Errorf("connecting to the scheduler at %s: %w", s.ep.address, err)
			}
			s.connected = true
			s.ep.unlinkSocket()
		}
		if err := s.sock.Send(zmq4.NewMsg(msg)); err != nil {
			return fmt.Errorf("sending the request: %w", err)
		}
		m, err := s.sock.Recv()
		if err != nil {
			return fmt.Errorf("receiving the reply: %w", err)
		}
		r, err = decodeReply(m.Bytes())
		r.shift(-s.epochNanos)
		return err
	})
	return r, err
}

// apply carries out a reply's decisions at their timestamps (never
// before the request's now, which they cannot change), as Batsim does.
func (s *sim) apply(r reply) error {
	if r.nowNanos < s.nowNanos {
		return s.fault(fmt.Errorf("reply's now %s s is before the request's %s s: decisions cannot change the past", formatSeconds(r.nowNanos), formatSeconds(s.nowNanos)))
	}
	cursor := s.nowNanos
	for i := range r.decisions {
		d := &r.decisions[i]
		at := max(d.atNanos, cursor)
		if at > cursor {
			// What happens while the scheduler works is told in the next
			// message; a resource freed by then is free for this decision.
			s.advance(at)
			cursor = at
		}
		if err := s.decide(d, at); err != nil {
			return s.fault(fmt.Errorf("%s at %s s: %w", d, formatSeconds(at), err))
		}
	}
	s.readyNanos = r.nowNanos
	return nil
}

func (s *sim) decide(d *decision, at int64) error {
	switch d.kind {
	case executeJob:
		s.sched.Counts.Executed++
		j, err := s.jobIndex(d.jobID)
		if err != nil {
			return err
		}
		if err := s.mustWait(j); err != nil {
			return err
		}
		if len(d.alloc) != s.jobs[j].Procs {
			return fmt.Errorf("%d resources for a job of %d", len(d.alloc), s.jobs[j].Procs)
		}
		for _, id := range d.alloc {
			if id >= s.procs {
				return fmt.Errorf("resource %d does not exist (the platform has 0-%d)", id, s.procs-1)
			}
			if h := s.holder[id]; h >= 0 {
				return fmt.Errorf("resource %d is busy with job %s (running since %s s, until %s s)", id, s.jobID(int(h)), formatSeconds(s.sched.StartNanos[h]), formatSeconds(s.sched.EndNanos[h]))
			}
		}
		end := at + s.jobs[j].RunSeconds*placement.NanosPerSecond
		for _, id := range d.alloc {
			s.holder[id] = int32(j)
		}
		s.state[j] = running
		s.sched.StartNanos[j], s.sched.EndNanos[j], s.sched.Resources[j] = at, end, d.alloc
		s.sched.Log.Runs = append(s.sched.Log.Runs, placement.Run{Job: j, StartNanos: at, EndNanos: end, Resources: d.alloc})
		s.ends.Push(endEvent{nanos: end, job: j})
		s.decided(j)
	case rejectJob:
		s.sched.Counts.Rejected++
		j, err := s.jobIndex(d.jobID)
		if err != nil {
			return err
		}
		if err := s.mustWait(j); err != nil {
			return err
		}
		s.state[j] = rejected
		s.finished++
		s.sched.Rejected[j] = true
		s.sched.Log.Rejected = append(s.sched.Log.Rejected, j)
		s.decided(j)
	case callMeLater:
		s.sched.Counts.CallsMeLater++
		// Batsim refuses a call at or before the current time.
		if d.callNanos <= at {
			return errors.New("asks to be called at or before the time it is applied")
		}
		s.calls.Push(d.callNanos)
	case notify:
		s.sched.Counts.Notifies++
	}
	return nil
}

func (s *sim) decided(j int) {
	if j < s.sched.MustDecide {
		s.decidedMust++
	}
}

// mustWait checks that job j waits, submitted and not yet decided.
func (s *sim) mustWait(j int) error {
	switch s.state[j] {
	case notSubmitted:
		return fmt.Errorf("job %s is not submitted yet (it is at %d s)", s.jobID(j), s.jobs[j].SubmitSeconds)
	case running:
		return fmt.Errorf("job %s is already running (since %s s)", s.jobID(j), formatSeconds(s.sched.StartNanos[j]))
	case completed:
		return fmt.Errorf("job %s already completed (at %s s)", s.jobID(j), formatSeconds(s.sched.EndNanos[j]))
	case rejected:
		return fmt.Errorf("job %s was rejected already", s.jobID(j))
	}
	return nil
}

// fault makes err the scheduler's fault at the current decision.
func (s *sim) fault(err error) error { return s.proc.Fault(s.decision, err) }

type endEvent struct {
	nanos int64
	job   int
}

// endsFirst orders completions by time, then job index, so that equal
// instants are told in a deterministic order.
func endsFirst(a, b endEvent) bool {
	return a.nanos < b.nanos || a.nanos == b.nanos && a.job < b.job
}

func earlier(a, b int64) bool { return a < b }

// Probe runs the scheduler of opts once on one job of one second on procs
// resources, from SIMULATION_BEGINS to SIMULATION_ENDS: before any cell
// runs, a command that cannot start, connect or schedule is found once,
// not in every cell. The error is the simulation's (a *child.Fault with
// the scheduler's stderr tail when the scheduler failed).
func Probe(ctx context.Context, opts Options, procs int) error {
	w := &rigid.Workload{Name: "probe", Procs: procs,
		Jobs: []rigid.Job{{Number: 1, Procs: 1, RunSeconds: 1, RequestedSeconds: 1}}}
	_, err := Simulate(ctx, w, opts)
	return err
}
