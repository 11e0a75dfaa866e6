package gym

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// The rlscheduler preset is RLScheduler's HPCEnv (DIR-LAB/deep-batch-
// scheduler at cd433e3d, HPCSimPickJobs.py and job.py), read, not copied:
// its job set, its 128 x 8 observation and its reward, so that its agents
// and numbers compare (docs/gym.md).
const (
	rlMaxQueue = 128 // MAX_QUEUE_SIZE
	rlFeatures = 8   // JOB_FEATURES
	// rlAlmostOne and rlAlmostZero are the bounds HPCEnv clips to.
	rlAlmostOne  = 1 - 1e-5
	rlAlmostZero = 1e-5
)

// rlJob is what HPCEnv's observation shows of a job beyond the rigid job:
// SWF fields 10, 12, 13 and 14 as logged (-1 unknown).
type rlJob struct {
	memory, user, group, executable int64
	requestSeconds                  int64 // field 9 as HPCEnv keeps it (-1 only when run and request are both missing)
}

// rlTrace is an SWF log read as HPCEnv's job.py reads it.
type rlTrace struct {
	name  string
	procs int
	jobs  []rigid.Job
	extra []rlJob
	// The maxima over every line of the log, as job.py takes them
	// (before it drops or repairs a job).
	maxRunSeconds, maxMemory, maxUser, maxGroup, maxExecutable int64
}

// readRLSchedulerTrace reads an SWF log (gzipped or not) as job.py does:
// a job with run time 0 is dropped, one with a negative run time runs 10
// s, its processors are the larger of allocated and requested, a missing
// request (-1) is its run time; the machine is MaxProcs (MaxNodes without
// it). Jobs are in the log's order, which the simulator requires to be
// submit order. engine/backfill's rlscheduler_test.go reads the log the
// same way to pin HPCEnv's schedules.
func readRLSchedulerTrace(path string) (*rlTrace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gym setup: workload: %w", err)
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gym setup: workload %s: %w", path, err)
		}
		r = gz
	}
	t := &rlTrace{name: path}
	var maxNodes int
	lines := bufio.NewScanner(r)
	lines.Buffer(nil, 1<<20)
	for line := 1; lines.Scan(); line++ {
		text := strings.TrimSpace(lines.Text())
		if text == "" {
			continue
		}
		if text[0] == ';' {
			if err := rlHeader(text, &t.procs, &maxNodes); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, err)
			}
			continue
		}
		if err := t.add(strings.Fields(text)); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if t.procs == 0 {
		t.procs = maxNodes
	}
	if t.procs <= 0 {
		return nil, fmt.Errorf("%s: no MaxProcs or MaxNodes in the header: the rlscheduler preset takes the machine from it", path)
	}
	return t, nil
}

func rlHeader(text string, procs, nodes *int) error {
	for key, p := range map[string]*int{"; MaxProcs:": procs, "; MaxNodes:": nodes} {
		if v, ok := strings.CutPrefix(text, key); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("%s %q: want a number", strings.TrimPrefix(key, "; "), v)
			}
			*p = n
		}
	}
	return nil
}

// add reads one job line.
func (t *rlTrace) add(fields []string) error {
	if len(fields) < 14 {
		return fmt.Errorf("%d fields: want 18 (the first 14 at least)", len(fields))
	}
	var v [10]int64
	for i, field := range []int{1, 2, 4, 5, 8, 9, 10, 12, 13, 14} {
		var err error
		if v[i], err = strconv.ParseInt(fields[field-1], 10, 64); err != nil {
			return fmt.Errorf("field %d %q: want an integer", field, fields[field-1])
		}
	}
	number, submit, run, allocated, requestedProcs, request := v[0], v[1], v[2], v[3], v[4], v[5]
	x := rlJob{memory: v[6], user: v[7], group: v[8], executable: v[9]}
	t.maxRunSeconds = max(t.maxRunSeconds, run)
	t.maxMemory, t.maxUser = max(t.maxMemory, x.memory), max(t.maxUser, x.user)
	t.maxGroup, t.maxExecutable = max(t.maxGroup, x.group), max(t.maxExecutable, x.executable)
	if request == -1 {
		request = run
	}
	x.requestSeconds = request
	if run < 0 {
		run = 10
	}
	if run == 0 {
		return nil
	}
	// A job with neither run time nor request keeps a request of -1 in
	// HPCEnv (its observation shows it); a rigid job asks at least 1 s.
	request = max(request, 1)
	j := rigid.Job{Number: number, User: x.user, SubmitSeconds: submit, Procs: int(max(allocated, requestedProcs)),
		RunSeconds: min(run, request), RequestedSeconds: request}
	if run > request {
		j.LoggedRunSeconds = run
	}
	t.jobs = append(t.jobs, j)
	t.extra = append(t.extra, x)
	return nil
}

// rlObserver is HPCEnv.build_observation: the waiting jobs in submit
// order when at most 128 wait; else 128 chosen by its interleaving of
// shortest-request and fewest-processor orders. Its queue keeps the order
// HPCEnv's in-place stable sorts leave, which decides among jobs of equal
// submit times.
type rlObserver struct {
	t       *rlTrace
	stepper *backfill.Stepper
	extra   []rlJob // the episode's, by job index
	queue   []int
	seen    int // jobs below this index have joined queue
	byKey   []int
	picked  []int
	// pickedIn[j] == pickings says job j is in picked (interleave).
	pickedIn []uint32
	pickings uint32
	// live are the jobs started, in start order, that had not ended
	// at the last decision: the only ones freeProcs can need. The
	// Stepper's StartOrder up to liveFrom is in it.
	live     []int
	liveFrom int
	// ended and started are freeProcs' scratch.
	ended, started []int
	// sorted says the queue is in submit order.
	sorted bool
	// Per job of the episode: the keys of HPCEnv's sorts (keys; F1 and
	// F2 made by rankings, only for an episode that needs them).
	f1, f2                 []float64
	request, procs, submit []int64
	// fixed holds every job's fixed features, rlFixed a job.
	fixed []float32
	// empty is the observation of no job (rlEmptySlots).
	empty []float32
	// ranks are the episode's jobs' places in HPCEnv's orders (rank),
	// made at the episode's first interleave; sortKeys and sortJobs are
	// byRank's scratch.
	ranksMade rlRanks
	ranked    bool
	sortKeys  []uint64
	sortJobs  []int
}

func (o *rlObserver) features() int { return rlFeatures }

// reset starts an episode.
func (o *rlObserver) reset(ep episode, st *backfill.Stepper, _ rigid.Variant) {
	o.extra, o.queue, o.seen, o.stepper, o.sorted = ep.extra, o.queue[:0], 0, st, true
	o.live, o.liveFrom, o.ranked = o.live[:0], 0, false
	o.keys(ep.w)
}

// freeProcs is the free processors HPCEnv sees at this decision. It
// releases the jobs ending at an instant lazily, one at a time in the
// order they started, and only when the job it must start does not fit
// (its skip_for_resources); the jobs started at this instant so far
// needed some of them, the others are still running for it.
func (o *rlObserver) freeProcs(st *backfill.State) int {
	sched := o.stepper.Schedule()
	now := st.NowSeconds
	// A job that ended before now neither started nor ended at now, and
	// time only goes on: it leaves live for good.
	order := o.stepper.StartOrder()
	o.live = append(o.live, order[o.liveFrom:]...)
	o.liveFrom = len(order)
	o.live = slices.DeleteFunc(o.live, func(j int) bool { return sched.EndSeconds[j] < now })
	cur := st.FreeProcs
	ended, started := o.ended[:0], o.started[:0]
	defer func() { o.ended, o.started = ended, started }()
	for _, j := range o.live {
		switch {
		case sched.StartSeconds[j] == now:
			started = append(started, j)
			cur += int(o.procs[j])
		case sched.EndSeconds[j] == now:
			ended = append(ended, j)
			cur -= int(o.procs[j])
		}
	}
	released := 0
	for _, j := range started {
		n := st.Job(j).Procs
		for cur < n && released < len(ended) {
			cur += st.Job(ended[released]).Procs
			released++
		}
		cur -= n
	}
	return cur
}

func (o *rlObserver) observe(st *backfill.State, obs []float32, mask []uint8, visible []int) {
	o.sync(st)
	free := int64(o.freeProcs(st))
	jobs := o.queue
	if len(jobs) > rlMaxQueue {
		jobs = o.interleave()
	}
	now := st.NowSeconds
	for i, j := range jobs {
		// Job j's features as HPCEnv computes them, in float64 then
		// stored as float32: the wait, the fixed ones made at reset, and
		// whether it fits.
		row := obs[i*rlFeatures : i*rlFeatures+rlFeatures : i*rlFeatures+rlFeatures]
		row[0] = float32(min(float64(now-o.submit[j])/maxWaitSeconds, rlAlmostOne))
		fixed := o.fixed[j*rlFixed : j*rlFixed+rlFixed : j*rlFixed+rlFixed]
		row[1], row[2], row[3], row[4], row[5], row[6] = fixed[0], fixed[1], fixed[2], fixed[3], fixed[4], fixed[5]
		row[rlFeatures-1] = rlAlmostZero
		if o.procs[j] <= free {
			row[rlFeatures-1] = rlAlmostOne
		}
		mask[i], visible[i] = 1, j
	}
	n := len(jobs)
	copy(obs[n*rlFeatures:], o.empty[n*rlFeatures:])
	clear(mask[n:])
	for i := n; i < rlMaxQueue; i++ {
		visible[i] = -1
	}
}

// rlFixed is the number of a job's features that do not change while it
// waits: its request, processors, memory, user, group and executable.
const rlFixed = rlFeatures - 2

// fixedFeatures writes job j's fixed features (rlFixed) as HPCEnv computes
// them.
func (o *rlObserver) fixedFeatures(w *rigid.Workload, j int, out []float32) {
	x := &o.extra[j]
	t := o.t
	out[0] = float32(min(float64(x.requestSeconds)/float64(t.maxRunSeconds), rlAlmostOne))
	out[1] = float32(min(float64(w.Jobs[j].Procs)/float64(t.procs), rlAlmostOne))
	for c, v := range [4][2]int64{{x.memory, t.maxMemory}, {x.user, t.maxUser}, {x.group, t.maxGroup}, {x.executable, t.maxExecutable}} {
		out[2+c] = 1
		if v[0] != -1 {
			out[2+c] = float32(min(float64(v[0])/float64(v[1]), rlAlmostOne))
		}
	}
}

// rlEmptySlots is HPCEnv's observation with no job in it: an empty slot
// is [0, 1, 1, 1, 1, 1, 1, 0].
func rlEmptySlots() []float32 {
	obs := make([]float32, rlMaxQueue*rlFeatures)
	for i := range rlMaxQueue {
		for c := 1; c < rlFeatures-1; c++ {
			obs[i*rlFeatures+c] = 1
		}
	}
	return obs
}

// sync brings the queue up to the simulation's: started jobs leave,
// arrivals join at the end, then the stable sort by submit time that
// begins build_observation (a no-op unless jobs joined or interleave
// reordered the queue).
func (o *rlObserver) sync(st *backfill.State) {
	start := o.stepper.Schedule().StartSeconds
	o.queue = slices.DeleteFunc(o.queue, func(j int) bool { return start[j] >= 0 })
	// Waiting is in submit order: the jobs from o.seen on are in its
	// suffix of submit times from job o.seen-1's on.
	from := len(st.Waiting)
	for from > 0 && (o.seen == 0 || o.submit[st.Waiting[from-1]] >= o.submit[o.seen-1]) {
		from--
	}
	for _, j := range st.Waiting[from:] {
		if j >= o.seen {
			o.queue = append(o.queue, j)
			o.seen = j + 1
			o.sorted = o.sorted && o.submit[o.queue[max(len(o.queue)-2, 0)]] <= o.submit[j]
		}
	}
	if !o.sorted {
		o.byRank(o.queue, o.rankings().submit)
		o.sorted = true
	}
}

// interleave is build_observation's choice among more than 128 waiting
// jobs: the queue stably sorted by F1, F2, then (request, submit), whose
// first 128 are kept, then (processors, submit), whose first 128 too; the
// visible jobs alternate between the two lists (its third, "random",
// list is the first again), skipping jobs already shown.
func (o *rlObserver) interleave() []int {
	q := o.queue
	r := o.rankings()
	o.byKey = append(o.byKey[:0], q...)
	o.byRank(o.byKey, r.request)
	o.byRank(q, r.procs)
	small := q[:rlMaxQueue]
	o.picked = o.picked[:0]
	o.pickings++
	if o.pickings == 0 { // wrapped: no stamp may survive
		clear(o.pickedIn)
		o.pickings = 1
	}
	for i := 0; len(o.picked) < rlMaxQueue; i++ {
		for _, j := range [3]int{o.byKey[i], small[i], o.byKey[i]} {
			if len(o.picked) < rlMaxQueue && o.pickedIn[j] != o.pickings {
				o.pickedIn[j] = o.pickings
				o.picked = append(o.picked, j)
			}
		}
	}
	o.sorted = false // the queue is in the last order, which decides among equal submits next time
	return o.picked
}

// rlRanks places every job of an episode in HPCEnv's orders, equal jobs
// at equal ranks. Its sorts are stable, and stable sorts one after the
// other are one sort by their keys from the last to the first, then the
// order before: so interleave's F1, F2, (request, submit) sorts are one
// by (request, submit, F2, F1), and the (processors, submit) sort after
// them one by (processors, submit, request, F2, F1); the queue's order
// before decides among equal ranks (byRank).
type rlRanks struct {
	submit, request, procs []uint32
}

func (o *rlObserver) rankings() *rlRanks {
	r := &o.ranksMade
	if o.ranked {
		return r
	}
	n := len(o.submit)
	o.f1, o.f2 = slices.Grow(o.f1[:0], n)[:n], slices.Grow(o.f2[:0], n)[:n]
	for i := range n {
		req := float64(o.request[i])
		if req <= 0 {
			req = 0.1
		}
		p := float64(o.procs[i])
		o.f1[i] = math.Log10(req)*p + 870*math.Log10(positive(o.submit[i]))
		o.f2[i] = math.Sqrt(float64(o.request[i]))*p + 25600*math.Log10(float64(o.submit[i]))
	}
	byF := func(a, b int) int {
		// Python's sort with <: NaN never occurs (the keys are finite, or
		// -Inf for a submit time of 0 under F2), where cmp.Compare would differ.
		return cmp.Or(cmp.Compare(o.f2[a], o.f2[b]), cmp.Compare(o.f1[a], o.f1[b]))
	}
	grow := func(ranks []uint32) []uint32 { return slices.Grow(ranks[:0], n)[:n] }
	r.submit, r.request, r.procs = grow(r.submit), grow(r.request), grow(r.procs)
	jobs := slices.Grow(o.sortJobs[:0], n)[:n]
	rank(r.submit, jobs, func(a, b int) int { return cmp.Compare(o.submit[a], o.submit[b]) })
	rank(r.request, jobs, func(a, b int) int {
		return cmp.Or(cmp.Compare(o.request[a], o.request[b]), cmp.Compare(o.submit[a], o.submit[b]), byF(a, b))
	})
	rank(r.procs, jobs, func(a, b int) int {
		return cmp.Or(cmp.Compare(o.procs[a], o.procs[b]), cmp.Compare(o.submit[a], o.submit[b]),
			cmp.Compare(o.request[a], o.request[b]), byF(a, b))
	})
	o.sortJobs, o.ranked = jobs, true
	o.pickedIn = slices.Grow(o.pickedIn[:0], n)[:n]
	clear(o.pickedIn)
	o.pickings = 0
	return r
}

// rank writes the rank of each of jobs 0 to len(ranks)-1 under compare,
// equal jobs sharing one; jobs is its scratch, as long.
func rank(ranks []uint32, jobs []int, compare func(a, b int) int) {
	for i := range jobs {
		jobs[i] = i
	}
	slices.SortFunc(jobs, compare)
	for i, j := range jobs {
		ranks[j] = 0
		if i > 0 {
			ranks[j] = ranks[jobs[i-1]]
			if compare(jobs[i-1], j) != 0 {
				ranks[j]++
			}
		}
	}
}

// byRank sorts q stably by rank: by (rank, place in q), one key per job.
func (o *rlObserver) byRank(q []int, rank []uint32) {
	keys := o.sortKeys[:0]
	for i, j := range q {
		keys = append(keys, uint64(rank[j])<<32|uint64(i))
	}
	slices.Sort(keys)
	o.sortJobs = append(o.sortJobs[:0], q...)
	for i, k := range keys {
		q[i] = o.sortJobs[uint32(k)]
	}
	o.sortKeys = keys
}

// keys computes, per job of the episode, what HPCEnv sorts by (its
// request, field 9 as kept, processors and submit; rankings adds its
// f1_score and f2_score) and the fixed features.
func (o *rlObserver) keys(w *rigid.Workload) {
	n := len(w.Jobs)
	o.request, o.procs, o.submit = slices.Grow(o.request[:0], n)[:n], slices.Grow(o.procs[:0], n)[:n], slices.Grow(o.submit[:0], n)[:n]
	o.fixed = slices.Grow(o.fixed[:0], n*rlFixed)[:n*rlFixed]
	if o.empty == nil {
		o.empty = rlEmptySlots()
	}
	for i := range w.Jobs {
		j, x := &w.Jobs[i], &o.extra[i]
		o.request[i], o.procs[i], o.submit[i] = x.requestSeconds, int64(j.Procs), j.SubmitSeconds
		o.fixedFeatures(w, i, o.fixed[i*rlFixed:i*rlFixed+rlFixed])
	}
}

func positive(seconds int64) float64 {
	if seconds > 0 {
		return float64(seconds)
	}
	return 0.1
}
