package grid

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/sweep-sched/sweep/workload/dag"
)

// Task kinds (architectures).
const (
	Kind1 = "Kind1"
	Kind2 = "Kind2"
)

// A shape is a DAG pattern of DESIGN.md section 3.
type shape int

const (
	shapeIndependent   shape = iota // one task per job
	shapeProbabilistic              // Erdos-Renyi DAG on a fixed topological order
	shapeFan                        // fan-out, width chains of length tasks, fan-in
	shapeFanChain                   // fan blocks in series
)

// fanTasks is the number of tasks of one fan block.
func fanTasks(width, length int) int { return width*length + 2 }

// InstanceSeed returns the two PCG seeds of one workload instance: the
// first 16 bytes (two big-endian uint64) of
// SHA-256("sweep/gen/v1" 0x00 root(8 bytes BE) canonicalParams 0x00 instance(8 bytes BE)).
// canonicalParams is Params.Canonical. Hashing keeps nearby roots and
// instances uncorrelated and makes the seed independent of anything else
// (load, policy, how many workloads are generated at once).
func InstanceSeed(root uint64, canonicalParams string, instance int) [2]uint64 {
	h := sha256.New()
	h.Write([]byte("sweep/gen/v1\x00"))
	h.Write(binary.BigEndian.AppendUint64(nil, root))
	h.Write([]byte(canonicalParams))
	h.Write([]byte{0})
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(instance)))
	sum := h.Sum(nil)
	return [2]uint64{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])}
}

// Generate builds workload instance number instance (>= 0) of the
// parameters, from the root seed, without arrivals (see SetArrivals).
//
// The draws, in order: all job sizes; then per job its shape (task count,
// edges, or block widths and lengths), its split into task execution
// times, each task's cores and kind, and the job's share.
func Generate(p Params, rootSeed uint64, instance int) (*dag.Workload, error) {
	if instance < 0 {
		return nil, fmt.Errorf("generate %s: instance %d: want >= 0", p.preset, instance)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	seed := InstanceSeed(rootSeed, p.Canonical(), instance)
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	c := &p.cfg
	sizes, err := c.jobSizes(rng)
	if err != nil {
		return nil, fmt.Errorf("generate %s instance %d: %w", p.preset, instance, err)
	}
	b := newBuilder(c)
	w := &dag.Workload{Jobs: make([]dag.Job, len(sizes))}
	for k, size := range sizes {
		if err := b.job(rng, &w.Jobs[k], k, size); err != nil {
			return nil, fmt.Errorf("generate %s instance %d: %w", p.preset, instance, err)
		}
	}
	return w, nil
}

func (c *config) jobSizes(rng *rand.Rand) ([]int64, error) {
	switch c.jobDist {
	case DistUniform:
		return Uniform(rng, c.jobs, c.total)
	case DistUUniFast:
		return UUniFast(rng, c.jobs, c.total)
	case DistUUniFastDiscard:
		return UUniFastDiscard(rng, c.jobs, c.total, c.jobBounds, c.jobTries)
	case DistLogUniform:
		return LogUniform(rng, c.jobs, c.total, c.logDecades)
	}
	return nil, fmt.Errorf("job-dist %q: want one of %v", c.jobDist, distNames)
}

// A builder turns job sizes into jobs, reusing its scratch space across
// jobs.
type builder struct {
	cfg     *config
	taskIDs []string // "T1", "T2", ...
	shares  []string // "u1", "u2", ...
	weights []float64
	parts   []int64
	blocks  []fanBlock
}

// A fanBlock is one fan-out/fan-in block of a job: its first task's
// position in the job, its shape and its size.
type fanBlock struct {
	first, width, length int
	ticks                int64
}

func newBuilder(c *config) *builder {
	b := &builder{cfg: c}
	b.taskIDs = make([]string, c.maxTasksPerJob())
	for i := range b.taskIDs {
		b.taskIDs[i] = "T" + strconv.Itoa(i+1)
	}
	b.shares = make([]string, c.shares)
	for i := range b.shares {
		b.shares[i] = "u" + strconv.Itoa(i+1)
	}
	return b
}

func (r intRange) draw(rng *rand.Rand) int { return r.Min + rng.IntN(r.Max-r.Min+1) }

// job fills j, the job at position k, of size ticks.
func (b *builder) job(rng *rand.Rand, j *dag.Job, k int, size int64) error {
	c := b.cfg
	j.ID = "J" + strconv.Itoa(k+1)
	var err error
	switch c.shape {
	case shapeIndependent:
		j.Tasks = []dag.Task{{ID: b.taskIDs[0], ExecTicks: size}}
	case shapeProbabilistic:
		err = b.probabilistic(rng, j, size)
	case shapeFan:
		b.blocks = append(b.blocks[:0], fanBlock{width: c.width.draw(rng), length: c.length.draw(rng)})
		err = b.fans(rng, j, size)
	case shapeFanChain:
		b.blocks = b.blocks[:0]
		for range c.blocks.draw(rng) {
			b.blocks = append(b.blocks, fanBlock{width: c.width.draw(rng), length: c.length.draw(rng)})
		}
		err = b.fans(rng, j, size)
	}
	if err != nil {
		return fmt.Errorf("job %s: %w", j.ID, err)
	}
	for i := range j.Tasks {
		t := &j.Tasks[i]
		t.Cores = c.cores[rng.IntN(len(c.cores))]
		t.Kind = Kind1
		if rng.Float64() < c.kind2Prob {
			t.Kind = Kind2
		}
	}
	j.Share = b.shares[rng.IntN(len(b.shares))]
	return nil
}

func tooSmall(size int64, tasks int) error {
	return fmt.Errorf("size %d ticks cannot give its %d tasks >= 1 tick each; use job-dist=%s with job-min >= %d", size, tasks, DistUUniFastDiscard, tasks)
}

// probabilistic draws a task count, makes each earlier task a predecessor
// with probability dep-prob (task i before task j in a fixed order, so
// the graph is acyclic) and splits size by uniform weights.
func (b *builder) probabilistic(rng *rand.Rand, j *dag.Job, size int64) error {
	c := b.cfg
	n := c.tasks.draw(rng)
	if size < int64(n) {
		return tooSmall(size, n)
	}
	j.Tasks = make([]dag.Task, n)
	after := make([]string, 0, n*(n-1)/2)
	for i := range j.Tasks {
		start := len(after)
		for p := 0; p < i; p++ {
			if rng.Float64() < c.depProb {
				after = append(after, b.taskIDs[p])
			}
		}
		j.Tasks[i].ID = b.taskIDs[i]
		if len(after) > start {
			j.Tasks[i].After = after[start:len(after):len(after)]
		}
	}
	b.weights = b.weights[:0]
	for range n {
		b.weights = append(b.weights, 1-rng.Float64())
	}
	b.split(j.Tasks, size)
	return nil
}

// split sets the tasks' execution times: one tick each plus shares of the
// rest of size in proportion to b.weights.
func (b *builder) split(tasks []dag.Task, size int64) {
	b.parts = b.parts[:0]
	for range tasks {
		b.parts = append(b.parts, 1)
	}
	apportion(b.parts, b.weights, size)
	for i := range tasks {
		tasks[i].ExecTicks = b.parts[i]
	}
}

// fans lays out b.blocks in series: block k's fan-out task follows block
// k-1's fan-in task. The job's size is split among the blocks by uniform
// weights, each block reserving one tick per task, and each block's size
// among its tasks by near-equal weights (see nearEqualWeight).
//
// Within a block the tasks are: the fan-out task, then the chains level by
// level (level l of chain c at 1 + l*width + c), then the fan-in task.
func (b *builder) fans(rng *rand.Rand, j *dag.Job, size int64) error {
	n, edges := 0, len(b.blocks)-1
	for i := range b.blocks {
		bl := &b.blocks[i]
		bl.first = n
		n += fanTasks(bl.width, bl.length)
		edges += bl.width * (bl.length + 1)
	}
	if size < int64(n) {
		return tooSmall(size, n)
	}
	b.blocks[0].ticks = size
	if len(b.blocks) > 1 {
		b.weights, b.parts = b.weights[:0], b.parts[:0]
		for _, bl := range b.blocks {
			b.weights = append(b.weights, 1-rng.Float64())
			b.parts = append(b.parts, int64(fanTasks(bl.width, bl.length)))
		}
		apportion(b.parts, b.weights, size)
		for i := range b.blocks {
			b.blocks[i].ticks = b.parts[i]
		}
	}
	j.Tasks = make([]dag.Task, n)
	after := make([]string, 0, edges)
	ids := b.taskIDs
	// link appends predecessors and returns them as a capacity-limited slice.
	link := func(preds ...string) []string {
		start := len(after)
		after = append(after, preds...)
		return after[start:len(after):len(after)]
	}
	for k, bl := range b.blocks {
		tasks := j.Tasks[bl.first : bl.first+fanTasks(bl.width, bl.length)]
		for i := range tasks {
			tasks[i].ID = ids[bl.first+i]
		}
		if k > 0 {
			tasks[0].After = link(ids[bl.first-1])
		}
		for l := range bl.length {
			for c := range bl.width {
				pos := 1 + l*bl.width + c
				if l == 0 {
					tasks[pos].After = link(ids[bl.first])
				} else {
					tasks[pos].After = link(ids[bl.first+pos-bl.width])
				}
			}
		}
		fanIn := len(tasks) - 1
		start := len(after)
		for c := range bl.width {
			after = append(after, ids[bl.first+fanIn-bl.width+c])
		}
		tasks[fanIn].After = after[start:len(after):len(after)]

		b.weights = b.weights[:0]
		for range tasks {
			b.weights = append(b.weights, nearEqualWeight(rng))
		}
		b.split(tasks, bl.ticks)
	}
	return nil
}

// nearEqualWeight draws a weight from the normal distribution N(1, 1/3)
// truncated to (0, 2) by redrawing: near-equal parts (the authors used a
// normal with standard deviation a third of the mean) that stay positive,
// with the truncation symmetric so the mean stays 1. A redraw is needed
// with probability 0.27%.
func nearEqualWeight(rng *rand.Rand) float64 {
	for {
		w := 1 + rng.NormFloat64()/3
		if w > 0 && w < 2 {
			return w
		}
	}
}
