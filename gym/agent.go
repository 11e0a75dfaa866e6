package gym

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/policy/child"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// An Actor takes the decisions of an evaluation: given the frame the
// environment would send (N = 1), the slot to start (an empty one waits).
type Actor interface {
	Act(ctx context.Context, d child.Decision, frame []byte) (int, error)
}

// Evaluate simulates workload w under estimates v with an agent taking
// every decision, as it was trained: the Stepper and this package's
// observer under Config c (its preset, queue, backfill, order, kill and
// max_estimate_seconds; the workload's jobs all its own, none warm-up).
// So a trained agent judged in a manifest sees what it saw in training.
// The schedule is checked by the caller (engine/verify) like any other.
func Evaluate(ctx context.Context, w *rigid.Workload, v rigid.Variant, c Config, actor Actor) (*backfill.Schedule, Measures, error) {
	if c.Preset != "" && c.Preset != PresetSweep {
		return nil, Measures{}, fmt.Errorf("agent: preset %q: a manifest's workload has no HPCEnv job set; an agent is evaluated under the %s preset", c.Preset, PresetSweep)
	}
	c.Workload, c.Envs, c.WarmUpJobs, c.Estimates = w.Name, 1, 0, v.String()
	set, err := c.resolve()
	if err != nil {
		return nil, Measures{}, fmt.Errorf("agent: %w", err)
	}
	src := fixedSource{w: w}
	for i := range w.Jobs {
		src.maxEstimate = max(src.maxEstimate, w.Jobs[i].RequestedSeconds)
	}
	e := newEnv(&c, set, src)
	if err := e.Reset(ctx, 0, 0); err != nil {
		return nil, Measures{}, fmt.Errorf("agent: %w", err)
	}
	fr := newFrame(1, c.Queue, e.Features())
	for n := int64(1); !e.done; n++ {
		e.Observe(fr.obs, fr.mask)
		e.Info(fr.info)
		d := child.Decision{Number: n, What: "observation", TimeSeconds: float64(e.st.State().NowSeconds)}
		action, err := actor.Act(ctx, d, fr.buf)
		if err != nil {
			return nil, Measures{}, err
		}
		if _, _, err := e.Step(ctx, action); err != nil {
			return nil, Measures{}, fmt.Errorf("agent: %s: %w", d, err)
		}
	}
	var m Measures
	m.BSLD, m.WaitSeconds, m.Utilisation = e.measures()
	return e.st.Schedule(), m, nil
}

// fixedSource is the one workload of an evaluation.
type fixedSource struct {
	w           *rigid.Workload
	maxEstimate int64
}

func (f fixedSource) episode(*rand.Rand, int) (episode, error) { return episode{w: f.w}, nil }
func (f fixedSource) maxEstimateSeconds() int64                { return f.maxEstimate }

// CommandAgent is an agent process (sweep_policy.gym.serve_agent): it
// reads the setup line (the server's, N = 1) and then a frame per
// decision on its standard input, and answers each with an i32 action on
// its standard output (docs/gym.md).
type CommandAgent struct {
	p   *child.Process
	out *bufio.Reader
	ans [4]byte
}

// StartAgent starts argv as the agent of an evaluation under Config c.
func StartAgent(ctx context.Context, argv []string, dir string, timeout time.Duration, c Config) (*CommandAgent, error) {
	p, err := child.Start(ctx, argv, child.Options{Dir: dir, DecisionTimeout: timeout, Pipes: true})
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", strings.Join(argv, " "), err)
	}
	c.Envs = 1
	if c.Queue == 0 {
		c.Queue = 64
	}
	setup := Setup{Envs: 1, Queue: c.Queue, Features: c.Features(), Info: InfoFields, Jobs: c.Jobs,
		FrameBytes: len(newFrame(1, c.Queue, 8).buf), MaxEstimateSeconds: c.MaxEstimateSeconds}
	b, _ := json.Marshal(setup)
	a := &CommandAgent{p: p, out: bufio.NewReader(p.Stdout())}
	err = p.Exchange(ctx, child.Decision{What: "setup"}, func(context.Context) error {
		_, err := p.Stdin().Write(append(b, '\n'))
		return err
	})
	if err != nil {
		p.Close()
		return nil, err
	}
	return a, nil
}

// Act sends the frame and reads the action.
func (a *CommandAgent) Act(ctx context.Context, d child.Decision, frame []byte) (int, error) {
	err := a.p.Exchange(ctx, d, func(context.Context) error {
		if _, err := a.p.Stdin().Write(frame); err != nil {
			return err
		}
		_, err := io.ReadFull(a.out, a.ans[:])
		return err
	})
	return int(int32(binary.LittleEndian.Uint32(a.ans[:]))), err
}

// agentEndGrace is how long an agent may take to exit once its input
// closes before it is killed: a PyTorch agent's interpreter teardown took
// over 2 s at load 8.
const agentEndGrace = 10 * time.Second

// Close ends the agent: its input closes, it should exit. An agent still
// running after agentEndGrace is killed without failing the cell, as a
// pipe-protocol policy is (policy/pipe): every decision was made and the
// schedule is checked.
func (a *CommandAgent) Close() error {
	a.p.Stdin().Close()
	_ = a.p.Wait(agentEndGrace)
	return nil
}

// Measures are an episode's measures at its end (InfoFields' last three).
type Measures struct {
	BSLD        float64 `json:"bsld"`
	WaitSeconds float64 `json:"wait_seconds"`
	Utilisation float64 `json:"utilisation"`
}

// EvaluateWindow evaluates an agent on the episode the environment of
// Config c shows at reset with options {"first": first}: the same jobs,
// the same normalisation (the source's longest request unless c sets
// max_estimate_seconds), so the agent decides as in training.
func EvaluateWindow(ctx context.Context, c Config, first int, actor Actor) (*rigid.Workload, *backfill.Schedule, Measures, error) {
	c.Envs = 1
	set, err := c.resolve()
	if err != nil {
		return nil, nil, Measures{}, err
	}
	if c.Preset != PresetSweep || c.WarmUpJobs != 0 || c.Workload == LublinWorkload {
		return nil, nil, Measures{}, fmt.Errorf("agent: an evaluation window is a trace's, under the %s preset, on an empty machine", PresetSweep)
	}
	src, err := newSource(&c)
	if err != nil {
		return nil, nil, Measures{}, err
	}
	ep, err := src.episode(nil, first)
	if err != nil {
		return nil, nil, Measures{}, err
	}
	if c.MaxEstimateSeconds == 0 {
		c.MaxEstimateSeconds = src.maxEstimateSeconds()
	}
	sched, m, err := Evaluate(ctx, ep.w, set.variant, c, actor)
	return ep.w, sched, m, err
}
