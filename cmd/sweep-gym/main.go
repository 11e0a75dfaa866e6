// Command sweep-gym serves sweep's rigid-job learning environments to the
// Python package's gymnasium.Env (python/sweep_policy/gym.py) over its
// standard input and output: one JSON setup line, then binary frames
// (docs/gym.md). It links the simulator only (no Arrow), so it builds in
// seconds; `sweep gym` is the same server.
//
// `sweep-gym evaluate [flags] -- COMMAND...` runs a trained agent
// (sweep_policy.gym.serve_agent) on one window of a trace as the
// environment would show it, and prints the episode's measures and
// starts as JSON.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sweep-sched/sweep/gym"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "evaluate" {
		if err := evaluate(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "sweep-gym evaluate:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: sweep-gym (a JSON setup line on standard input, then binary frames: docs/gym.md)\n       sweep-gym evaluate -workload PATH -first K [flags] -- COMMAND...")
		os.Exit(2)
	}
	// Every frame is one Write: no buffering to flush.
	if err := gym.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sweep-gym:", err)
		os.Exit(1)
	}
}

func evaluate(args []string) error {
	fs := flag.NewFlagSet("sweep-gym evaluate", flag.ContinueOnError)
	var c gym.Config
	fs.StringVar(&c.Workload, "workload", "", "the SWF file the agent was trained on")
	first := fs.Int("first", 0, "the window's first job (0-based, of the jobs the reader keeps)")
	fs.IntVar(&c.Jobs, "jobs", 256, "jobs in the window")
	fs.StringVar(&c.Backfill, "backfill", "none", "none or easy")
	fs.StringVar(&c.Order, "order", "fcfs", "EASY's order behind the committed head")
	fs.IntVar(&c.Queue, "queue", 64, "K, the waiting jobs the observation shows")
	fs.StringVar(&c.Estimates, "estimates", "R", "T, R or predicted")
	fs.StringVar(&c.Kill, "kill", "request", "request or never")
	fs.Int64Var(&c.MaxEstimateSeconds, "max-estimate-seconds", 0, "the estimate feature's normalisation (0: the trace's longest request)")
	timeout := fs.Duration("decision-timeout", 30*time.Second, "how long the agent may take for one decision")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("give the agent's command after --")
	}
	ctx := context.Background()
	agent, err := gym.StartAgent(ctx, fs.Args(), "", *timeout, c)
	if err != nil {
		return err
	}
	w, sched, m, err := gym.EvaluateWindow(ctx, c, *first, agent)
	if cerr := agent.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	out := struct {
		Workload string       `json:"workload"`
		First    int          `json:"first"`
		Jobs     int          `json:"jobs"`
		Measures gym.Measures `json:"measures"`
		Starts   []int64      `json:"start_seconds"`
	}{w.Name, *first, len(w.Jobs), m, sched.StartSeconds}
	return json.NewEncoder(os.Stdout).Encode(out)
}
