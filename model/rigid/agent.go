package rigid

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/engine/verify"
	"github.com/sweep-sched/sweep/gym"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// protocolGym is the value of a command entry's param protocol that runs
// the command as a trained agent (docs/gym.md): the Stepper decides one
// job at a time and package gym's observer computes what the agent sees,
// the observation it was trained on.
const protocolGym = "gym"

// isAgent reports whether a command entry is a trained agent.
func isAgent(entry model.PolicyEntry) bool {
	return entry.Command != nil && entry.Params["protocol"] == protocolGym
}

// agentConfig reads an agent entry's params: the environment's keywords
// it was trained under (backfill, order, queue, kill,
// max_estimate_seconds); the rest (protocol, the agent's own) are the
// command's.
func agentConfig(entry model.PolicyEntry) (gym.Config, error) {
	c := gym.Config{Backfill: entry.Params["backfill"], Order: entry.Params["order"], Kill: entry.Params["kill"]}
	for key, p := range map[string]*int64{"queue": nil, "max_estimate_seconds": &c.MaxEstimateSeconds} {
		v, ok := entry.Params[key]
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return c, fmt.Errorf("policy %s: param %s=%q: want a whole number", entry.Name, key, v)
		}
		if p == nil {
			c.Queue = int(n)
		} else {
			*p = n
		}
	}
	return c, nil
}

// agentSchedule simulates workload w under a trained agent's command.
func agentSchedule(ctx context.Context, entry model.PolicyEntry, w *rigid.Workload, v rigid.Variant) (*backfill.Schedule, error) {
	c, err := agentConfig(entry)
	if err != nil {
		return nil, err
	}
	agent, err := gym.StartAgent(ctx, entry.Argv, entry.Dir, entry.DecisionTimeout, c)
	if err != nil {
		return nil, err
	}
	sched, _, err := gym.Evaluate(ctx, w, v, c, agent)
	if cerr := agent.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", entry.Name, err)
	}
	if err := verify.Rigid(w, v, sched); err != nil {
		return nil, fmt.Errorf("policy %s: invalid schedule: %w", entry.Name, err)
	}
	return sched, nil
}
