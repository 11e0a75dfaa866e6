// Package gym is the learning environment of the rigid model (issue 33):
// episodes of rigid jobs (windows of a trace, Lublin-Feitelson instances)
// stepped one decision at a time through engine/backfill's Stepper, the
// observation of the waiting jobs an agent sees, its reward, and the
// framed binary protocol that serves many environments to the Python
// side (docs/gym.md). The observation code is the one a trained agent
// sees both in training and when it is judged in a manifest.
package gym

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	genrigid "github.com/sweep-sched/sweep/gen/rigid"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Config is the setup of a server's environments, sent once as JSON
// (docs/gym.md lists the fields and their defaults).
type Config struct {
	// Workload is an SWF file (gzipped or not) whose header gives the
	// machine, or "lublin1999" for Lublin-Feitelson instances.
	Workload string `json:"workload"`
	// Jobs is the number of jobs of an episode.
	Jobs int `json:"jobs"`
	// WarmUpJobs start before the episode's jobs, picked by Order
	// without a decision: a warmed machine (0: an empty one).
	WarmUpJobs int `json:"warmup"`
	// Backfill is "none" or "easy".
	Backfill string `json:"backfill"`
	// Order is EASY's order behind the committed head and the warm-up's.
	Order string `json:"order"`
	// Preset is "sweep" (the default) or "rlscheduler" (RLScheduler's
	// HPCEnv: its job set, observation, normalisation and reward).
	Preset string `json:"preset"`
	// Queue is K, the waiting jobs the observation shows.
	Queue int `json:"queue"`
	// Reward is "bsld" (minus the mean bounded slowdown, the default),
	// "wait" (minus the mean wait in hours) or "utilisation".
	Reward string `json:"reward"`
	// PerStep spreads the reward over the steps: each step gets the
	// share of the jobs it started (bsld and wait).
	PerStep bool `json:"per_step"`
	// Estimates is the variant the scheduler sees: "R" (requested time,
	// the default), "T" (actual run time) or "predicted".
	Estimates string `json:"estimates"`
	// Kill is "request" (the default) or "never".
	Kill string `json:"kill"`
	// Procs and Load are a Lublin instance's machine and offered load
	// (0: the model's own arrivals).
	Procs int     `json:"procs"`
	Load  float64 `json:"load"`
	// Envs is the number of environments one step steps.
	Envs int `json:"num_envs"`
	// MaxEstimateSeconds normalises the sweep preset's estimate feature;
	// 0 takes the source's longest request. The server's Setup answers
	// the value used, for an evaluation to see what training saw.
	MaxEstimateSeconds int64 `json:"max_estimate_seconds"`
	// AutoReset resets an environment whose episode ended in the same
	// step (Gymnasium's same-step autoreset); always on with several
	// environments.
	AutoReset bool `json:"autoreset"`
}

// Presets.
const (
	PresetSweep       = "sweep"
	PresetRLScheduler = "rlscheduler"
	// LublinWorkload names Lublin-Feitelson instances, as a manifest's
	// generator does.
	LublinWorkload = genrigid.LublinName
)

// ReadConfig reads the setup line of a session.
func ReadConfig(r io.Reader) (*Config, error) {
	var c Config
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, fmt.Errorf("reading the gym setup (one JSON object, docs/gym.md): %w", err)
	}
	return &c, nil
}

// settings are a Config resolved.
type settings struct {
	policy  backfill.Policy
	variant rigid.Variant
	reward  reward
}

// resolve fills the defaults and checks every field.
func (c *Config) resolve() (settings, error) {
	var s settings
	if c.Workload == "" {
		return s, fmt.Errorf("gym setup: workload: want an SWF file or %s", LublinWorkload)
	}
	if c.Preset == "" {
		c.Preset = PresetSweep
	}
	if c.Preset != PresetSweep && c.Preset != PresetRLScheduler {
		return s, fmt.Errorf("gym setup: preset %q: want %s or %s", c.Preset, PresetSweep, PresetRLScheduler)
	}
	c.fillDefaults()
	if err := c.checkCounts(); err != nil {
		return s, err
	}
	s, err := c.parseNames()
	if err != nil {
		return s, fmt.Errorf("gym setup: %w", err)
	}
	return s, c.checkSource(s)
}

// fillDefaults sets the defaults of the fields left out.
func (c *Config) fillDefaults() {
	rl := c.Preset == PresetRLScheduler
	if c.Jobs == 0 {
		c.Jobs = 256
	}
	if c.Envs == 0 {
		c.Envs = 1
	}
	if c.Queue == 0 {
		c.Queue = 64
		if rl {
			c.Queue = rlMaxQueue
		}
	}
	defaults := map[*string]string{&c.Backfill: "none", &c.Order: "fcfs", &c.Reward: "bsld", &c.Estimates: "R", &c.Kill: "request"}
	if rl {
		defaults[&c.Kill] = "never" // HPCEnv runs the logged run time
	}
	for p, v := range defaults {
		if *p == "" {
			*p = v
		}
	}
	if c.Workload == LublinWorkload && c.Procs == 0 {
		c.Procs = 256
	}
}

func (c *Config) checkCounts() error {
	switch {
	case c.Jobs < 1:
		return fmt.Errorf("gym setup: jobs %d: want at least 1", c.Jobs)
	case c.WarmUpJobs < 0:
		return fmt.Errorf("gym setup: warmup %d: want 0 or more jobs", c.WarmUpJobs)
	case c.Queue < 1:
		return fmt.Errorf("gym setup: queue %d: want at least 1 visible job", c.Queue)
	case c.Preset == PresetRLScheduler && c.Queue != rlMaxQueue:
		return fmt.Errorf("gym setup: queue %d: the rlscheduler preset shows %d jobs", c.Queue, rlMaxQueue)
	case c.MaxEstimateSeconds < 0:
		return fmt.Errorf("gym setup: max_estimate_seconds %d: want 0 (the source's longest request) or more", c.MaxEstimateSeconds)
	case c.Envs < 1 || c.Envs > 4096:
		return fmt.Errorf("gym setup: num_envs %d: want 1 to 4096", c.Envs)
	case c.Procs < 0:
		return fmt.Errorf("gym setup: procs %d: want at least 1", c.Procs)
	}
	return nil
}

// parseNames reads the fields that name a rule.
func (c *Config) parseNames() (settings, error) {
	var s settings
	switch c.Backfill {
	case "none":
		s.policy.Allocation = backfill.AllocStrict
	case "easy":
		s.policy.Allocation = backfill.AllocEASY
	default:
		return s, fmt.Errorf("backfill %q: want none or easy", c.Backfill)
	}
	var err error
	if s.policy.Order, err = backfill.ParseOrder(c.Order); err != nil {
		return s, err
	}
	if s.variant, err = rigid.ParseVariant(c.Estimates); err != nil {
		return s, err
	}
	if s.policy.Kill, err = rigid.ParseKill(c.Kill); err != nil {
		return s, err
	}
	s.reward, err = parseReward(c.Reward)
	return s, err
}

// checkSource checks the preset and the machine against the workload.
func (c *Config) checkSource(s settings) error {
	rl := c.Preset == PresetRLScheduler
	if rl && (s.reward != rewardBSLD || c.PerStep || s.variant != rigid.EstimateRequested || s.policy.Kill != rigid.KillNever) {
		return fmt.Errorf("gym setup: the rlscheduler preset is HPCEnv's: reward bsld at the end, estimates R, kill never")
	}
	if c.Workload != LublinWorkload {
		if c.Procs != 0 || c.Load != 0 {
			return fmt.Errorf("gym setup: procs and load are a %s instance's; an SWF file's header gives the machine", LublinWorkload)
		}
		return nil
	}
	if rl {
		return fmt.Errorf("gym setup: the rlscheduler preset reads an SWF file the way HPCEnv does; not %s", LublinWorkload)
	}
	return nil
}

// Features names the observation's columns, per preset.
func (c *Config) Features() []string {
	if c.Preset == PresetRLScheduler {
		return strings.Split("wait,request,procs,memory,user,group,executable,fits", ",")
	}
	return strings.Split(sweepFeatures, ",")
}
