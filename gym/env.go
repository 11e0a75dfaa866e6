package gym

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sweep-sched/sweep/engine/backfill"
)

// reward is what an episode's reward measures.
type reward uint8

const (
	rewardBSLD reward = iota
	rewardWait
	rewardUtilisation
)

func parseReward(name string) (reward, error) {
	for i, n := range []string{"bsld", "wait", "utilisation"} {
		if n == name {
			return reward(i), nil
		}
	}
	return 0, fmt.Errorf("reward %q: want bsld (minus the mean bounded slowdown), wait (minus the mean wait in hours) or utilisation", name)
}

// InfoFields names the measures an Env reports per step (Info), in order.
var InfoFields = []string{"first", "now_seconds", "started", "bsld", "wait_seconds", "utilisation"}

// Env is one environment: an episode of rigid jobs stepped one decision at
// a time.
type Env struct {
	cfg     *Config
	set     settings
	src     source
	obs     observer
	rng     *rand.Rand
	ep      episode
	st      *backfill.Stepper
	visible []int
	done    bool
	// startedReward is the part of the episode's reward the steps have
	// already paid (PerStep).
	startedReward float64
	sums          episodeSums
	tallied       int // jobs of the Stepper's StartOrder in sums
}

// ErrEpisodeEnded is a step after the episode's last decision.
var ErrEpisodeEnded = errors.New("the episode has ended: reset it")

// NewEnvs builds the environments of a Config, sharing its source.
func NewEnvs(c *Config) ([]*Env, error) {
	set, err := c.resolve()
	if err != nil {
		return nil, err
	}
	src, err := newSource(c)
	if err != nil {
		return nil, err
	}
	envs := make([]*Env, c.Envs)
	for i := range envs {
		envs[i] = newEnv(c, set, src)
	}
	return envs, nil
}

func newEnv(c *Config, set settings, src source) *Env {
	e := &Env{cfg: c, set: set, src: src, visible: make([]int, c.Queue), rng: rand.New(rand.NewPCG(0, 0)), done: true}
	if t, ok := src.(*traceSource); ok && t.rl != nil {
		e.obs = &rlObserver{t: t.rl}
		return e
	}
	if c.MaxEstimateSeconds == 0 {
		c.MaxEstimateSeconds = src.maxEstimateSeconds()
	}
	e.obs = &sweepObserver{maxEstimateSeconds: float64(c.MaxEstimateSeconds)}
	return e
}

// Features is the number of features per slot.
func (e *Env) Features() int { return e.obs.features() }

// Reset starts an episode: with seed >= 0 the environment's random stream
// is seeded first, else it goes on (an environment never seeded starts
// from seed 0's: the Python side seeds it, as Gymnasium does, from the
// operating system's entropy). first >= 0 pins the episode to the window
// starting at that job.
func (e *Env) Reset(ctx context.Context, seed int64, first int) error {
	if seed >= 0 {
		e.rng = rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	}
	ep, err := e.src.episode(e.rng, first)
	if err != nil {
		return err
	}
	st, err := backfill.NewStepper(ep.w, e.set.variant, e.set.policy, ep.warmUp)
	if err != nil {
		return err
	}
	e.ep, e.st, e.startedReward, e.sums, e.tallied = ep, st, 0, episodeSums{}, 0
	e.obs.reset(ep, st, e.set.variant)
	open, err := st.Next(ctx)
	if err != nil {
		return err
	}
	if !open {
		return fmt.Errorf("%s: the warm-up started every job of the episode: no decision to take", ep.w.Name)
	}
	e.done = false
	e.tally()
	return nil
}

// Observe writes the observation of the open decision point (the final
// state once the episode ended) into obs (K x F) and mask (K).
func (e *Env) Observe(obs []float32, mask []uint8) {
	e.obs.observe(e.st.State(), obs, mask, e.visible)
}

// Step picks the job in slot action of the last observation and runs to
// the next decision point. It returns the step's reward and whether the
// episode ended.
func (e *Env) Step(ctx context.Context, action int) (float64, bool, error) {
	if e.done {
		return 0, true, ErrEpisodeEnded
	}
	if action < 0 || action >= len(e.visible) {
		return 0, false, fmt.Errorf("action %d: want a slot, 0 to %d", action, len(e.visible)-1)
	}
	var err error
	if j := e.visible[action]; j >= 0 {
		err = e.st.Start(j)
	} else {
		// An empty slot, which the mask excludes: wait, as HPCEnv
		// skips when its agent picks one.
		err = e.st.Wait()
	}
	if err != nil {
		return 0, false, fmt.Errorf("action %d: %w", action, err)
	}
	open, err := e.st.Next(ctx)
	if err != nil {
		return 0, false, err
	}
	e.done = !open
	e.tally()
	switch {
	case e.done && !e.cfg.PerStep:
		return e.episodeReward(), true, nil
	case e.cfg.PerStep && e.set.reward != rewardUtilisation:
		r := e.episodeReward()
		step := r - e.startedReward
		e.startedReward = r
		return step, e.done, nil
	case e.cfg.PerStep && e.done:
		return e.episodeReward(), true, nil
	}
	return 0, e.done, nil
}

// episodeReward is the reward of the episode's jobs started so far: the
// whole episode's once it ended.
func (e *Env) episodeReward() float64 {
	bsld, wait, util := e.measures()
	switch e.set.reward {
	case rewardWait:
		return -wait / 3600
	case rewardUtilisation:
		return util
	}
	return -bsld
}

// tally adds the jobs started since the last tally to the episode's
// measures, in the order they started (the order RLScheduler sums its
// scores in, so that its reward comes out to the last bit).
func (e *Env) tally() {
	order := e.st.StartOrder()
	sched := e.st.Schedule()
	w := e.ep.w
	n := float64(len(w.Jobs) - e.ep.warmUp)
	m := &e.sums
	for ; e.tallied < len(order); e.tallied++ {
		j := order[e.tallied]
		if j < e.ep.warmUp {
			continue
		}
		run := e.st.RunSeconds(j)
		wait := sched.StartSeconds[j] - w.Jobs[j].SubmitSeconds
		m.bsld += max(1, float64(wait+run)/float64(max(run, 10))) / n
		m.waitSeconds += float64(wait) / n
		m.workProcSeconds += float64(run) * float64(w.Jobs[j].Procs)
		m.lastEndSeconds = max(m.lastEndSeconds, sched.EndSeconds[j])
	}
}

// episodeSums are the measures of the episode's jobs started so far (all
// of them once it ended), each job's share divided by the episode's job
// count: the mean bounded slowdown max(1, (wait + run) / max(run, 10 s))
// with the run time under the kill rule (RLScheduler's job_score), the
// mean wait; and their processor-seconds and last end, for the
// utilisation.
type episodeSums struct {
	bsld, waitSeconds, workProcSeconds float64
	lastEndSeconds                     int64
}

// measures returns the mean bounded slowdown and wait and the utilisation
// (processor-seconds over the machine's from the first submit to the last
// end) of the jobs tallied.
func (e *Env) measures() (bsld, waitSeconds, utilisation float64) {
	m := &e.sums
	firstSubmit := e.ep.w.Jobs[e.ep.warmUp].SubmitSeconds
	if m.lastEndSeconds > firstSubmit {
		utilisation = m.workProcSeconds / (float64(e.ep.w.Procs) * float64(m.lastEndSeconds-firstSubmit))
	}
	return m.bsld, m.waitSeconds, utilisation
}

// Info writes the InfoFields: the episode's first job, the time, the
// jobs started (the warm-up's included), and, once it ended, its measures (NaN before).
func (e *Env) Info(out []float64) {
	st := e.st.State()
	out[0], out[1], out[2] = float64(e.ep.first), float64(st.NowSeconds), float64(len(e.st.StartOrder()))
	out[3], out[4], out[5] = math.NaN(), math.NaN(), math.NaN()
	if e.done {
		out[3], out[4], out[5] = e.measures()
	}
}
