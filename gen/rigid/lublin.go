package rigid

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// Class is a generated job's class. A rigid Job has no class: Lublin
// returns the classes beside the workload, for analyses and SWF output
// (the authors' code writes it as the queue number, with these values).
type Class uint8

// The two classes, numbered as in m_lublin99.c (ACTIVE 0, BATCH 1).
const (
	Interactive Class = 0
	Batch       Class = 1
)

// String returns "interactive" or "batch".
func (c Class) String() string {
	if c == Batch {
		return "batch"
	}
	return "interactive"
}

// maxJobs bounds the job count of one instance.
const maxJobs = 100_000_000

// Lublin generates jobs jobs of the Lublin-Feitelson model for a machine of
// procs processors, from the random stream seeded by seed (the caller
// derives it from the cell, e.g. grid.InstanceSeed(root,
// p.Canonical(), instance)). It returns the workload (jobs numbered from 1
// in submit order, every job of user 1 since the model has no users,
// RequestedSeconds equal to RunSeconds until estimates are applied, e.g. by
// Tsafrir) and each job's class.
//
// Per job, as in the authors' code: the class whose next arrival comes
// first (interactive on a tie), its next arrival drawn, then the job's size
// and its run time. Second 0 is hour p.StartHour of day 0
// (midnight by default); the first job arrives one inter-arrival time
// after it.
func Lublin(p Params, procs, jobs int, seed [2]uint64) (*workload.Workload, []Class, error) {
	if jobs < 0 || jobs > maxJobs {
		return nil, nil, fmt.Errorf("%s: jobs %d: want 0..%d", LublinName, jobs, maxJobs)
	}
	rp, err := p.resolve(procs)
	if err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	streams, sets, err := classStreams(&rp, rng)
	if err != nil {
		return nil, nil, err
	}
	w := &workload.Workload{
		Name:             fmt.Sprintf("%s (%d jobs, %d processors)", LublinName, jobs, procs),
		Procs:            procs,
		Jobs:             make([]workload.Job, jobs),
		UnixStartSeconds: int64(rp.StartHour) * 3600,
	}
	kinds := make([]Class, jobs)
	for i := range w.Jobs {
		class := Interactive
		if streams[Batch] != nil && streams[Batch].seconds < streams[Interactive].seconds {
			class = Batch
		}
		s, c := streams[class], sets[class]
		submit := s.seconds
		if err := s.advance(rng); err != nil {
			return nil, nil, fmt.Errorf("%s: job %d: %w", LublinName, i+1, err)
		}
		size := jobSize(rng, c, procs)
		run, err := runSeconds(rng, c, size, rp.MaxLogRunSeconds)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: job %d: %w", LublinName, i+1, err)
		}
		w.Jobs[i] = workload.Job{Number: int64(i + 1), User: 1, SubmitSeconds: submit, Procs: size,
			RunSeconds: run, RequestedSeconds: run}
		kinds[i] = class
	}
	return w, kinds, nil
}

// classStreams returns the arrival stream and the parameters of each
// class; without job types only the interactive stream runs, with the
// typeless set. Each stream's first arrival is drawn here (batch first).
func classStreams(p *Params, rng *rand.Rand) ([2]*arrivals, [2]*ClassParams, error) {
	var streams [2]*arrivals
	sets := [2]*ClassParams{Interactive: &p.Interactive, Batch: &p.Batch}
	order := []Class{Batch, Interactive}
	if !p.JobTypes {
		sets = [2]*ClassParams{Interactive: &p.Whole}
		order = []Class{Interactive}
	}
	for _, c := range order {
		s, err := newArrivals(*sets[c], p)
		if err != nil {
			return streams, sets, fmt.Errorf("%s: %s jobs: %w", LublinName, c, err)
		}
		if err := s.advance(rng); err != nil {
			return streams, sets, fmt.Errorf("%s: %s jobs: %w", LublinName, c, err)
		}
		streams[c] = s
	}
	return streams, sets, nil
}

// jobSize draws a job's processors: 1 with probability SerialProb; else
// round(2^x), x two-stage uniform, rounded to an integer first (a power of
// two) when the same uniform u falls in (SerialProb, SerialProb+Pow2Prob].
// A size above the machine (a power of two rounded up past a machine that
// is not one) becomes the largest that fits, a power of two for a
// power-of-two job.
func jobSize(rng *rand.Rand, c *ClassParams, procs int) int {
	u := rng.Float64()
	if u <= c.SerialProb {
		return 1
	}
	x := twoStageUniform(rng, c.ULow, c.UMed, c.UHi, c.UProb)
	pow2 := u <= c.SerialProb+c.Pow2Prob
	if pow2 {
		x = math.Floor(x + 0.5)
	}
	size := int(math.Floor(math.Exp2(x) + 0.5))
	if size > procs {
		size = procs
		if pow2 {
			size = 1 << (bits.Len(uint(procs)) - 1)
		}
	}
	return size
}

// firstGammaProb is the hyper-gamma's mixing probability for a job of size
// processors: pa*size + pb, clamped to [0, 1].
func firstGammaProb(c *ClassParams, size int) float64 {
	return min(1, max(0, c.PA*float64(size)+c.PB))
}

// runSeconds draws a job's run time: e^h seconds (whole seconds, at least
// 1), h hyper-gamma, redrawn (choice of gamma included) while above
// maxLog.
func runSeconds(rng *rand.Rand, c *ClassParams, size int, maxLog float64) (int64, error) {
	p := firstGammaProb(c, size)
	for range maxRedraws {
		shape, scale := c.A2, c.B2
		if rng.Float64() <= p {
			shape, scale = c.A1, c.B1
		}
		if h := gammaRand(rng, shape, scale); h <= maxLog {
			return max(1, int64(math.Exp(h))), nil
		}
	}
	return 0, fmt.Errorf("run time: hyper-gamma drew nothing at most %v in %d tries", maxLog, maxRedraws)
}
